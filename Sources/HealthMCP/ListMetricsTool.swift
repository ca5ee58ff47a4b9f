import HealthJSON

/// `list_metrics`: every type of the database with the names the other tools accept, its kind and unit, the
/// days it covers, its sample count and the statistics the rollups hold for it.
enum ListMetricsTool {
    static let definition = ToolDefinition(
        name: "list_metrics", title: "List metrics",
        description: """
            Every metric (HealthKit type) in the database, one row each under `columns`: short name, display name, \
            kind, unit, first and last day, sample count, and the statistics its daily rollups hold (sum, \
            avg/min/max/count, or <Value>_hours). Either name (or the HealthKit identifier, in the resource \
            healthetl://metrics) works as `metric` in the other tools. `search` filters by name; a list longer than \
            the answer budget stops with next_cursor.
            """,
        inputSchema: SchemaBuilder.object([
            ("search", SchemaBuilder.string("Part of a name (case and spaces ignored), e.g. \"heart\" or \"sleep\".")),
            ("cursor", SchemaBuilder.string("next_cursor of the previous answer.")),
        ]),
        outputSchema: SchemaBuilder.object(
            [
                ("columns", SchemaBuilder.array(SchemaBuilder.string())),
                (
                    "metrics",
                    SchemaBuilder.array(
                        SchemaBuilder.array(.object([("type", ["string", "integer", "null"])])),
                        "One row per metric, as columns says; statistics comma-separated.")
                ),
                ("count", SchemaBuilder.integer("Metrics that match.")),
                ("next_cursor", SchemaBuilder.nullable("string")), ("hint", SchemaBuilder.nullable("string")),
            ],
            required: ["columns", "metrics", "count", "next_cursor"]),
        call: { context, arguments in
            let search = try arguments.string("search").map(MetricResolver.normalized)
            var skip = 0
            if let cursor = try arguments.string("cursor") {
                guard cursor.hasPrefix("metric:"), let offset = Int(cursor.dropFirst(7)), offset >= 0 else {
                    throw ToolError.argument(name: "cursor", reason: "not a next_cursor of this tool")
                }
                skip = offset
            }
            return try context.database.read { db in
                let metrics = try context.catalog(db).metrics.filter { metric in
                    guard let search, !search.isEmpty else { return true }
                    return [metric.identifier, metric.shortName, metric.displayName, metric.kind]
                        .contains { MetricResolver.normalized($0).contains(search) }
                }
                return page(metrics, skip: skip, budget: context.limits.answerBudget)
            }
        })

    /// The resource `healthetl://metrics`: every metric in full (identifier, names, kind, unit,
    /// days, sample count, statistics with their units), for a client to read whole.
    static func resource(_ metrics: [Metric]) -> JSON {
        .object([("metrics", .array(metrics.map(\.json))), ("count", .integer(Int64(metrics.count)))])
    }

    static let columns = [
        "short_name", "display_name", "kind", "unit", "first_day", "last_day", "sample_count", "statistics",
    ]

    /// The metrics from `skip` on while they fit the budget, as rows.
    static func page(_ metrics: [Metric], skip: Int, budget bytes: Int) -> ToolAnswer {
        let rows = metrics.dropFirst(skip).map { metric -> (JSON, String) in
            let statistics = metric.statistics.map(\.name).joined(separator: ",")
            let row: JSON = [
                .string(metric.shortName), .string(metric.displayName), .string(metric.kind), .text(metric.unit),
                .text(metric.firstDay), .text(metric.lastDay), .integer(metric.sampleCount), .string(statistics),
            ]
            return (row, line(metric))
        }
        func build(_ kept: Int) -> ToolAnswer {
            let next = skip + kept < metrics.count ? "metric:\(skip + kept)" : nil
            let hint = next.map {
                "The answer budget holds \(kept) of \(metrics.count) metrics: call again with cursor \"\($0)\", or "
                    + "narrow with search."
            }
            var text = "\(metrics.count) metrics" + (skip > 0 ? ", from number \(skip + 1)" : "")
            text += " (name [short name] kind, unit, days, samples; statistics):\n"
            text += rows.prefix(kept).map(\.1).joined(separator: "\n") + (hint.map { "\n" + $0 } ?? "")
            return ToolAnswer(
                structured: .object([
                    ("columns", .array(columns.map(JSON.string))), ("metrics", .array(rows.prefix(kept).map(\.0))),
                    ("count", .integer(Int64(metrics.count))), ("next_cursor", .text(next)), ("hint", .text(hint)),
                ]), text: text)
        }
        return AnswerBudget.fit(kept: rows.count, budget: bytes, build).answer
    }

    /// `Step Count [StepCount] cumulative, count, 2015-01-01 to 2024-12-28, 123,456 samples; sum`.
    static func line(_ metric: Metric) -> String {
        let span = metric.firstDay.map { "\($0) to \(metric.lastDay ?? $0)" } ?? "no rollups"
        let statistics = metric.statistics.map(\.name).joined(separator: ",")
        return "\(metric.displayName) [\(metric.shortName)] \(metric.kind), \(metric.unit ?? "no unit"), \(span), "
            + "\(metric.sampleCount) samples" + (statistics.isEmpty ? "" : "; \(statistics)")
    }
}
