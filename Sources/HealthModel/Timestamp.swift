/// An instant as the export writes it: `2019-06-17 21:07:11 -0400`.
///
/// The export writes every date of one file in the one UTC offset the phone had at the moment of export, so
/// the offset says nothing about where a sample happened; it is kept only because it is what was written.
/// Identity and ordering use `seconds` (UTC) alone.
public struct Timestamp: Equatable, Hashable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// The offset as written, in seconds east of UTC.
    public var offsetSeconds: Int32

    public init(seconds: Int64, offsetSeconds: Int32) {
        self.seconds = seconds
        self.offsetSeconds = offsetSeconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.seconds < rhs.seconds }

    /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` by hand (no DateFormatter: this runs millions of times).
    /// Also accepts `±hh:mm` and `Z`, and the iOS 8/9 exporter's compact `yyyyMMddHHmmss±hhmm`
    /// (`parseCompact`). Returns nil for anything else.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard bytes.count >= 19, let base = bytes.baseAddress else { return nil }
        if base[4] != 0x2D { return parseCompact(bytes) }
        func digits(_ offset: Int, _ count: Int) -> Int? { decimal(base, offset, count) }
        guard base[4] == 0x2D, base[7] == 0x2D, base[10] == 0x20 || base[10] == 0x54, base[13] == 0x3A,
            base[16] == 0x3A,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var offset = 0
        var index = 19
        if index < bytes.count, base[index] == 0x20 { index += 1 }
        if index < bytes.count {
            let sign = base[index]
            if sign == UInt8(ascii: "Z"), index + 1 == bytes.count {
                offset = 0
            } else {
                guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
                let rest = bytes.count - index - 1
                let hours: Int?
                let minutes: Int?
                if rest == 4 {
                    hours = digits(index + 1, 2)
                    minutes = digits(index + 3, 2)
                } else if rest == 5, base[index + 3] == 0x3A {
                    hours = digits(index + 1, 2)
                    minutes = digits(index + 4, 2)
                } else {
                    return nil
                }
                guard let hours, let minutes, hours < 24, minutes < 60 else { return nil }
                offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
        } else if bytes.count != 19 {
            return nil
        }
        let local = Int64(daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(seconds: local - Int64(offset), offsetSeconds: Int32(offset))
    }

    public static func parse(_ text: String) -> Timestamp? {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    package static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01 (inverse of `daysFromCivil`).
    package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Parses export dates, remembering the last date-and-offset part: consecutive records share it, so most
/// dates only need their time of day parsed.
package struct TimestampCache {
    private var dayPrefix: (UInt64, UInt16) = (0, 0)
    private var trailer: (UInt64, UInt8) = (0, 0)
    private var dayStart: Int64 = 0
    private var offset: Int32 = 0
    private var valid = false

    package mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        // The fast path covers exactly the export's own shape: `yyyy-MM-dd HH:mm:ss ±hhmm` (25 bytes).
        guard bytes.count == 25, let base = bytes.baseAddress else { return Timestamp.parse(bytes) }
        let raw = UnsafeRawPointer(base)
        let prefix = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        let tail = (raw.loadUnaligned(fromByteOffset: 17, as: UInt64.self), base[10])
        if valid, prefix == dayPrefix, tail.1 == trailer.1,
            tail.0 >> 16 == trailer.0 >> 16,  // the offset, bytes 19…24
            let time = Self.timeOfDay(base)
        {
            return Timestamp(seconds: dayStart + Int64(time) - Int64(offset), offsetSeconds: offset)
        }
        guard let parsed = Timestamp.parse(bytes), let time = Self.timeOfDay(base) else {
            return Timestamp.parse(bytes)
        }
        dayPrefix = prefix
        trailer = tail
        offset = parsed.offsetSeconds
        dayStart = parsed.seconds + Int64(parsed.offsetSeconds) - Int64(time)
        valid = true
        return parsed
    }

    /// `HH:mm:ss` at bytes 11…18, validated.
    @inline(__always)
    private static func timeOfDay(_ base: UnsafePointer<UInt8>) -> Int? {
        @inline(__always) func digit(_ index: Int) -> Int? {
            let value = Int(base[index]) &- 48
            return value >= 0 && value <= 9 ? value : nil
        }
        guard base[13] == 0x3A, base[16] == 0x3A, let h1 = digit(11), let h2 = digit(12), let m1 = digit(14),
            let m2 = digit(15), let s1 = digit(17), let s2 = digit(18)
        else { return nil }
        let hour = h1 * 10 + h2
        let minute = m1 * 10 + m2
        let second = s1 * 10 + s2
        guard hour < 24, minute < 60, second < 61 else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    package init() {}
}
