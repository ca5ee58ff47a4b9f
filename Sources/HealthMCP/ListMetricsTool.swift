/// `list_metrics`: every type of the database with the names the other tools accept, its kind and unit, the
/// days it covers, its sample count and the statistics the rollups hold for it.
enum ListMetricsTool {
    static let metricSchema = SchemaBuilder.object(
        [
            ("identifier", SchemaBuilder.string("HealthKit identifier.")),
            ("display_name", SchemaBuilder.string("The Health app's name.")),
            ("short_name", SchemaBuilder.string("Identifier without its prefix; daily.csv's column.")),
            ("kind", SchemaBuilder.string("cumulative (summed), discrete (averaged), category (hours), correlation.")),
            ("unit", SchemaBuilder.nullable("string")), ("first_day", SchemaBuilder.nullable("string")),
            ("last_day", SchemaBuilder.nullable("string")), ("sample_count", SchemaBuilder.integer()),
            (
                "statistics",
                SchemaBuilder.array(
                    SchemaBuilder.object([("name", SchemaBuilder.string()), ("unit", SchemaBuilder.nullable("string"))])
                )
            ),
        ],
        required: ["identifier", "display_name", "short_name", "kind", "statistics"])

    static let definition = ToolDefinition(
        name: "list_metrics", title: "List metrics",
        description: """
            Every metric (HealthKit type) in the database: identifier, display name, short name, kind, unit, first \
            and last day, sample count, and the statistics its daily rollups hold (sum, avg/min/max/count, or \
            <Value>_hours). Any of the three names works as `metric` in the other tools. `search` filters by name.
            """,
        inputSchema: SchemaBuilder.object([
            ("search", SchemaBuilder.string("Part of a name (case and spaces ignored), e.g. \"heart\" or \"sleep\"."))
        ]),
        outputSchema: SchemaBuilder.object(
            [("metrics", SchemaBuilder.array(metricSchema)), ("count", SchemaBuilder.integer())],
            required: ["metrics", "count"]),
        call: { context, arguments in
            let search = try arguments.string("search").map(MetricResolver.normalized)
            return try context.database.read { db in
                let metrics = try context.catalog(db).metrics.filter { metric in
                    guard let search, !search.isEmpty else { return true }
                    return [metric.identifier, metric.shortName, metric.displayName, metric.kind]
                        .contains { MetricResolver.normalized($0).contains(search) }
                }
                return answer(metrics)
            }
        })

    static func answer(_ metrics: [Metric]) -> ToolAnswer {
        let lines = metrics.map { metric in
            let span = metric.firstDay.map { "\($0) to \(metric.lastDay ?? $0)" } ?? "no rollups"
            let statistics = metric.statistics.map(\.name).joined(separator: ", ")
            return "\(metric.displayName) [\(metric.shortName)]: \(metric.kind), \(metric.unit ?? "no unit"), \(span), "
                + "\(metric.sampleCount) samples" + (statistics.isEmpty ? "" : "; statistics: \(statistics)")
        }
        return ToolAnswer(
            structured: .object([("metrics", .array(metrics.map(\.json))), ("count", .integer(Int64(metrics.count)))]),
            text: "\(metrics.count) metrics:\n" + lines.joined(separator: "\n"))
    }
}
