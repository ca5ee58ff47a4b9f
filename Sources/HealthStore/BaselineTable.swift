import HealthModel
import HealthRollups
import HealthSQLite
import HealthSchema

/// Keeps `baselines` in step with the daily rollups (`Baseline` computes, docs/baselines.md defines), one type
/// and metric at a time, streaming from the `rollups_type` index.
enum BaselineTable {
    /// After the rollups were rebuilt: every row again, or with `only` (a re-import's changed types, each
    /// rebuilt from an instant on), each changed type's rows from the day before that instant on; they read the
    /// 364 days before it. A table left empty while the rollups have days (a new table in an older database,
    /// a PostgreSQL working copy of a person never computed) is computed whole.
    @discardableResult
    static func update(_ connection: SQLiteConnection, only: [String: RollupTables.Refresh]?) throws -> Int {
        var firstDays: [String: Int]?
        if let only, try connection.scalar("SELECT EXISTS (SELECT 1 FROM baselines)") == .integer(1) {
            // The day before the instant in UTC holds its local day in every zone (offsets are under a day).
            firstDays = only.mapValues { $0.from == .min ? Int.min : Int($0.from.floorDivided(by: 86_400)) - 1 }
            firstDays?["StateOfMind"] = .min  // its rollups are always rebuilt whole
        }
        var types: [String] = []
        if let firstDays {
            let delete = try connection.prepare("DELETE FROM baselines WHERE type = ?1 AND date >= ?2")
            for (type, first) in firstDays { try delete.run([.text(type), .text(dayText(first))]) }
            types = firstDays.keys.sorted()
        } else {
            try connection.execute("DELETE FROM baselines")
            // From the covering `rollups_type` index: no table row is read and nothing is sorted.
            let names = try connection.prepare("SELECT DISTINCT type FROM rollups ORDER BY type")
            try names.forEachRow { types.append($0.text(0) ?? "") }
        }
        // By the type's index (the unary `+` keeps SQLite off the (period, label) index, which would read every
        // type's days for each type), from two days before the first day read (offsets are under a day). No
        // ORDER BY: SQLite's sorter may hold as much as the page cache (8 MiB) for a type with many metrics
        // and years, which took a 4.6 GB export's import past 64 MB; the type's days are grouped here instead.
        let days = try connection.prepare(
            """
            SELECT column_name, label, value FROM rollups
            WHERE type = ?1 AND period_start >= ?3 AND +period = 'day' AND +label >= ?2 AND value IS NOT NULL
            """)
        // swift-format-ignore: NeverForceUnwrap
        let insert = try connection.prepare(Schema.tables.first { $0.name == "baselines" }!.insertSQL())
        var written = 0
        var seriesByColumn: [String: [Baseline.Day]] = [:]
        for type in types {
            let first = firstDays?[type] ?? .min
            days.bind(1, type)
            let firstRead = first == .min ? Int.min : first - Baseline.reach
            days.bind(2, dayText(firstRead))
            days.bind(3, firstRead == .min ? "" : dayText(firstRead - 2))
            seriesByColumn.removeAll(keepingCapacity: true)
            try days.forEachRow { row in
                // Labels of day rollups are always dates; one that is not would be skipped, not misread.
                guard let day = CivilDay.number(row.text(1) ?? "") else { return }
                seriesByColumn[row.text(0) ?? "", default: []].append(Baseline.Day(day: day, value: row.double(2)))
            }
            for column in seriesByColumn.keys.sorted() {
                // The index gives the days in time order already; sorting keeps that from being an assumption.
                let series = seriesByColumn[column, default: []].sorted { $0.day < $1.day }
                for row in Baseline.rows(series, from: first) {
                    try write(row, type: type, column: column, with: insert)
                    written += 1
                }
            }
        }
        return written
    }

    /// A day number as `daily_rollups.date` writes it; the earliest possible one as "" (before every date).
    static func dayText(_ day: Int) -> String { day == .min ? "" : CivilDay.text(day) }

    private static func write(_ row: Baseline.Row, type: String, column: String, with insert: SQLiteStatement)
        throws
    {
        insert.bind(1, CivilDay.text(row.day))
        insert.bind(2, type)
        insert.bind(3, column)
        insert.bind(4, row.value)
        insert.bind(5, row.n)
        insert.bind(6, row.mean)
        insert.bind(7, row.sd)
        insert.bind(8, row.median)
        insert.bind(9, row.mad)
        insert.bind(10, row.z)
        insert.bind(11, row.n365)
        insert.bind(12, row.percentile365)
        insert.bind(13, row.n90)
        insert.bind(14, row.slope30)
        insert.bind(15, row.slopeLow)
        insert.bind(16, row.slopeHigh)
        try insert.run()
    }
}

extension Int64 {
    /// Division rounding towards −∞ (days before 1970 included).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
