/// The named units HealthKit writes in unit strings, and the SI prefixes some of them take.
///
/// Every unit is stored as `value_in_SI = value * scale + offset` over the dimension vector, with the
/// kilogram (not the gram) as the mass base so that SI values are true SI. Non-SI factors are the exact
/// legal definitions (international yard and pound of 1959, US customary and imperial fluid measures,
/// conventional millimetre of mercury), so conversions such as lb→kg give the textbook numbers.
enum UnitCatalog {
    /// One named unit before any prefix.
    struct Definition: Sendable {
        /// SI value of one unit (for affine units: the size of one degree).
        let scale: Double
        /// SI value of the unit's zero; non-zero only for `degC` and `degF`.
        let offset: Double
        let dimension: UnitDimension
        /// Whether SI prefixes may precede the name (`kg`, `mL`, `kcal`), as HealthKit allows for SI units.
        let takesPrefix: Bool
        /// Whether `<molar mass>` may follow the name (only `mol`).
        let isMole: Bool

        init(
            _ scale: Double, _ dimension: UnitDimension, offset: Double = 0, prefix: Bool = false,
            mole: Bool = false
        ) {
            self.scale = scale
            self.offset = offset
            self.dimension = dimension
            self.takesPrefix = prefix
            self.isMole = mole
        }
    }

    /// The SI prefixes HealthKit accepts. HealthKit spells micro `mc` (`mcg`); `µ` (U+00B5, what the ECG
    /// files write) and `μ` (U+03BC, Greek mu) are accepted too because they mean the same and are
    /// unambiguous. Longer spellings come first so that `da`/`mc` win over `d`/`m`.
    static let prefixes: [(symbol: String, factor: Double)] = [
        ("da", 1e1), ("mc", 1e-6), ("\u{00B5}", 1e-6), ("\u{03BC}", 1e-6),
        ("p", 1e-12), ("n", 1e-9), ("m", 1e-3), ("c", 1e-2), ("d", 1e-1),
        ("h", 1e2), ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12),
    ]

    private static let length = UnitDimension(.length)
    private static let mass = UnitDimension(.mass)
    private static let time = UnitDimension(.time)
    private static let volume = UnitDimension(.length, 3)
    private static let energy = UnitDimension([(.mass, 1), (.length, 2), (.time, -2)])
    private static let pressure = UnitDimension([(.mass, 1), (.length, -1), (.time, -2)])
    private static let temperature = UnitDimension(.temperature)

    /// One US fluid ounce in cubic metres: 1/128 of the 231 in³ US gallon (exactly 29.5735295625 mL).
    private static let usFluidOunce = 29.5735295625e-6
    /// One imperial fluid ounce in cubic metres: 1/160 of the 4.54609 L imperial gallon.
    private static let imperialFluidOunce = 28.4130625e-6
    /// The conventional millimetre of mercury in pascals (13.5951 g/cm³ × 9.80665 m/s² × 1 mm).
    private static let millimetreOfMercury = 133.322387415

    /// Named units by their exact spelling (case matters: `S` siemens vs `s` second, `Cal` vs `cal`).
    static let units: [String: Definition] = [
        // Scalars. `count` is the pure number. `%` stays its own family: HealthKit stores percent as a
        // fraction (0.5 = 50 %) and documents that count and percent do not convert into each other.
        "count": Definition(1, .dimensionless),
        "%": Definition(1, UnitDimension(.percent)),

        // Mass.
        "g": Definition(1e-3, mass, prefix: true),
        "oz": Definition(0.028349523125, mass),
        "lb": Definition(0.45359237, mass),
        "st": Definition(6.35029318, mass),

        // Amount of substance; the `<g/mol>` annotation is parsed by UnitParser.
        "mol": Definition(1, UnitDimension(.amount), prefix: true, mole: true),

        // Length.
        "m": Definition(1, length, prefix: true),
        "in": Definition(0.0254, length),
        "ft": Definition(0.3048, length),
        "yd": Definition(0.9144, length),
        "mi": Definition(1609.344, length),

        // Volume.
        "L": Definition(1e-3, volume, prefix: true),
        "l": Definition(1e-3, volume, prefix: true),
        "fl_oz_us": Definition(usFluidOunce, volume),
        "fl_oz_imp": Definition(imperialFluidOunce, volume),
        "cup_us": Definition(8 * usFluidOunce, volume),
        "cup_imp": Definition(10 * imperialFluidOunce, volume),
        "pt_us": Definition(16 * usFluidOunce, volume),
        "pt_imp": Definition(20 * imperialFluidOunce, volume),

        // Time.
        "s": Definition(1, time, prefix: true),
        "min": Definition(60, time),
        "hr": Definition(3600, time),
        "d": Definition(86400, time),

        // Energy. `Cal` is the food Calorie, one kilocalorie; `cal` is the thermochemical calorie.
        "J": Definition(1, energy, prefix: true),
        "cal": Definition(4.184, energy, prefix: true),
        "Cal": Definition(4184, energy),

        // Pressure.
        "Pa": Definition(1, pressure, prefix: true),
        "mmHg": Definition(millimetreOfMercury, pressure),
        "inHg": Definition(25.4 * millimetreOfMercury, pressure),
        "cmAq": Definition(98.0665, pressure),
        "atm": Definition(101_325, pressure),

        // Temperature. The offsets are the kelvin value of each scale's zero.
        "K": Definition(1, temperature, prefix: true),
        "degC": Definition(1, temperature, offset: 273.15),
        "degF": Definition(5.0 / 9.0, temperature, offset: 459.67 * 5.0 / 9.0),

        // Electrical, power, frequency, light.
        "W": Definition(1, UnitDimension([(.mass, 1), (.length, 2), (.time, -3)]), prefix: true),
        "V": Definition(1, UnitDimension([(.mass, 1), (.length, 2), (.time, -3), (.current, -1)]), prefix: true),
        "S": Definition(1, UnitDimension([(.current, 2), (.time, 3), (.mass, -1), (.length, -2)]), prefix: true),
        "Hz": Definition(1, UnitDimension(.time, -1), prefix: true),
        "lx": Definition(1, UnitDimension([(.luminousIntensity, 1), (.length, -2)]), prefix: true),

        // Angles. Radians get their own lane so that `rad` does not silently equal `count`.
        "rad": Definition(1, UnitDimension(.angle), prefix: true),
        "deg": Definition(Double.pi / 180, UnitDimension(.angle)),

        // Families HealthKit converts only to themselves.
        "dBASPL": Definition(1, UnitDimension(.soundPressureLevel)),
        "dBHL": Definition(1, UnitDimension(.hearingLevel)),
        "IU": Definition(1, UnitDimension(.internationalUnit)),
        "appleEffortScore": Definition(1, UnitDimension(.effortScore)),
        "diopter": Definition(1, UnitDimension(.refractivePower)),
        "prismDiopter": Definition(1, UnitDimension(.prismaticPower)),
    ]

    /// Resolves a name such as `kg`, `mcg`, `mmHg` or `dL` to a definition with its prefix applied.
    ///
    /// The whole name is tried first, so that units which merely look prefixed (`mmHg`, `min`, `mi`,
    /// `cmAq`, `d`) keep their own meaning; then each prefix, accepting it only in front of a unit that
    /// takes prefixes.
    static func definition(named name: String) -> Definition? {
        if let exact = units[name] {
            return exact
        }
        for (symbol, factor) in prefixes where name.hasPrefix(symbol) {
            let rest = String(name.unicodeScalars.dropFirst(symbol.unicodeScalars.count))
            guard let base = units[rest], base.takesPrefix else { continue }
            return Definition(
                base.scale * factor, base.dimension, offset: base.offset * factor, prefix: false,
                mole: base.isMole)
        }
        return nil
    }
}
