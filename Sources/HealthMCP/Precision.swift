/// The decimals a number is given in answers, per unit (docs/mcp.md, "Precision"): what the metric means, not
/// the 16 digits a mean of doubles carries. Steps are whole, heart rate has one decimal, hours two (36 seconds);
/// a small value keeps at least three significant digits (a wrist temperature deviation of 0.123 °C, a blood
/// oxygen fraction of 0.975), up to four decimals.
enum Precision {
    /// Decimals by unit, as the rollups and samples name units.
    static let table: [String: Int] = [
        "count": 0, "count/min": 1, "ms": 1, "kcal": 0, "Cal": 0, "kJ": 0, "km": 2, "mi": 2, "m": 1, "cm": 1,
        "ft": 1, "in": 1, "kg": 1, "lb": 1, "g": 1, "%": 3, "degC": 2, "degF": 1, "mL/(kg·min)": 1, "mL/min·kg": 1,
        "dBASPL": 0,
        "mmHg": 0, "mg/dL": 0, "mmol<180.15588000005408>/L": 1, "mmol/L": 1, "hr": 2, "min": 0, "s": 0, "m/s": 2,
        "km/hr": 1, "mi/hr": 1, "W": 0, "L": 2, "mL": 0, "kcal/hr·kg": 1,
    ]
    static let fallback = 2

    /// How a metric's numbers are rounded: `decimals`, and for a unit with decimals (not hours, not whole
    /// numbers) at least three significant digits for small values.
    struct Rounding: Equatable {
        var decimals: Int
        var keepsSmallValues: Bool

        func callAsFunction(_ value: Double) -> Double { Precision.rounded(value, self) }
        func callAsFunction(_ value: Double?) -> Double? { value.map { Precision.rounded($0, self) } }
    }

    static let hours = Rounding(decimals: 2, keepsSmallValues: false)
    static let whole = Rounding(decimals: 0, keepsSmallValues: false)

    /// The rounding of a unit for a statistic: a reading count is whole, hours have two decimals.
    static func rounding(unit: String?, statistic: String? = nil) -> Rounding {
        if statistic == "count" { return whole }
        if let statistic, statistic.hasSuffix("_hours") || statistic == "hours" { return hours }
        if unit == "hr" { return hours }
        let decimals = unit.flatMap { table[$0] } ?? fallback
        return Rounding(decimals: decimals, keepsSmallValues: decimals > 0)
    }

    static func rounded(_ value: Double, _ rounding: Rounding) -> Double {
        guard value.isFinite else { return value }
        var places = rounding.decimals
        let magnitude = abs(value)
        if rounding.keepsSmallValues && magnitude > 0 && magnitude < 10 {
            // Three significant digits: 1.23 → 2 places, 0.123 → 3, 0.0123 → 4 (the most).
            var needed = 2
            var scaled = magnitude
            while scaled < 1 && needed < 4 {
                scaled *= 10
                needed += 1
            }
            places = max(places, needed)
        }
        let scale = [1.0, 10, 100, 1_000, 10_000][min(places, 4)]
        return (value * scale).rounded() / scale
    }
}
