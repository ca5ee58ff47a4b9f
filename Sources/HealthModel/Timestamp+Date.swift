/// A calendar date written `YYYY-MM-DD` (the filters' and the report's local dates) as a day number.
extension Timestamp {
    /// Days since 1970-01-01, or nil unless the text is exactly a valid `YYYY-MM-DD` date.
    package static func dayNumber(ofDate text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year, month)
        else { return nil }
        return daysFromCivil(year, month, day)
    }
}
