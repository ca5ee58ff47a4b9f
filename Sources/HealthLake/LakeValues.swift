import HealthModel

/// The text forms the database stores instants and days in, read as the numbers Parquet stores.
enum LakeValues {
    /// A stored instant (`StoredInstant`: `2024-03-31T06:15:00Z`, or with a fraction, `…:48.94Z`) →
    /// microseconds since 1970 UTC; nil otherwise.
    static func microseconds(_ text: UnsafeRawBufferPointer) -> Int64? { StoredInstant.microseconds(text) }

    /// A calendar day alone (`2024-03-31`, nothing after it) → days since 1970-01-01.
    static func date(_ text: UnsafeRawBufferPointer) -> Int32? {
        Timestamp.dayNumber(ofDate: text).map { Int32($0) }
    }

    /// Seconds east of UTC as the views write them (`+01:00`, `-04:30`): the sign, the whole hours with at least
    /// two digits, the minutes left (`printf('%s%02d:%02d', …)` in `Schema.offsetText`).
    static func offsetText(seconds: Int64) -> [UInt8] {
        let magnitude = seconds.magnitude
        let hours = String(magnitude / 3600).utf8
        let minutes = UInt8(magnitude / 60 % 60)
        var text: [UInt8] = [seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")]
        if hours.count < 2 { text.append(UInt8(ascii: "0")) }
        text += hours
        text += [UInt8(ascii: ":"), UInt8(ascii: "0") + minutes / 10, UInt8(ascii: "0") + minutes % 10]
        return text
    }
}
