import Foundation

/// Compact JSON text for small structures (attribute lists, labels), written without Foundation's encoder.
package enum JSONText {
    /// Compact JSON of string pairs/arrays (attribute lists), keys in document order.
    package static func json(_ pairs: [(name: String, value: String)]) -> String {
        "{" + pairs.map { quote($0.name) + ":" + quote($0.value) }.joined(separator: ",") + "}"
    }

    package static func json(_ dictionary: [String: Double]) -> String {
        "{" + dictionary.sorted { $0.key < $1.key }.map { quote($0.key) + ":" + "\($0.value)" }.joined(separator: ",")
            + "}"
    }

    package static func json(_ strings: [String]) -> String { "[" + strings.map(quote).joined(separator: ",") + "]" }

    package static func json(_ rows: [[String]]) -> String { "[" + rows.map(json).joined(separator: ",") + "]" }

    package static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
