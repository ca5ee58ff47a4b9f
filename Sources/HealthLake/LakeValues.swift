import HealthModel

/// The text forms the database stores instants and days in, read as the numbers Parquet stores.
enum LakeValues {
    /// `2024-03-31T06:15:00Z` or with a fraction (`…:48.94Z`) → microseconds since 1970 UTC; nil otherwise.
    static func microseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard text.count >= 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            text[text.count - 1] == UInt8(ascii: "Z"),
            let days = days(text), let hour = number(text, 11, 2), let minute = number(text, 14, 2),
            let second = number(text, 17, 2), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction: Int64 = 0
        if text.count > 20 {
            guard text[19] == UInt8(ascii: "."), text.count <= 27 else { return nil }
            let digits = text.count - 21
            guard digits >= 1, let value = number(text, 20, digits) else { return nil }
            fraction = Int64(value)
            for _ in digits..<6 { fraction *= 10 }
        } else if text.count != 20 {
            return nil
        }
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return seconds * 1_000_000 + fraction
    }

    /// `2024-03-31` (the first ten bytes of the text) → days since 1970-01-01.
    static func days(_ text: UnsafeRawBufferPointer) -> Int32? {
        guard text.count >= 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            let year = number(text, 0, 4), let month = number(text, 5, 2), let day = number(text, 8, 2),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysInMonth(year, month)
        else { return nil }
        return Int32(Timestamp.daysFromCivil(year, month, day))
    }

    /// A calendar day alone (`2024-03-31`, nothing after it).
    static func date(_ text: UnsafeRawBufferPointer) -> Int32? {
        text.count == 10 ? days(text) : nil
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

    private static func number(_ text: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        for index in offset..<(offset + count) {
            let byte = text[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
