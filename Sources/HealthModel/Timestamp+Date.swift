/// A calendar date written `YYYY-MM-DD` (the filters', the report's and the lake's local dates) as a day number.
extension Timestamp {
    /// Days since 1970-01-01, or nil unless the bytes are exactly a valid `YYYY-MM-DD` date.
    package static func dayNumber(ofDate text: UnsafeRawBufferPointer) -> Int? {
        guard text.count == 10, let base = text.baseAddress else { return nil }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let year = decimal(bytes, 0, 4),
            let month = decimal(bytes, 5, 2), let day = decimal(bytes, 8, 2), (1...12).contains(month), day >= 1,
            day <= daysInMonth(year, month)
        else { return nil }
        return daysFromCivil(year, month, day)
    }

    /// `dayNumber(ofDate:)` of a `String`.
    package static func dayNumber(ofDate text: String) -> Int? {
        var text = text
        return text.withUTF8 { dayNumber(ofDate: UnsafeRawBufferPointer($0)) }
    }
}
