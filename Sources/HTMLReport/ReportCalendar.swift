import HealthModel

/// Bucket labels of the report's axis, spelled as `rollups.label` spells them, so a chart's buckets are the
/// rollups' own rows. Pure calendar arithmetic on `YYYY-MM-DD` day numbers: no time zone is involved,
/// because the labels already are local dates.
enum ReportCalendar {
    /// Ranges up to this many days are drawn per day; up to `weeklyUpToDays` per ISO week; longer ones per month.
    static let dailyUpToDays = 400
    static let weeklyUpToDays = 1_500

    static func resolution(days: Int) -> ReportResolution {
        days <= dailyUpToDays ? .day : days <= weeklyUpToDays ? .week : .month
    }

    static func dayText(_ dayNumber: Int) -> String {
        let (year, month, day) = Timestamp.civilFromDays(dayNumber)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The Monday starting the ISO week of a day (1970-01-01 was a Thursday).
    static func monday(of dayNumber: Int) -> Int {
        let sinceMonday = ((dayNumber + 3) % 7 + 7) % 7
        return dayNumber - sinceMonday
    }

    /// The bucket label holding a `YYYY-MM-DD` day; nil when the text is not one.
    static func label(ofDay day: String, _ resolution: ReportResolution) -> String? {
        guard let number = Timestamp.dayNumber(ofDate: day) else { return nil }
        switch resolution {
        case .day: return day
        case .week: return dayText(monday(of: number))
        case .month: return String(day.prefix(7))
        }
    }

    /// Every bucket from the one holding `first` to the one holding `last` (both `YYYY-MM-DD`), in order.
    static func labels(first: String, last: String, _ resolution: ReportResolution) -> [String] {
        guard let start = Timestamp.dayNumber(ofDate: first), let end = Timestamp.dayNumber(ofDate: last), start <= end
        else {
            return []
        }
        switch resolution {
        case .day:
            return (start...end).map(dayText)
        case .week:
            return stride(from: monday(of: start), through: end, by: 7).map(dayText)
        case .month:
            var (year, month, _) = Timestamp.civilFromDays(start)
            let (lastYear, lastMonth, _) = Timestamp.civilFromDays(end)
            var labels: [String] = []
            while (year, month) <= (lastYear, lastMonth) {
                labels.append("\(pad(year, 4))-\(pad(month, 2))")
                month += 1
                if month > 12 { (year, month) = (year + 1, 1) }
            }
            return labels
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
