import HealthJSON
import HealthModel
import HealthSQLite

/// What the tools over the person's normal share (`baseline`, `compare`, `correlate`, `unusual`): a metric's
/// daily column (`daily_rollups.column_name`), and its days from `baselines` (docs/baselines.md), which holds
/// every day with a value, read by its (column_name, date) key.
struct DailyColumn {
    var metric: Metric
    var statistic: String
    var name: String
    var unit: String?

    /// The metric `name` (any name `metric_series` takes) with `statistic`, or its default one.
    static func resolve(
        _ name: String, statistic: String?, argument: String, context: ToolContext, _ db: SQLiteConnection
    ) throws -> DailyColumn {
        let metric = try MetricResolver(metrics: context.catalog(db).metrics).resolve(name, argument: argument)
        let chosen = try MetricSeriesTool.chooseStatistic(statistic, of: metric)
        return DailyColumn(
            metric: metric, statistic: chosen,
            name: RollupNaming.metricColumn(typeIdentifier: metric.identifier, statistic: chosen),
            unit: metric.statistics.first { $0.name == chosen }?.unit)
    }

    /// The days of `range` with a value, oldest first. A range that a lag moved past 9999-12-31 ends there: the
    /// text `10000-01-01` sorts before every stored date, so it would otherwise find nothing.
    func values(_ db: SQLiteConnection, _ range: ClosedRange<LocalDate>) throws -> [(day: LocalDate, value: Double)] {
        let last = LocalDate(year: 9_999, month: 12, day: 31)
        guard range.lowerBound <= last else { return [] }
        let range = range.lowerBound...min(range.upperBound, last)
        var days: [(LocalDate, Double)] = []
        let statement = try db.prepare(
            "SELECT date, value FROM baselines WHERE column_name = ?1 AND date >= ?2 AND date <= ?3 ORDER BY date")
        try statement.forEachRowBound([
            .text(name), .text(range.lowerBound.description), .text(range.upperBound.description),
        ]) { row in
            guard let day = row.text(0).flatMap({ LocalDate($0) }), !row.isNull(1) else { return }
            days.append((day, row.double(1)))
        }
        return days
    }

    var json: JSON {
        .object([
            ("identifier", .string(metric.identifier)), ("display_name", .string(metric.displayName)),
            ("statistic", .string(statistic)), ("column", .string(name)), ("unit", .text(unit)),
        ])
    }

    static let outputSchema = SchemaBuilder.object([
        ("identifier", SchemaBuilder.string()), ("display_name", SchemaBuilder.string()),
        ("statistic", SchemaBuilder.string()),
        ("column", SchemaBuilder.string("As daily_rollups.column_name and baselines.column_name.")),
        ("unit", SchemaBuilder.nullable("string")),
    ])

    /// Mean and sample standard deviation (nil below two values).
    static func meanAndSD(_ values: [Double]) -> (mean: Double?, sd: Double?) {
        guard !values.isEmpty else { return (nil, nil) }
        let mean = values.reduce(0, +) / Double(values.count)
        guard values.count >= 2 else { return (mean, nil) }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (mean, (squares / Double(values.count - 1)).squareRoot())
    }
}
