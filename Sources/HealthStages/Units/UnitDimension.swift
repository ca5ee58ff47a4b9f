/// The kind of quantity a unit measures, as a vector of integer exponents over base dimensions.
///
/// Two units convert into each other exactly when their dimensions are equal (or, for amounts of substance,
/// when a molar mass bridges moles and grams; see `HealthUnit.converter(to:)`). Besides the SI base
/// dimensions the vector has one lane for each HealthKit unit family that HealthKit refuses to convert to
/// anything else: percent, the two decibel scales, international units, the effort score and the two
/// vision units. Giving them their own lanes is what keeps `%`→`count` or `dBASPL`→`count` refused while
/// still letting them appear inside compounds (`dBASPL/s`).
///
/// The exponents live in one `SIMD16<Int16>` so that the type is a plain value (no allocation), cheap to
/// hash and compare, and adding dimensions (multiplying units) is one vector addition.
public struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// One lane per base dimension, indexed by `Base.rawValue`; lane 15 is unused and always zero.
    var exponents: SIMD16<Int16>

    /// The base dimensions, in lane order. Names are what `description` prints.
    enum Base: Int, CaseIterable, Sendable {
        case length, mass, time, current, temperature, amount, luminousIntensity, angle
        case percent, soundPressureLevel, hearingLevel, internationalUnit, effortScore
        case refractivePower, prismaticPower

        /// A short symbol for `description` (SI symbols where they exist).
        var symbol: String {
            switch self {
            case .length: "m"
            case .mass: "kg"
            case .time: "s"
            case .current: "A"
            case .temperature: "K"
            case .amount: "mol"
            case .luminousIntensity: "cd"
            case .angle: "rad"
            case .percent: "%"
            case .soundPressureLevel: "dBASPL"
            case .hearingLevel: "dBHL"
            case .internationalUnit: "IU"
            case .effortScore: "appleEffortScore"
            case .refractivePower: "diopter"
            case .prismaticPower: "prismDiopter"
            }
        }
    }

    /// Exponents further than this from zero are refused by the parser: they only arise from garbage such
    /// as `m^30000`, and refusing them keeps every arithmetic step far from `Int16` overflow.
    static let maximumExponent: Int16 = 64

    init(exponents: SIMD16<Int16>) {
        self.exponents = exponents
    }

    /// The dimension of a pure number (`count`, `m/m`).
    public static let dimensionless = UnitDimension(exponents: .zero)

    /// A single base dimension raised to `power`.
    init(_ base: Base, _ power: Int16 = 1) {
        var lanes = SIMD16<Int16>.zero
        lanes[base.rawValue] = power
        self.exponents = lanes
    }

    /// A dimension given as (base, exponent) pairs, for the unit catalogue.
    init(_ pairs: [(Base, Int16)]) {
        var lanes = SIMD16<Int16>.zero
        for (base, power) in pairs {
            lanes[base.rawValue] += power
        }
        self.exponents = lanes
    }

    /// The exponent of one base dimension.
    func exponent(of base: Base) -> Int16 {
        exponents[base.rawValue]
    }

    /// True for `count` and anything that reduces to a pure number.
    public var isDimensionless: Bool {
        exponents == .zero
    }

    /// True when no exponent exceeds `maximumExponent` in magnitude.
    var isWithinLimits: Bool {
        let upper = SIMD16<Int16>(repeating: UnitDimension.maximumExponent)
        let lower = SIMD16<Int16>(repeating: -UnitDimension.maximumExponent)
        return all(exponents .<= upper) && all(exponents .>= lower)
    }

    /// The dimension of a product of units.
    static func * (lhs: UnitDimension, rhs: UnitDimension) -> UnitDimension {
        UnitDimension(exponents: lhs.exponents &+ rhs.exponents)
    }

    /// The dimension of a quotient of units.
    static func / (lhs: UnitDimension, rhs: UnitDimension) -> UnitDimension {
        UnitDimension(exponents: lhs.exponents &- rhs.exponents)
    }

    /// The dimension of a unit raised to an integer power. Callers bound `power` and the operand's
    /// exponents first (see `maximumExponent`), so the wrapping multiply never actually wraps.
    func raised(to power: Int16) -> UnitDimension {
        UnitDimension(exponents: exponents &* SIMD16<Int16>(repeating: power))
    }

    /// A readable form such as `kg·m^2·s^-2`, for test failures and diagnostics; not an HKUnit string.
    public var description: String {
        let parts = Base.allCases.compactMap { base -> String? in
            let power = exponent(of: base)
            switch power {
            case 0: return nil
            case 1: return base.symbol
            default: return "\(base.symbol)^\(power)"
            }
        }
        return parts.isEmpty ? "1" : parts.joined(separator: "·")
    }
}
