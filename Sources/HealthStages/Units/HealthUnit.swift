/// A parsed HKUnit: `value_in_SI = value * scale + offset`, with a dimension vector.
///
/// Exports write every quantity with the unit the user's device preferred (`kJ` or `kcal`, `mi` or `km`,
/// `mmol<180.1558800000541>/L` or `mg/dL`), so the importer needs HealthKit's own unit arithmetic to bring
/// each type to one canonical unit. The string grammar is in `UnitParser`, the named units in
/// `UnitCatalog`.
///
/// Decisions that differ from a naive reading of the strings:
/// - `%` is its own dimension with scale 1, not 0.01 of `count`. HealthKit stores percent as a fraction
///   (body fat 0.18 is written `0.18` with unit `%`) and documents that count and percent do not convert
///   into each other; so `%`→`%` is the identity and `%`→`count` is refused.
/// - Temperatures keep their offset only when the whole unit is a single affine unit (`degC`, `degF`,
///   `(degF)`). Inside any product, quotient or power (`degC/s`, `degF^2`) the offset is dropped and the
///   unit means a temperature difference, which is the only physical reading of a rate of temperature.
/// - Moles convert to grams only through a molar mass annotation (`mmol<180.15…>/L` → `mg/dL`).
public struct HealthUnit: Equatable, Sendable {
    /// SI value of one unit (kilogram, metre, second, kelvin, mole, … based).
    public let scale: Double
    /// SI value of the unit's zero; non-zero only for a lone `degC` or `degF`.
    public let offset: Double
    /// What the unit measures; equal dimensions convert by scale (and offset).
    public let dimension: UnitDimension
    /// The molar mass in g/mol from a `mol<…>` annotation, which lets moles convert to grams.
    public let molarMass: Double?

    init(scale: Double, offset: Double = 0, dimension: UnitDimension, molarMass: Double? = nil) {
        self.scale = scale
        self.offset = offset
        self.dimension = dimension
        self.molarMass = molarMass
    }

    /// Parses an HKUnit string such as `kg`, `count/min`, `mL/min·kg` or `mmol<180.1558800000541>/L`;
    /// nil for anything outside the grammar. Never traps, whatever the input.
    public static func parse(_ text: String) -> HealthUnit? {
        UnitParser.parse(text)
    }

    /// True when a value in this unit can be expressed in `other`.
    public func isConvertible(to other: HealthUnit) -> Bool {
        converter(to: other) != nil
    }

    /// The function from values in this unit to values in `other`, or nil when they measure different
    /// things (`kg`→`m`, `dBASPL`→`count`, `%`→`count`, or moles↔grams without a molar mass).
    public func converter(to other: HealthUnit) -> UnitConverter? {
        var bridge = 1.0
        if dimension != other.dimension {
            guard let factor = molarBridge(to: other) else { return nil }
            bridge = factor
        }
        // SI value in the target's dimension = (v·scale + offset)·bridge; then undo the target's mapping.
        let factor = scale * bridge / other.scale
        let shift = (offset * bridge - other.offset) / other.scale
        guard factor.isFinite, shift.isFinite, factor != 0 else { return nil }
        return UnitConverter(factor: factor, offset: shift)
    }

    /// The factor that turns SI amounts (mol) into SI masses (kg) or back when the two dimensions differ
    /// only by trading `k` moles for `k` kilograms: each mole weighs molarMass grams.
    ///
    /// The molar mass comes from the side that has the moles (this unit when k > 0, `other` when k < 0).
    private func molarBridge(to other: HealthUnit) -> Double? {
        let difference = dimension / other.dimension
        let moles = difference.exponent(of: .amount)
        let step = UnitDimension(.amount) / UnitDimension(.mass)
        guard moles != 0, difference == step.raised(to: moles) else { return nil }
        guard let grams = moles > 0 ? molarMass : other.molarMass else { return nil }
        let kilogramsPerMole = grams / 1000
        var bridge = 1.0
        for _ in 0..<abs(Int(moles)) {
            bridge *= kilogramsPerMole
        }
        return moles > 0 ? bridge : 1 / bridge
    }

    // MARK: Unit arithmetic used by the parser

    /// Scales are refused when they leave the finite positive range, which only garbage such as
    /// `Tm^60` can cause; a zero or infinite scale would make every conversion meaningless.
    private static func make(
        scale: Double, dimension: UnitDimension, molarMass: Double?
    ) -> HealthUnit? {
        guard scale.isFinite, scale > 0, dimension.isWithinLimits else { return nil }
        return HealthUnit(scale: scale, dimension: dimension, molarMass: molarMass)
    }

    /// Both operands' molar masses; nil (refusal) when they disagree, since one number per unit is all
    /// `converter(to:)` can use and a unit mixing two substances has no single meaning.
    private static func combinedMolarMass(_ lhs: HealthUnit, _ rhs: HealthUnit) -> Double?? {
        switch (lhs.molarMass, rhs.molarMass) {
        case (nil, nil): return .some(nil)
        case (let mass?, nil), (nil, let mass?): return .some(mass)
        case (let left?, let right?): return left == right ? .some(left) : nil
        }
    }

    /// The product unit; any temperature offset is dropped (a product means differences).
    func multiplied(by other: HealthUnit) -> HealthUnit? {
        guard let molarMass = Self.combinedMolarMass(self, other) else { return nil }
        return Self.make(scale: scale * other.scale, dimension: dimension * other.dimension, molarMass: molarMass)
    }

    /// The quotient unit; any temperature offset is dropped.
    func divided(by other: HealthUnit) -> HealthUnit? {
        guard let molarMass = Self.combinedMolarMass(self, other) else { return nil }
        return Self.make(scale: scale / other.scale, dimension: dimension / other.dimension, molarMass: molarMass)
    }

    /// The unit raised to an integer power. `^1` keeps the unit as it is, offset included, so that
    /// `degC^1` still means Celsius; any other power means differences.
    func raised(to power: Int16) -> HealthUnit? {
        if power == 1 {
            return self
        }
        var result = 1.0
        for _ in 0..<abs(Int(power)) {
            result *= scale
        }
        if power < 0 {
            result = 1 / result
        }
        return Self.make(scale: result, dimension: dimension.raised(to: power), molarMass: molarMass)
    }
}

/// Converts values from one unit to another: `value * factor + offset`.
public struct UnitConverter: Sendable, Equatable {
    /// Multiplier applied first.
    public let factor: Double
    /// Added after multiplying; non-zero only between temperature scales.
    public let offset: Double

    /// True when converting leaves every value unchanged, so callers can skip the arithmetic.
    public var isIdentity: Bool {
        factor == 1 && offset == 0
    }

    /// The value expressed in the target unit.
    @inline(__always)
    public func convert(_ value: Double) -> Double {
        value * factor + offset
    }
}
