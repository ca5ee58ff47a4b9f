/// Proleptic Gregorian calendar arithmetic on Unix seconds (Howard Hinnant's civil-date algorithms). Foundation's
/// `DateFormatter` is far too slow for hundreds of millions of dates, and a fixed offset needs no zone database.
enum CivilDate {
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }

    /// 0 = Sunday.
    static func weekday(days: Int) -> Int {
        ((days % 7) + 7 + 4) % 7
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// `yyyy-MM-dd` of a day number.
    static func dayText(_ days: Int) -> String {
        let (y, m, d) = civil(days: days)
        return "\(y)-\(NumberText.twoDigits(m))-\(NumberText.twoDigits(d))"
    }
}

extension HomeZone {
    /// UTC offset in seconds at a UTC instant, with the zone's current DST rule (EU: last Sunday of March and
    /// October at 01:00 UTC; US: second Sunday of March and first Sunday of November at 02:00 local).
    func offset(at time: Int64) -> Int {
        let year = CivilDate.civil(days: Int(CivilDate.floorDiv(time, 86_400))).year
        switch self {
        case .utc:
            return 0
        case .europeBerlin:
            let start = Int64(lastSunday(year: year, month: 3)) * 86_400 + 3_600
            let end = Int64(lastSunday(year: year, month: 10)) * 86_400 + 3_600
            return time >= start && time < end ? 7_200 : 3_600
        case .americaNewYork:
            let start = Int64(nthSunday(year: year, month: 3, n: 2)) * 86_400 + 7 * 3_600
            let end = Int64(nthSunday(year: year, month: 11, n: 1)) * 86_400 + 6 * 3_600
            return time >= start && time < end ? -14_400 : -18_000
        }
    }

    private func lastSunday(year: Int, month: Int) -> Int {
        let first = CivilDate.days(year: year, month: month + 1, day: 1) - 1
        return first - CivilDate.weekday(days: first)
    }

    private func nthSunday(year: Int, month: Int, n: Int) -> Int {
        let first = CivilDate.days(year: year, month: month, day: 1)
        return first + (7 - CivilDate.weekday(days: first)) % 7 + 7 * (n - 1)
    }
}

/// The exporter's date formatter: `yyyy-MM-dd HH:mm:ss ±hhmm`, en_US_POSIX, one offset frozen at export time.
struct ExportClock: Sendable {
    let offsetSeconds: Int
    let offsetText: [UInt8]

    /// Parses `+0100`, `-0530`…; nil if malformed.
    init?(offset: String) {
        let bytes = Array(offset.utf8)
        guard bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes[1...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        let digits = bytes[1...].map { Int($0 - 0x30) }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        guard hours <= 14, minutes < 60 else { return nil }
        offsetSeconds = (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60)
        offsetText = bytes
    }

    func format(_ time: Int64, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let local = time + Int64(offsetSeconds)
        let days = CivilDate.floorDiv(local, 86_400)
        var seconds = Int(local - days * 86_400)
        let (year, month, day) = CivilDate.civil(days: Int(days))
        var index = 0
        func put(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out[index] = UInt8(ascii: "0") + UInt8(rest / divisor)
                rest %= divisor
                divisor /= 10
                index += 1
            }
        }
        func sep(_ char: UInt8) {
            out[index] = char
            index += 1
        }
        put(year, width: 4)
        sep(0x2D)
        put(month, width: 2)
        sep(0x2D)
        put(day, width: 2)
        sep(0x20)
        put(seconds / 3_600, width: 2)
        seconds %= 3_600
        sep(0x3A)
        put(seconds / 60, width: 2)
        sep(0x3A)
        put(seconds % 60, width: 2)
        sep(0x20)
        for byte in offsetText { sep(byte) }
        return index
    }

    func string(_ time: Int64) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let length = buffer.withUnsafeMutableBufferPointer { format(time, into: $0.baseAddress!) }
        return String(decoding: buffer[0..<length], as: UTF8.self)
    }

    /// `yyyy-MM-dd` of an instant in the export offset (the key of `stepsBySourcePerDay`).
    func localDay(_ time: Int64) -> Int {
        Int(CivilDate.floorDiv(time + Int64(offsetSeconds), 86_400))
    }

    /// NSDate `description`: always UTC, `+0000` (metadata values such as `HKDateOfEarliestDataUsedForEstimate`).
    static func utcDescription(_ time: Int64) -> String {
        ExportClock(offset: "+0000")!.string(time)
    }

    /// ISO 8601 UTC with `Z`, as GPX `<time>` elements.
    static func iso8601(_ time: Int64) -> String {
        let days = CivilDate.floorDiv(time, 86_400)
        let seconds = Int(time - days * 86_400)
        let t2 = NumberText.twoDigits
        return "\(CivilDate.dayText(Int(days)))T\(t2(seconds / 3_600)):\(t2(seconds / 60 % 60)):\(t2(seconds % 60))Z"
    }
}
