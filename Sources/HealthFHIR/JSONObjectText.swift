import HealthJSON
import HealthModel

/// A JSON object written as text, member by member, with the project's quoting (`JSONText.quote`): the
/// resources are built straight into the line that is written, with no tree and no encoder.
struct JSONObjectText {
    private var text = "{"
    private var empty = true

    init() {}

    private mutating func key(_ name: String) {
        if !empty { text += "," }
        empty = false
        text += JSONText.quote(name) + ":"
    }

    mutating func string(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        text += JSONText.quote(value)
    }

    mutating func number(_ name: String, _ value: Double) {
        key(name)
        text += Self.number(value)
    }

    /// A member whose value is JSON text already (an object or array built the same way).
    mutating func raw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    var json: String { text + "}" }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// A JSON number: integers without a fraction, others in Swift's shortest form, rounded to nine decimals
    /// (a converted value such as 0.97 × 100 would otherwise read 97.00000000000001). Callers skip non-finite values.
    static func number(_ value: Double) -> String {
        let rounded = (value * 1e9).rounded() / 1e9
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }
}
