import HealthModel

/// A calendar day with no time zone (`2024-03-24`), as the database's `local_date` and rollup labels write it.
/// Arithmetic on day numbers (proleptic Gregorian, days since 1970-01-01), so no `Calendar` is needed: a local
/// day is a local day whatever the zone, and the rollups already filed each sample under one.
package struct LocalDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD` exactly (years 1000–9999), a day that exists.
    package init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1000,
            (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    package init(dayNumber: Int) {
        let civil = Timestamp.civilFromDays(dayNumber)
        self.init(year: civil.year, month: civil.month, day: civil.day)
    }

    /// Days since 1970-01-01.
    package var dayNumber: Int { Timestamp.daysFromCivil(year, month, day) }

    /// 1 for Monday … 7 for Sunday (ISO 8601).
    package var isoWeekday: Int {
        // 1970-01-01 was a Thursday.
        let weekday = (dayNumber + 3) % 7
        return (weekday < 0 ? weekday + 7 : weekday) + 1
    }

    package func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    package var description: String { Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    package static func < (left: LocalDate, right: LocalDate) -> Bool {
        (left.year, left.month, left.day) < (right.year, right.month, right.day)
    }
}
