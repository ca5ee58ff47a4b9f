import Foundation

/// Text for people on the page, the same on every machine (no locale): `12,345`, `7.5`, `1 h 05 min`.
enum ReportFormat {
    /// Every text from the database goes through this before it reaches the page.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A value for reading: whole numbers with thousands separators from 100 up, else one or two decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        if abs(value) >= 100 { return grouped(Int(value.rounded())) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// An axis tick with as many decimals as the step between ticks needs (0, 2,500, 5,000; 2.5, 5.0; 0.25, 0.50).
    static func tick(_ value: Double, step: Double) -> String {
        let decimals =
            (0...4).first { abs((step * pow(10, Double($0))).rounded() - step * pow(10, Double($0))) < 1e-6 } ?? 4
        return decimals == 0 ? grouped(Int(value.rounded())) : String(format: "%.\(decimals)f", value)
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// The exact stored value, for `data-value`: Swift's shortest text that reads back as the same Double.
    static func exact(_ value: Double) -> String { "\(value)" }

    static func duration(minutes: Double) -> String {
        let total = Int(minutes.rounded())
        guard total >= 60 else { return "\(total) min" }
        let rest = total % 60
        return "\(total / 60) h \(rest < 10 ? "0" : "")\(rest) min"
    }

    static func kilometres(_ metres: Double) -> String {
        metres >= 100_000 ? "\(grouped(Int((metres / 1000).rounded()))) km" : String(format: "%.2f km", metres / 1000)
    }

    /// Minutes per kilometre, as runners read speed, and km/h alongside.
    static func pace(metresPerSecond speed: Double) -> String {
        let secondsPerKilometre = Int((1000 / speed).rounded())
        let seconds = secondsPerKilometre % 60
        return
            "\(secondsPerKilometre / 60):\(seconds < 10 ? "0" : "")\(seconds) /km (\(String(format: "%.1f", speed * 3.6)) km/h)"
    }
}
