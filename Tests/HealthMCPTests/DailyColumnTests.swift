import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// `DailyColumn.values` at the ends of the calendar: a lag of `correlate` moves a range past 9999-12-31 or before
/// year 1000, and the dates are compared as text in SQLite.
struct DailyColumnTests {
    @Test func aRangeMovedPastTheLastYearStillFindsItsDays() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(
            """
            CREATE TABLE baselines (column_name TEXT, date TEXT, value REAL);
            INSERT INTO baselines VALUES ('StepCount', '9999-12-30', 1), ('StepCount', '9999-12-31', 2),
                ('StepCount', '1000-01-01', 4);
            """)
        let column = DailyColumn(
            metric: Metric(
                identifier: "HKQuantityTypeIdentifierStepCount", displayName: "Steps", shortName: "StepCount",
                kind: "cumulative", unit: "count", table: "cumulative_samples", sampleCount: 0, firstDay: nil,
                lastDay: nil, statistics: []),
            statistic: "sum", name: "StepCount", unit: "count")
        let last = LocalDate(year: 9_999, month: 12, day: 31)
        // 9999-10-31 … 9999-12-31 moved by 60 days ends in year 10000 (a leap year).
        let moved = LocalDate(year: 9_999, month: 10, day: 31).adding(days: 60)...last.adding(days: 60)
        #expect(moved.lowerBound.description == "9999-12-30" && moved.upperBound.description == "10000-02-29")
        #expect(try column.values(db, moved).map(\.value) == [1, 2])
        #expect(try column.values(db, last.adding(days: 1)...last.adding(days: 61)).isEmpty)
        // A range moved before year 1000 starts at a text that still sorts in order.
        let first = LocalDate(year: 1_000, month: 1, day: 1)
        #expect(first.adding(days: -60).description == "0999-11-02")
        #expect(try column.values(db, first.adding(days: -60)...first).map(\.value) == [4])
    }
}
