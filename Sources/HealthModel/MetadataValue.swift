/// Metadata values that are quantities (`418 cm`, `56 degF`, `1`).
package enum MetadataValue {
    package static func quantity(_ value: String) -> (Double?, String?) {
        guard let first = value.utf8.first, (first >= 0x30 && first <= 0x39) || first == 0x2D || first == 0x2E else {
            return (nil, nil)
        }
        if let whole = NumberParsing.parseDouble(value) { return (whole, nil) }
        guard let space = value.firstIndex(of: " ") else { return (nil, nil) }
        let unit = value[value.index(after: space)...]
        guard let number = NumberParsing.parseDouble(String(value[..<space])), !unit.isEmpty,
            !unit.contains(" "), !unit.first!.isNumber, unit.first != "+"
        else { return (nil, nil) }
        return (number, String(unit))
    }

    /// The same, from the decoded UTF-8 of a value: a `String` is made only for a value that starts like a
    /// number, so the text values most entries hold cost nothing here.
    package static func quantity(_ value: UnsafeBufferPointer<UInt8>) -> (Double?, String?) {
        guard let first = value.first, (first >= 0x30 && first <= 0x39) || first == 0x2D || first == 0x2E else {
            return (nil, nil)
        }
        return quantity(String(decoding: value, as: UTF8.self))
    }
}
