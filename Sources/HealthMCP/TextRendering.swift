import Foundation
import HealthJSON
import HealthModel

/// The text renderings of answers. Text that comes from the export (source and app names, metadata values,
/// anything a query returns) is untrusted: it is only ever shown as a quoted, escaped JSON string, cut to a
/// length, never as prose, so "ignore previous instructions" in a source name reads as a name.
enum TextRendering {
    /// Export text as data: a JSON string literal, at most `limit` characters of it.
    static func quoted(_ text: String, limit: Int = 80) -> String {
        let cut = text.utf8.count > limit && text.count > limit ? String(text.prefix(limit)) + "…" : text
        return JSON.string(cut).serialized
    }

    static func quotedList(_ texts: [String]) -> String {
        texts.isEmpty ? "none" : texts.map { quoted($0) }.joined(separator: ", ")
    }

    /// A number as a person reads it: whole and grouped from 1,000, else up to 2 decimals.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        if abs(value) >= 1_000 { return (value < 0 ? "-" : "") + DigitGrouping.grouped(Int(abs(value).rounded())) }
        return fixed(value, decimals: abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2)
    }

    /// `value` rounded to `decimals` places, trailing zeros kept (`72.40`), without `String(format:)`, which costs
    /// microseconds per call on Linux (a year of points is hundreds of calls).
    static func fixed(_ value: Double, decimals: Int) -> String {
        let scale = [1.0, 10, 100][decimals]
        let scaled = Int64((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(scaled) }
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    static func number(_ value: Double?, unit: String?) -> String {
        guard value != nil else { return "no data" }
        return number(value) + (unit.map { " " + $0 } ?? "")
    }

    /// A number rounded as its metric means it (`Precision`), grouped from 1,000: `19,647`, `62.4`, `0.975`.
    static func value(_ value: Double?, _ rounding: Precision.Rounding) -> String {
        guard let value, value.isFinite else { return "—" }
        let shown = rounding(value)
        if shown.rounded() == shown && abs(shown) < 1e15 {
            let whole = Int64(shown)
            return abs(whole) >= 1_000 ? (whole < 0 ? "-" : "") + DigitGrouping.grouped(Int(abs(whole))) : String(whole)
        }
        return String(shown)
    }

    /// `2024-04-07T07:12:31Z` → `2024-04-07 07:12 UTC`.
    static func instant(_ text: String?) -> String {
        guard let text, text.count >= 16 else { return text ?? "—" }
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + (text.hasSuffix("Z") ? " UTC" : "")
    }
}

extension JSON {
    /// A number rounded as its metric means it (`Precision`); null for none.
    static func rounded(_ value: Double?, _ rounding: Precision.Rounding) -> JSON { .real(rounding(value)) }

    /// An array of names from a rollup's `sources` text.
    static func sources(_ text: String?) -> JSON {
        .array((text.map(RollupCombination.split) ?? []).map(JSON.string))
    }
}
