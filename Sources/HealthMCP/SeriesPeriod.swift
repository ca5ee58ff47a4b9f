/// The periods of `metric_series`: local calendar days, ISO weeks (Monday to Sunday), months and years, labelled
/// as the `rollups` table labels them (`2024-03-24`, the week's Monday `2024-03-25`, `2024-03`, and `2024`).
package enum SeriesPeriod: String, CaseIterable, Sendable {
    case day, week, month, year

    /// The first day of the period that holds `date`.
    package func start(of date: LocalDate) -> LocalDate {
        switch self {
        case .day: return date
        case .week: return date.adding(days: 1 - date.isoWeekday)
        case .month: return LocalDate(year: date.year, month: date.month, day: 1)
        case .year: return LocalDate(year: date.year, month: 1, day: 1)
        }
    }

    /// The first day of the next period, from a period's first day.
    package func next(after start: LocalDate) -> LocalDate {
        switch self {
        case .day: return start.adding(days: 1)
        case .week: return start.adding(days: 7)
        case .month:
            return start.month == 12
                ? LocalDate(year: start.year + 1, month: 1, day: 1)
                : LocalDate(year: start.year, month: start.month + 1, day: 1)
        case .year: return LocalDate(year: start.year + 1, month: 1, day: 1)
        }
    }

    /// The label of the period starting on `start`.
    package func label(_ start: LocalDate) -> String {
        switch self {
        case .day, .week: return start.description
        case .month: return LocalDate.pad(start.year, 4) + "-" + LocalDate.pad(start.month, 2)
        case .year: return LocalDate.pad(start.year, 4)
        }
    }

    /// The first day of every period that overlaps `range`, in order, at most `limit` of them: every one gets a
    /// point, with or without data.
    package func starts(overlapping range: ClosedRange<LocalDate>, limit: Int = .max) -> [LocalDate] {
        var starts: [LocalDate] = []
        var current = start(of: range.lowerBound)
        while current <= range.upperBound && starts.count < limit {
            starts.append(current)
            current = next(after: current)
        }
        return starts
    }

    /// How many periods overlap `range`, without listing them (to refuse a series too long before building it).
    package func count(overlapping range: ClosedRange<LocalDate>) -> Int {
        let first = start(of: range.lowerBound)
        let last = start(of: range.upperBound)
        switch self {
        case .day: return last.dayNumber - first.dayNumber + 1
        case .week: return (last.dayNumber - first.dayNumber) / 7 + 1
        case .month: return (last.year - first.year) * 12 + last.month - first.month + 1
        case .year: return last.year - first.year + 1
        }
    }
}
