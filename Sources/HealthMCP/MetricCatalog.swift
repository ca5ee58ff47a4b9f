import HealthJSON
import HealthModel
import HealthSQLite

/// One type of the database as the tools describe it: names, kind, unit, how many samples, which days, and
/// which statistics the rollups hold for it.
package struct Metric: Sendable, Equatable {
    package var identifier: String
    package var displayName: String
    /// `StepCount`, as daily.csv's columns and the rollups' `column_name` start.
    package var shortName: String
    /// `cumulative`, `discrete`, `category` or `correlation` (`data_types.kind`).
    package var kind: String
    package var unit: String?
    /// The sample table (`cumulative_samples`, …; `correlations`).
    package var table: String
    package var sampleCount: Int64
    package var firstDay: String?
    package var lastDay: String?
    /// The rollups' statistics with their units, in the order the rollups name them.
    package var statistics: [(name: String, unit: String?)]

    package static func == (left: Metric, right: Metric) -> Bool {
        left.identifier == right.identifier && left.sampleCount == right.sampleCount && left.firstDay == right.firstDay
            && left.lastDay == right.lastDay && left.statistics.map(\.name) == right.statistics.map(\.name)
    }

    /// The statistic a series shows when none is asked for: the sum of a cumulative type, the average of a
    /// discrete one, the hours of a value-less category; nil when the caller must choose (sleep stages).
    package var defaultStatistic: String? {
        let names = statistics.map(\.name)
        for preferred in [RollupStatistic.sum, RollupStatistic.average, "hours"] where names.contains(preferred) {
            return preferred
        }
        return names.count == 1 ? names[0] : nil
    }

    var json: JSON {
        .object([
            ("identifier", .string(identifier)), ("display_name", .string(displayName)),
            ("short_name", .string(shortName)),
            ("kind", .string(kind)), ("unit", .text(unit)), ("first_day", .text(firstDay)),
            ("last_day", .text(lastDay)),
            ("sample_count", .integer(sampleCount)),
            ("statistics", .array(statistics.map { .object([("name", .string($0.name)), ("unit", .text($0.unit))]) })),
        ])
    }
}

/// Every metric of the database, read once per committed state: the rollups are scanned for the statistics and
/// the first and last day of each type, which costs a few hundred milliseconds on ten years of data; every later
/// call until the next import is answered from memory.
package struct MetricCatalog: Sendable {
    package var metrics: [Metric]

    /// The sample tables whose types are metrics (workout activities and workout-only statistics are not).
    static let tables: Set<String> = [
        "cumulative_samples", "discrete_samples", "category_samples", "correlations", "state_of_mind",
    ]

    package static func read(_ connection: SQLiteConnection, periods: Set<String>) throws -> MetricCatalog {
        var counts: [String: Int64] = [:]
        try connection.prepare("SELECT type, row_count FROM anchors").forEachRow { row in
            if let type = row.text(0) { counts[type] = row.integer(1) }
        }
        // The statistics of each type from the month rollups when the database keeps them (a statistic is in a
        // month exactly when it is in one of its days, and the months are 20 times fewer); the first and last day
        // of each type by the type's index on period_start, a few rows each. Scanning every day row instead costs
        // ~0.3 s on ten years.
        let statisticsPeriod = periods.contains("month") ? "month" : "day"
        var statistics: [String: [(name: String, unit: String?)]] = [:]
        try connection.prepare(
            "SELECT type, statistic, unit FROM rollups WHERE period = ? GROUP BY type, statistic ORDER BY type, statistic"
        ).forEachRowBound([.text(statisticsPeriod)]) { row in
            guard let type = row.text(0), let statistic = row.text(1) else { return }
            statistics[type, default: []].append((statistic, row.text(2)))
        }
        var spans: [String: (first: String, last: String)] = [:]
        let first = try connection.prepare(
            "SELECT label FROM rollups WHERE type = ? AND period = 'day' ORDER BY period_start LIMIT 1")
        let last = try connection.prepare(
            "SELECT label FROM rollups WHERE type = ? AND period = 'day' ORDER BY period_start DESC LIMIT 1")
        for type in statistics.keys {
            var span = ("", "")
            try first.forEachRowBound([.text(type)]) { span.0 = $0.text(0) ?? "" }
            try last.forEachRowBound([.text(type)]) { span.1 = $0.text(0) ?? "" }
            if !span.0.isEmpty { spans[type] = span }
        }
        var metrics: [Metric] = []
        var seen: Set<String> = []
        let types = try connection.prepare(
            "SELECT type, display_name, kind, unit, row_table FROM data_types ORDER BY display_name")
        try types.forEachRow { row in
            guard let type = row.text(0), let table = row.text(4), tables.contains(table), !seen.contains(type) else {
                return
            }
            seen.insert(type)
            metrics.append(
                Metric(
                    identifier: type, displayName: row.text(1) ?? type, shortName: RollupNaming.shortName(ofType: type),
                    kind: row.text(2) ?? "", unit: row.text(3), table: table, sampleCount: counts[type] ?? 0,
                    firstDay: spans[type]?.first, lastDay: spans[type]?.last, statistics: statistics[type] ?? []))
        }
        // Rollups of types without a data_types row (State of Mind, read from another file).
        for (type, stats) in statistics.sorted(by: { $0.key < $1.key }) where !seen.contains(type) {
            metrics.append(
                Metric(
                    identifier: type, displayName: DisplayNames.name(of: type),
                    shortName: RollupNaming.shortName(ofType: type),
                    kind: "discrete", unit: stats.first?.unit, table: type == "StateOfMind" ? "state_of_mind" : "",
                    sampleCount: counts[type] ?? 0, firstDay: spans[type]?.first, lastDay: spans[type]?.last,
                    statistics: stats))
        }
        return MetricCatalog(metrics: metrics)
    }
}
