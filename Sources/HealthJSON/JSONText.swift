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

    /// A JSON string literal, by the one quoter (`JSON.quote`): what the MCP server's answers use too.
    package static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        JSON.quote(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
