import Foundation
import HealthTestSupport
import Testing

@testable import HealthStages

/// The quantity type table next to the repository (`../shared`); absent in a fresh clone.
private let quantityTypesPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/reference/quantity-types.tsv")
    .standardizedFileURL.path
private let quantityTypesAvailable = FileManager.default.fileExists(atPath: quantityTypesPath)

/// True when `actual` equals `expected` to within `relative` of its size (absolutely near zero).
private func isClose(_ actual: Double, _ expected: Double, relative: Double = 1e-12) -> Bool {
    abs(actual - expected) <= relative * max(1, abs(expected))
}

/// Converts `value` from one unit string to another, or nil when either does not parse or they differ.
private func convert(_ value: Double, _ from: String, _ to: String) -> Double? {
    guard let source = HealthUnit.parse(from), let target = HealthUnit.parse(to) else { return nil }
    return source.converter(to: target)?.convert(value)
}

/// Glucose as exports write it (molar mass of glucose in g/mol).
private let glucoseMolar = "mmol<180.1558800000541>/L"

struct HealthUnitTests {
    /// (from, to, value, expected) with textbook numbers.
    static let knownConversions: [(String, String, Double, Double)] = [
        ("lb", "kg", 1, 0.45359237), ("kg", "lb", 0.45359237, 1), ("st", "lb", 1, 14), ("oz", "g", 1, 28.349523125),
        ("mi", "km", 1, 1.609344), ("km", "mi", 1.609344, 1), ("ft", "in", 1, 12), ("in", "cm", 1, 2.54),
        ("ft", "m", 1, 0.3048), ("yd", "ft", 1, 3), ("mi/hr", "m/s", 1, 0.44704),
        ("kJ", "kcal", 4.184, 1), ("kcal", "kJ", 1, 4.184), ("Cal", "kcal", 1, 1), ("kcal", "Cal", 250, 250),
        ("cal", "kcal", 1000, 1), ("kcal", "J", 1, 4184),
        ("degF", "degC", 32, 0), ("degF", "degC", 98.6, 37), ("degF", "degC", -40, -40), ("degC", "degF", 100, 212),
        ("degC", "degF", 37, 98.6), ("K", "degC", 273.15, 0), ("degC", "K", -273.15, 0), ("degF", "K", 32, 273.15),
        (glucoseMolar, "mg/dL", 5.5, 5.5 * 18.01558800000541), ("mg/dL", glucoseMolar, 99.0857340000297, 5.5),
        (glucoseMolar, "mg/dL", 1, 18.01558800000541),
        ("km/hr", "m/s", 36, 10), ("m/s", "km/hr", 1, 3.6),
        ("count/min", "count/s", 60, 1), ("count/s", "count/min", 1.5, 90), ("count/min", "Hz", 120, 2),
        ("mL/min·kg", "mL/min·kg", 42.5, 42.5), ("mL/min·kg", "ml/(kg*min)", 42.5, 42.5),
        ("mL/min·kg", "L/(kg·hr)", 1, 0.06), ("kcal/hr·kg", "kcal/(kg*hr)", 4.5, 4.5),
        ("fl_oz_us", "mL", 1, 29.5735295625), ("cup_us", "fl_oz_us", 1, 8), ("pt_us", "cup_us", 1, 2),
        ("fl_oz_imp", "mL", 1, 28.4130625), ("pt_imp", "fl_oz_imp", 1, 20), ("cup_imp", "mL", 1, 284.130625),
        ("mcg", "mg", 1000, 1), ("\u{00B5}g", "mcg", 3, 3), ("mg", "g", 250, 0.25), ("dL", "mL", 1, 100),
        ("mmHg", "Pa", 1, 133.322387415), ("inHg", "mmHg", 1, 25.4), ("atm", "kPa", 1, 101.325),
        ("cmAq", "Pa", 1, 98.0665), ("d", "hr", 1, 24), ("ms", "s", 250, 0.25), ("hr", "min", 1.5, 90),
        ("deg", "rad", 180, Double.pi), ("kJ/hr", "W", 3.6, 1), ("W", "J/s", 7, 7), ("%", "%", 0.18, 0.18),
        ("dBASPL", "dBASPL", 83.0485, 83.0485), ("m/s^2", "m/s·s", 9.81, 9.81), ("m/s/s", "m/s^2", 2, 2),
        ("degC/s", "K/s", 2, 2), ("degF/s", "K/s", 9, 5), ("count", "count", 7, 7), ("IU", "IU", 3, 3),
    ]

    @Test("known conversions give the textbook numbers", arguments: knownConversions.indices)
    func knownConversion(index: Int) throws {
        let (from, to, value, expected) = Self.knownConversions[index]
        let result = try #require(convert(value, from, to), "\(from) → \(to) should convert")
        #expect(isClose(result, expected), "\(value) \(from) → \(result) \(to), expected \(expected)")
    }

    @Test("a/b·c means a/(b·c), and a/b/c means the same")
    func slashGrouping() throws {
        let vo2 = try #require(HealthUnit.parse("mL/min·kg"))
        let perBoth = try #require(HealthUnit.parse("mL/(min·kg)"))
        let perMinuteTimesKg = try #require(HealthUnit.parse("(mL/min)·kg"))
        #expect(vo2.dimension == perBoth.dimension && vo2.scale == perBoth.scale)
        #expect(vo2.dimension != perMinuteTimesKg.dimension)
        #expect(HealthUnit.parse("mL/min/kg")?.dimension == vo2.dimension)
        #expect(HealthUnit.parse("kcal/hr·kg")?.dimension == HealthUnit.parse("kcal/(kg*hr)")?.dimension)
    }

    @Test("% is a fraction of its own kind: identity to itself, never to count")
    func percentAndCount() throws {
        let percent = try #require(HealthUnit.parse("%"))
        let count = try #require(HealthUnit.parse("count"))
        #expect(percent.converter(to: percent)?.isIdentity == true)
        #expect(!percent.isConvertible(to: count))
        #expect(count.dimension.isDimensionless)
    }

    @Test("molar mass comes from the annotation and is needed to reach grams")
    func molarMass() throws {
        let glucose = try #require(HealthUnit.parse(glucoseMolar))
        #expect(glucose.molarMass == 180.1558800000541)
        #expect(HealthUnit.parse("mmol<180.15588000005408>/L")?.molarMass == 180.15588000005408)
        #expect(HealthUnit.parse("mg/dL")?.molarMass == nil)
        #expect(convert(1, "mmol/L", "mg/dL") == nil)
        #expect(convert(1, "mg/dL", "mmol/L") == nil)
        let plain = try #require(convert(2, "mmol/L", "mol/L"))
        #expect(isClose(plain, 0.002))
        #expect(HealthUnit.parse("mol<180>/mol<18>") == nil)
    }

    @Test("offsets apply only to a lone temperature unit")
    func affineHandling() throws {
        let celsius = try #require(HealthUnit.parse("degC"))
        #expect(celsius.offset == 273.15)
        #expect(HealthUnit.parse("(degC)")?.offset == 273.15)
        #expect(HealthUnit.parse("degC/s")?.offset == 0)
        #expect(HealthUnit.parse("degF^2")?.offset == 0)
    }

    @Test(
        "wrong-dimension pairs are refused",
        arguments: [
            ("kg", "m"), ("degC", "kg"), ("dBASPL", "count"), ("dBASPL", "dBHL"), ("%", "count"), ("IU", "count"),
            ("appleEffortScore", "count"), ("kcal", "kcal/hr·kg"), ("m/s", "km"), ("rad", "count"),
            ("diopter", "prismDiopter"), ("W", "J"), ("S", "V"), ("lx", "count"), ("mL", "m"),
        ])
    func wrongDimension(from: String, to: String) throws {
        let source = try #require(HealthUnit.parse(from))
        let target = try #require(HealthUnit.parse(to))
        #expect(source.converter(to: target) == nil)
        #expect(target.converter(to: source) == nil)
    }

    @Test(
        "garbage parses to nil",
        arguments: [
            "", "kg/", "((m)", "m^", "mol<abc>", "xyz", "/kg", "kg//s", "kg··s", "kg*", " kg", "kg ", "()", "m)",
            "m^-", "m^x", "m^1000", "m^99999999999999999999", "g<180>", "mol<>", "mol<-5>", "mol<inf>", "mol<nan>",
            "mol<0>", "mol<1e999>", "mol<180", "T", "kCal", "kdegC", "Kg", "mmmg", "ft2", "2m", "m^2^", "km/hr·",
            "mL/(min·kg", "Tm^64", "(((((((((((((((((((((((((m)))))))))))))))))))))))))", "count/min\u{0}",
        ])
    func garbage(text: String) {
        #expect(HealthUnit.parse(text) == nil, "\(text.debugDescription) should not parse")
    }

    @Test("random strings over the grammar's alphabet never crash")
    func fuzz() {
        var generator = SplitMix64(state: 0xC0FFEE)
        let alphabet = Array("kgmLsμµ%^-+0123456789()/·*<>.eEdcoulntCJKFPaHzhrimWVS_ ")
        var parsed = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            if let unit = HealthUnit.parse(text) {
                parsed += 1
                #expect(unit.scale.isFinite && unit.scale > 0, "\(text)")
            }
        }
        #expect(parsed > 0)
    }

    /// Units of many kinds; the property test runs every convertible ordered pair of them.
    static let roundTripUnits = [
        "count", "%", "g", "kg", "mg", "mcg", "\u{00B5}g", "oz", "lb", "st", "m", "cm", "mm", "km", "in", "ft", "yd",
        "mi", "L", "l", "mL", "dL", "fl_oz_us", "fl_oz_imp", "cup_us", "cup_imp", "pt_us", "pt_imp", "s", "ms",
        "min", "hr", "d", "J", "kJ", "cal", "kcal", "Cal", "Pa", "kPa", "mmHg", "cmAq", "atm", "inHg", "K", "degC",
        "degF", "W", "kW", "V", "mV", "S", "mcS", "Hz", "kHz", "lx", "deg", "rad", "dBASPL", "dBHL", "IU",
        "appleEffortScore", "diopter", "prismDiopter", "mol", "mmol", "count/min", "count/s", "m/s", "km/hr",
        "mi/hr", "mL/min·kg", "L/(kg*hr)", "kcal/hr·kg", "J/(kg·s)", glucoseMolar, "mg/dL", "g/L",
        "mmol<180.1558800000541>", "m/s^2", "ft/s^2", "K/s", "degC/min", "L/min", "mL/s",
    ]

    @Test("from → to → from gives the value back for every convertible pair")
    func roundTrips() throws {
        let units = try Self.roundTripUnits.map { try #require(HealthUnit.parse($0), "\($0) should parse") }
        var generator = SplitMix64(state: 20_240_611)
        var pairs = 0
        for (i, from) in units.enumerated() {
            for (j, to) in units.enumerated() where i != j {
                let sameDimension = from.dimension == to.dimension
                guard let forward = from.converter(to: to) else {
                    #expect(!sameDimension, "\(Self.roundTripUnits[i]) → \(Self.roundTripUnits[j])")
                    continue
                }
                let back = try #require(to.converter(to: from), "\(Self.roundTripUnits[j]) → back")
                pairs += 1
                for _ in 0..<25 {
                    let magnitude = pow(10, Double.random(in: -0.3...6, using: &generator))
                    let value = Bool.random(using: &generator) ? magnitude : -magnitude
                    let again = back.convert(forward.convert(value))
                    #expect(
                        isClose(again, value, relative: 1e-9),
                        "\(value) \(Self.roundTripUnits[i]) → \(Self.roundTripUnits[j]) → \(again)")
                }
            }
        }
        #expect(pairs > 300)
    }

    @Test("the cache answers like a fresh parse, including refusals")
    func cache() throws {
        let cache = UnitConversionCache()
        for _ in 0..<3 {
            let kilojoules = try #require(cache.converter(from: "kJ", to: "kcal"))
            #expect(isClose(kilojoules.convert(4.184), 1))
            #expect(cache.converter(from: "kcal", to: "kcal")?.isIdentity == true)
            #expect(cache.converter(from: "kg", to: "m") == nil)
            #expect(cache.converter(from: "xyz", to: "m") == nil)
            #expect(cache.converter(from: "%", to: "%")?.isIdentity == true)
        }
    }

    /// The unit strings of one TSV cell such as `km (x400 in samples); mi (docs; unverified)`: split at
    /// semicolons outside parentheses, and keep what precedes each " (" note.
    private static func unitsSeen(in cell: String) -> [String] {
        var entries: [String] = []
        var current = ""
        var depth = 0
        for character in cell {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ";" && depth == 0 {
                entries.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        entries.append(current)
        return entries.compactMap { entry in
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            let unit = trimmed.range(of: " (").map { String(trimmed[..<$0.lowerBound]) } ?? trimmed
            return unit.isEmpty ? nil : unit
        }
    }

    @Test(
        "every canonical and seen unit of quantity-types.tsv parses and reaches its canonical unit",
        .enabled(if: quantityTypesAvailable, "../shared/reference is absent (fresh clone): TSV units not checked"))
    func quantityTypeTable() throws {
        let text = try String(contentsOfFile: quantityTypesPath, encoding: .utf8)
        let rows = text.split(whereSeparator: \.isNewline).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        let header = try #require(rows.first).map(String.init)
        let identifierColumn = try #require(header.firstIndex(of: "identifier"))
        let canonicalColumn = try #require(header.firstIndex(of: "canonical_unit"))
        let seenColumn = try #require(header.firstIndex(of: "units_seen_in_exports"))
        var checked = 0
        for row in rows.dropFirst() where row.count > max(canonicalColumn, seenColumn) {
            let identifier = String(row[identifierColumn])
            let canonicalText = String(row[canonicalColumn])
            let canonical = try #require(HealthUnit.parse(canonicalText), "\(identifier): canonical \(canonicalText)")
            for seen in Self.unitsSeen(in: String(row[seenColumn])) {
                let unit = HealthUnit.parse(seen)
                #expect(unit != nil, "\(identifier): seen unit \(seen) does not parse")
                #expect(unit?.isConvertible(to: canonical) == true, "\(identifier): \(seen) → \(canonicalText)")
                checked += 1
            }
        }
        #expect(checked > 50)
    }
}
