import HealthJSON

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
            <Value>_hours). Any of the three names works as `metric` in the other tools. `search` filters by name; \
            a list longer than the answer budget stops with next_cursor.
            """,
        inputSchema: SchemaBuilder.object([
            ("search", SchemaBuilder.string("Part of a name (case and spaces ignored), e.g. \"heart\" or \"sleep\".")),
            ("cursor", SchemaBuilder.string("next_cursor of the previous answer.")),
        ]),
        outputSchema: SchemaBuilder.object(
            [
                ("metrics", SchemaBuilder.array(metricSchema)), ("count", SchemaBuilder.integer("Metrics that match.")),
                ("next_cursor", SchemaBuilder.nullable("string")), ("hint", SchemaBuilder.nullable("string")),
            ],
            required: ["metrics", "count", "next_cursor"]),
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

    /// The metrics from `skip` on while they fit the budget.
    static func page(_ metrics: [Metric], skip: Int, budget bytes: Int) -> ToolAnswer {
        var budget = AnswerBudget(rows: .max, bytes: max(0, bytes - 500))
        var shown: [JSON] = []
        var lines: [String] = []
        for metric in metrics.dropFirst(skip) {
            let line = line(metric)
            guard budget.admit(metric.json, line: line) || shown.isEmpty else { break }
            shown.append(metric.json)
            lines.append(line)
        }
        let next = skip + shown.count < metrics.count ? "metric:\(skip + shown.count)" : nil
        let hint = next.map {
            "The answer budget holds \(shown.count) of \(metrics.count) metrics: call again with cursor \"\($0)\", or "
                + "narrow with search."
        }
        var text = "\(metrics.count) metrics" + (skip > 0 ? ", from number \(skip + 1)" : "") + ":\n"
        text += lines.joined(separator: "\n") + (hint.map { "\n" + $0 } ?? "")
        return ToolAnswer(
            structured: .object([
                ("metrics", .array(shown)), ("count", .integer(Int64(metrics.count))), ("next_cursor", .text(next)),
                ("hint", .text(hint)),
            ]), text: text)
    }

    static func line(_ metric: Metric) -> String {
        let span = metric.firstDay.map { "\($0) to \(metric.lastDay ?? $0)" } ?? "no rollups"
        let statistics = metric.statistics.map(\.name).joined(separator: ", ")
        return "\(metric.displayName) [\(metric.shortName)]: \(metric.kind), \(metric.unit ?? "no unit"), \(span), "
            + "\(metric.sampleCount) samples" + (statistics.isEmpty ? "" : "; statistics: \(statistics)")
    }

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
