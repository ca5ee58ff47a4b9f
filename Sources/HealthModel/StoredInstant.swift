/// An instant as the database stores it: `2024-03-31T06:15:00Z` (what `TimestampFormatting.writeUTC` writes), or
/// with a fraction of a second (`…:48.18Z`, HRV beats). The one parser of that text, for the store, CSV, the lake
/// and the MCP server alike; strict, so an impossible date or time (`2024-02-30`, `25:00`) is not an instant.
///
/// Works on bytes, not `String`s: CSV and the lake read millions of them straight from SQLite's buffers.
package enum StoredInstant {
    /// The most digits a fraction may have (nanoseconds).
    package static let maximumFractionDigits = 9

    /// Seconds since 1970 UTC, and where the fraction stands in `text` (from its `.` up to the `Z`; empty when
    /// the instant is in whole seconds); nil for any other text.
    package static func parse(_ text: UnsafeRawBufferPointer) -> (seconds: Int64, fraction: Range<Int>)? {
        let count = text.count
        guard count >= 20, count <= 21 + maximumFractionDigits, let base = text.baseAddress else { return nil }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[count - 1] == UInt8(ascii: "Z"),
            let year = Timestamp.decimal(bytes, 0, 4), let month = Timestamp.decimal(bytes, 5, 2),
            let day = Timestamp.decimal(bytes, 8, 2), let hour = Timestamp.decimal(bytes, 11, 2),
            let minute = Timestamp.decimal(bytes, 14, 2), let second = Timestamp.decimal(bytes, 17, 2),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysInMonth(year, month), hour < 24, minute < 60,
            second < 61
        else { return nil }
        if count > 20 {
            guard bytes[19] == UInt8(ascii: "."), count > 21, Timestamp.decimal(bytes, 20, count - 21) != nil
            else { return nil }
        }
        let days = Int64(Timestamp.daysFromCivil(year, month, day))
        return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second), 19..<(count - 1))
    }

    /// Seconds since 1970 UTC of an instant in whole seconds (exactly `YYYY-MM-DDTHH:MM:SSZ`); nil otherwise.
    package static func seconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard text.count == 20, let instant = parse(text) else { return nil }
        return instant.seconds
    }

    /// `seconds(_:)` of a `String` (settings, one value per run: not for the hot path).
    package static func seconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { seconds(UnsafeRawBufferPointer($0)) }
    }

    /// Microseconds since 1970 UTC, the fraction (at most six digits) included; nil otherwise.
    package static func microseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard let instant = parse(text), instant.fraction.count <= 7, let base = text.baseAddress else { return nil }
        var fraction: Int64 = 0
        if instant.fraction.count > 1 {
            let digits = instant.fraction.count - 1
            fraction = Int64(Timestamp.decimal(base.assumingMemoryBound(to: UInt8.self), 20, digits) ?? 0)
            for _ in digits..<6 { fraction *= 10 }
        }
        return instant.seconds * 1_000_000 + fraction
    }
}
