import HealthModel

/// Numbers and instants as the XML formats write them: fixed decimals with a point whatever the locale, UTC
/// instants with centiseconds only when the route has them.
enum XMLText {
    /// `value` with `places` decimals, trailing zeros dropped (`12.5`, `-0.0000123`→`-0.0000123`).
    static func decimal(_ value: Double, places: Int) -> String {
        var scale: Double = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled.isFinite, scaled < 9e17 else { return "0" }
        var units = Int64(scaled)
        var fraction: [Character] = []
        for _ in 0..<places {
            fraction.insert(Character(String(units % 10)), at: 0)
            units /= 10
        }
        while fraction.last == "0" { fraction.removeLast() }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return sign + String(units) + (fraction.isEmpty ? "" : "." + String(fraction))
    }

    /// An instant in centiseconds: `2024-03-24T07:05:00Z`, or `…:00.25Z` when it has a fraction.
    static func instant(_ centis: Int64) -> String {
        let seconds = centis >= 0 ? centis / 100 : (centis - 99) / 100
        let fraction = centis - seconds * 100
        var text = TimestampFormatting.utcString(seconds)
        if fraction != 0 {
            text.removeLast()
            text += "." + (fraction < 10 ? "0" : "") + String(fraction) + "Z"
        }
        return text
    }
}
