/// A recursive-descent parser for HKUnit strings.
///
/// Grammar (whitespace is not allowed anywhere, as HealthKit never writes any):
///
///     unit     := product ( "/" product )*
///     product  := power ( ("·" | "*") power )*
///     power    := primary ( "^" ["-" | "+"] digits )?
///     primary  := "(" unit ")" | atom
///     atom     := [prefix] name [ "<" number ">" ]      -- the annotation only after a mol unit
///
/// `·`/`*` bind tighter than `/`, so everything after a slash is denominator: `mL/min·kg` is
/// mL / (min·kg) and `kcal/hr·kg` is kcal / (hr·kg). This is how HealthKit prints and reads compound
/// units: the export writes VO₂ max as `mL/min·kg` with values around 40 (mL per kg per minute), Apple
/// documents the METs unit of `HKMetadataKeyAverageMETs` as `kcal/(kg*hr)` while exports write that very
/// quantity as `kcal/hr·kg` (values around 4.5, the usual MET range), and apps pass
/// `HKUnit(from: "ml/kg·min")` for VO₂ max queries, which HealthKit only accepts if the kilograms are in
/// the denominator. A chain of slashes `a/b/c` is read left to right, (a/b)/c, which is the same unit as
/// a/(b·c); HealthKit itself may refuse that spelling, but accepting it costs nothing and loses nothing.
struct UnitParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0

    /// Parentheses deeper than this are refused, so hostile input cannot exhaust the stack.
    private static let maximumDepth = 16
    /// Exponent digits beyond this are refused (`m^99999999999` must not trap on conversion to Int).
    private static let maximumExponentDigits = 3

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Parses a whole unit string, or returns nil if any of it is outside the grammar.
    static func parse(_ text: String) -> HealthUnit? {
        var parser = UnitParser(text)
        guard let unit = parser.parseQuotient(), parser.position == parser.scalars.count else {
            return nil
        }
        return unit
    }

    private var current: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    private mutating func parseQuotient() -> HealthUnit? {
        guard var result = parseProduct() else { return nil }
        while current == "/" {
            position += 1
            guard let divisor = parseProduct(), let quotient = result.divided(by: divisor) else { return nil }
            result = quotient
        }
        return result
    }

    private mutating func parseProduct() -> HealthUnit? {
        guard var result = parsePower() else { return nil }
        while current == "\u{00B7}" || current == "*" {
            position += 1
            guard let factor = parsePower(), let product = result.multiplied(by: factor) else { return nil }
            result = product
        }
        return result
    }

    private mutating func parsePower() -> HealthUnit? {
        guard let base = parsePrimary() else { return nil }
        guard current == "^" else { return base }
        position += 1
        guard let exponent = parseExponent() else { return nil }
        return base.raised(to: exponent)
    }

    /// A signed integer exponent, bounded so that dimension arithmetic cannot overflow.
    private mutating func parseExponent() -> Int16? {
        var negative = false
        if current == "-" || current == "+" {
            negative = current == "-"
            position += 1
        }
        var magnitude = 0
        var digits = 0
        while let scalar = current, ("0"..."9").contains(scalar) {
            digits += 1
            guard digits <= Self.maximumExponentDigits else { return nil }
            magnitude = magnitude * 10 + Int(scalar.value - 48)
            position += 1
        }
        guard digits > 0, magnitude <= Int(UnitDimension.maximumExponent) else { return nil }
        return Int16(negative ? -magnitude : magnitude)
    }

    private mutating func parsePrimary() -> HealthUnit? {
        guard current == "(" else { return parseAtom() }
        guard depth < Self.maximumDepth else { return nil }
        position += 1
        depth += 1
        guard let inner = parseQuotient(), current == ")" else { return nil }
        position += 1
        depth -= 1
        return inner
    }

    /// Characters a unit name may contain: ASCII letters, `_` (`fl_oz_us`), `%`, and the two micro signs.
    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "_", "%", "\u{00B5}", "\u{03BC}": true
        default: false
        }
    }

    private mutating func parseAtom() -> HealthUnit? {
        let start = position
        while let scalar = current, Self.isNameScalar(scalar) {
            position += 1
        }
        guard position > start else { return nil }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[start..<position])
        guard let definition = UnitCatalog.definition(named: String(name)) else { return nil }

        var molarMass: Double?
        if current == "<" {
            guard definition.isMole, let mass = parseMolarMass() else { return nil }
            molarMass = mass
        }
        return HealthUnit(
            scale: definition.scale, offset: definition.offset, dimension: definition.dimension,
            molarMass: molarMass)
    }

    /// The `<180.1558800000541>` after a mol unit: a positive finite decimal number in g/mol.
    private mutating func parseMolarMass() -> Double? {
        position += 1  // "<"
        let start = position
        while let scalar = current, scalar != ">" {
            switch scalar {
            case "0"..."9", ".", "e", "E", "+", "-": position += 1
            default: return nil
            }
        }
        guard current == ">", position > start else { return nil }
        var digits = String.UnicodeScalarView()
        digits.append(contentsOf: scalars[start..<position])
        position += 1  // ">"
        let text = String(digits)
        guard let first = text.unicodeScalars.first, first == "." || ("0"..."9").contains(first),
            let value = Double(text), value.isFinite, value > 0
        else { return nil }
        return value
    }
}
