import Foundation
import HealthModel

/// The length of a rollup bucket, in the user's time zone.
public enum RollupPeriod: String, CaseIterable, Sendable {
    case hour, day, week, month

    var calendarComponent: Calendar.Component {
        switch self {
        case .hour: .hour
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        }
    }
}

/// Finds the bucket of a period that contains an instant, remembering the last answer.
///
/// Asking `Calendar` for every sample would dominate a rollup of millions of samples; samples arrive in time
/// order, so almost every instant falls in the bucket found for the previous one.
struct PeriodClock: Sendable {
    let period: RollupPeriod
    let timeZone: TimeZone
    private let calendar: Calendar
    private var cachedStart: Int64 = 1
    private var cachedEnd: Int64 = 0

    init(period: RollupPeriod, timeZone: TimeZone) {
        self.period = period
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // ISO 8601 weeks: Monday first, week 1 holds the year's first Thursday.
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        self.calendar = calendar
    }

    /// The bucket [start, end) in UTC seconds that contains `instant`.
    @inline(__always)
    mutating func bucket(containing instant: Int64) -> (start: Int64, end: Int64) {
        if instant >= cachedStart && instant < cachedEnd { return (cachedStart, cachedEnd) }
        (cachedStart, cachedEnd) = lookUp(instant)
        return (cachedStart, cachedEnd)
    }

    private func lookUp(_ instant: Int64) -> (Int64, Int64) {
        let date = Date(timeIntervalSince1970: TimeInterval(instant))
        if let interval = calendar.dateInterval(of: period.calendarComponent, for: date) {
            let start = Int64(interval.start.timeIntervalSince1970.rounded(.down))
            let end = Int64(interval.end.timeIntervalSince1970.rounded(.down))
            if start <= instant && instant < end { return (start, end) }
        }
        // Not expected from Foundation; a fixed-length bucket in the current offset keeps the sweep moving
        // instead of looping on an interval that does not contain the instant.
        let length: Int64 = period == .hour ? 3600 : 86_400
        let local = instant + Int64(timeZone.secondsFromGMT(for: date))
        let start = instant - (((local % length) + length) % length)
        return (start, start + length)
    }

    /// The row label of the bucket that starts at `start` (see docs/rollups.md).
    func label(start: Int64) -> String {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start)))
        let local = start + Int64(offset)
        let days = Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let (year, month, day) = Timestamp.civilFromDays(days)
        switch period {
        case .month:
            return "\(Self.digits(year, 4))-\(Self.digits(month, 2))"
        case .day, .week:
            // A week's bucket starts on its Monday, so its label is that Monday's date.
            return "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))"
        case .hour:
            let secondOfDay = Int(local - Int64(days) * 86_400)
            let sign = offset < 0 ? "-" : "+"
            let magnitude = abs(offset)
            return "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))T"
                + "\(Self.digits(secondOfDay / 3600, 2)):\(Self.digits(secondOfDay / 60 % 60, 2))"
                + "\(sign)\(Self.digits(magnitude / 3600, 2)):\(Self.digits(magnitude / 60 % 60, 2))"
        }
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
