import HealthModel
import HealthRollups
import HealthSQLite
import HealthSchema

/// Keeps `baselines` (stored as `baseline_rows`, Schema+Baselines.swift) in step with the daily rollups
/// (`Baseline` computes, docs/baselines.md defines), one type and metric at a time, streaming from the
/// `rollups_type` index.
enum BaselineTable {
    /// After the rollups were rebuilt: every row again, or with `only` (a re-import's changed types, each
    /// rebuilt from an instant on), each changed type's rows from the day before that instant on; they read the
    /// 364 days before it. A table left empty while the rollups have days (a new table in an older database,
    /// a PostgreSQL working copy of a person never computed) is computed whole.
    @discardableResult
    static func update(_ connection: SQLiteConnection, only: [String: RollupTables.Refresh]?) throws -> Int {
        var firstDays: [String: Int]?
        if let only, try connection.scalar("SELECT EXISTS (SELECT 1 FROM baseline_rows)") == .integer(1) {
            // The day before the instant in UTC holds its local day in every zone (offsets are under a day).
            firstDays = only.mapValues { $0.from == .min ? Int.min : Int($0.from.floorDivided(by: 86_400)) - 1 }
            firstDays?["StateOfMind"] = .min  // its rollups are always rebuilt whole
        }
        var types: [String] = []
        if let firstDays {
            let delete = try connection.prepare(
                "DELETE FROM baseline_rows WHERE metric_id IN (SELECT id FROM baseline_metrics WHERE type = ?1) "
                    + "AND date >= ?2")
            for (type, first) in firstDays { try delete.run([.text(type), .text(dayText(first))]) }
            types = firstDays.keys.sorted()
        } else {
            try connection.execute("DELETE FROM baseline_rows")
            // From the covering `rollups_type` index: no table row is read and nothing is sorted.
            let names = try connection.prepare("SELECT DISTINCT type FROM rollups ORDER BY type")
            try names.forEachRow { types.append($0.text(0) ?? "") }
        }
        let reader = try DayReader(connection)
        var metrics = try MetricIDs(connection)
        let insert = try RowInsert(connection)
        var written = 0
        func write(_ done: [BaselineWorker.Done]) throws {
            for metric in done {
                try insert.write(metric.rows, metric: metric.metric)
                written += metric.rows.count
            }
        }
        let worker = BaselineWorker()
        do {
            for type in types {
                let first = firstDays?[type] ?? .min
                for (column, series) in try reader.metrics(of: type, from: first) {
                    let metric = try metrics.id(type: type, column: column)
                    let start = Baseline.firstIndex(series, from: first)
                    for part in stride(from: start, to: series.count, by: BaselineWorker.rowsPerJob) {
                        let indices = part..<min(part + BaselineWorker.rowsPerJob, series.count)
                        try write(worker.send(BaselineWorker.Job(metric: metric, days: series, indices: indices)))
                    }
                }
            }
            try write(worker.finish())
        } catch {
            worker.cancel()
            throw error
        }
        return written
    }

    /// A day number as `daily_rollups.date` writes it; the earliest possible one as "" (before every date).
    static func dayText(_ day: Int) -> String { day == .min ? "" : CivilDay.text(day) }
}

/// The day rollups of one type, by metric.
private struct DayReader {
    /// By the type's index (the unary `+` keeps SQLite off the (period, label) index, which would read every
    /// type's days for each type), from two days before the first day read (offsets are under a day). No
    /// ORDER BY: SQLite's sorter may hold as much as the page cache (8 MiB) for a type with many metrics
    /// and years, which took a 4.6 GB export's import past 64 MB; the type's days are grouped here instead.
    private let days: SQLiteStatement

    init(_ connection: SQLiteConnection) throws {
        days = try connection.prepare(
            """
            SELECT column_name, label, value FROM rollups
            WHERE type = ?1 AND period_start >= ?3 AND +period = 'day' AND +label >= ?2 AND value IS NOT NULL
            """)
    }

    /// Each metric of `type` with its days in time order, by metric name: all of them, or with `first`, those
    /// from `Baseline.reach` days before it on (what the rows from `first` on read).
    func metrics(of type: String, from first: Int) throws -> [(column: String, days: [Baseline.Day])] {
        days.bind(1, type)
        let firstRead = first == .min ? Int.min : first - Baseline.reach
        days.bind(2, BaselineTable.dayText(firstRead))
        days.bind(3, firstRead == .min ? "" : BaselineTable.dayText(firstRead - 2))
        var byColumn: [String: [Baseline.Day]] = [:]
        try days.forEachRow { row in
            // Labels of day rollups are always dates; one that is not would be skipped, not misread.
            guard let day = CivilDay.number(row.text(1) ?? "") else { return }
            byColumn[row.text(0) ?? "", default: []].append(Baseline.Day(day: day, value: row.double(2)))
        }
        // The index gives the days in time order already; sorting keeps that from being an assumption.
        return byColumn.keys.sorted().map { ($0, byColumn[$0, default: []].sorted { $0.day < $1.day }) }
    }
}

/// `baseline_metrics`: a metric's id, numbered the first time it has rows and kept from then on.
private struct MetricIDs {
    private var known: [String: (id: Int64, type: String)] = [:]
    private let add: SQLiteStatement
    private let retype: SQLiteStatement

    init(_ connection: SQLiteConnection) throws {
        var known: [String: (id: Int64, type: String)] = [:]
        let rows = try connection.prepare("SELECT id, type, column_name FROM baseline_metrics")
        try rows.forEachRow { known[$0.text(2) ?? ""] = ($0.integer(0), $0.text(1) ?? "") }
        self.known = known
        add = try connection.prepare("INSERT INTO baseline_metrics (type, column_name) VALUES (?1, ?2) RETURNING id")
        retype = try connection.prepare("UPDATE baseline_metrics SET type = ?1 WHERE id = ?2")
    }

    mutating func id(type: String, column: String) throws -> Int64 {
        if let metric = known[column] {
            // A metric names one type; should a later version file it under another, its rows follow.
            if metric.type != type { try retype.run([.text(type), .integer(metric.id)]) }
            known[column]?.type = type
            return metric.id
        }
        add.bind(1, type)
        add.bind(2, column)
        // The INSERT is done by the first step, which returns the new id.
        let id = try add.firstInteger() ?? 0
        known[column] = (id, type)
        return id
    }
}

/// `baseline_rows`' INSERT, sixteen rows to a statement step (a metric has a row per day).
private struct RowInsert {
    private let rows: MultiRowInsert
    private let metric, date, value, n, mean, sd, median, mad, z, n365, percentile365, n90, slope30, slopeLow,
        slopeHigh: Int32

    init(_ connection: SQLiteConnection) throws {
        rows = try MultiRowInsert(connection, table: "baseline_rows", rowsPerStep: 16)
        metric = try rows.offset("metric_id")
        date = try rows.offset("date")
        value = try rows.offset("value")
        n = try rows.offset("n")
        mean = try rows.offset("mean")
        sd = try rows.offset("sd")
        median = try rows.offset("median")
        mad = try rows.offset("mad")
        z = try rows.offset("z")
        n365 = try rows.offset("n_365")
        percentile365 = try rows.offset("percentile_365")
        n90 = try rows.offset("n_90")
        slope30 = try rows.offset("slope_30d")
        slopeLow = try rows.offset("slope_low")
        slopeHigh = try rows.offset("slope_high")
    }

    func write(_ computed: [Baseline.Row], metric id: Int64) throws {
        try rows.insert(count: computed.count) { statement, first, index in
            let row = computed[index]
            statement.bind(first + metric, id)
            statement.bind(first + date, CivilDay.text(row.day))
            statement.bind(first + value, row.value)
            statement.bind(first + n, row.n)
            statement.bind(first + mean, row.mean)
            statement.bind(first + sd, row.sd)
            statement.bind(first + median, row.median)
            statement.bind(first + mad, row.mad)
            statement.bind(first + z, row.z)
            statement.bind(first + n365, row.n365)
            statement.bind(first + percentile365, row.percentile365)
            statement.bind(first + n90, row.n90)
            statement.bind(first + slope30, row.slope30)
            statement.bind(first + slopeLow, row.slopeLow)
            statement.bind(first + slopeHigh, row.slopeHigh)
        }
    }
}

extension Int64 {
    /// Division rounding towards −∞ (days before 1970 included).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
