extension Timestamp {
    /// Parses the iOS 8/9 exporter's compact dates, `yyyyMMddHHmmss±hhmm` (`20141018163235+0100`), from the
    /// attribute's bytes (no allocation: a legacy export can hold hundreds of thousands of them). Like the
    /// modern form, the offset is the one the phone had at export time, so only the UTC instant matters.
    /// Returns nil for anything else, including the 8-digit dates of the legacy `Me` element.
    static func parseCompact(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard bytes.count == 19, let base = bytes.baseAddress else { return nil }
        func digits(_ offset: Int, _ count: Int) -> Int? { decimal(base, offset, count) }
        let sign = base[14]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            let year = digits(0, 4), let month = digits(4, 2), let day = digits(6, 2),
            let hour = digits(8, 2), let minute = digits(10, 2), let second = digits(12, 2),
            let offsetHours = digits(15, 2), let offsetMinutes = digits(17, 2),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60,
            second < 61, offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        let local = Int64(daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(seconds: local - Int64(offset), offsetSeconds: Int32(offset))
    }

    /// The number written by `count` ASCII digits at `offset`, or nil if any of them is not a digit.
    @inline(__always)
    static func decimal(_ base: UnsafePointer<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        for index in offset..<(offset + count) {
            let digit = Int(base[index]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
