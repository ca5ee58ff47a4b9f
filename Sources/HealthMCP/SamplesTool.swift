import HealthJSON
import HealthModel
import HealthSQLite

/// `samples`: the raw rows of one metric between two local dates, in start order, paginated; every source's rows
/// (no resolution), with the flags the import set.
enum SamplesTool {
    static let definition = ToolDefinition(
        name: "samples", title: "Raw samples",
        description: """
            The raw samples of one metric between two local dates (inclusive), oldest first. The answer opens \
            with a summary of the range's values (count, mean, median, min and max with their start, trend per 30 \
            days, last; of the first 10,000 samples when there are more), then one page of rows under `columns`: \
            id, start and end (UTC), value (in `unit`), source (an index into `sources`), flags. Every source's \
            samples are listed (they overlap: do not add them up; metric_series has the resolved totals). \
            Optional source filter (exact name). `limit` (default 100) and `cursor` (next_cursor of the previous \
            answer) page through; a page also stops at the answer budget.
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("metric", SchemaBuilder.string("Identifier, short name or display name.")),
                ("start", SchemaBuilder.date("First local day.")),
                ("end", SchemaBuilder.date("Last local day, inclusive.")),
                ("source", SchemaBuilder.string("Only this source (its exact name, as overview lists it).")),
                ("limit", SchemaBuilder.integer("Rows per page (default 100).")),
                ("cursor", SchemaBuilder.string("next_cursor of the previous page.")),
            ], required: ["metric", "start", "end"]),
        outputSchema: SchemaBuilder.object(
            [
                ("metric", SchemaBuilder.string()), ("unit", SchemaBuilder.nullable("string")),
                ("summary", SeriesSummary.schema),
                (
                    "summary_complete",
                    SchemaBuilder.boolean("False when the summary covers only the first \(summaryLimit) samples.")
                ),
                ("sources", SourceIndex.schema), ("columns", SchemaBuilder.array(SchemaBuilder.string())),
                (
                    "samples",
                    SchemaBuilder.array(
                        SchemaBuilder.array(.object([("type", ["string", "number", "integer", "null"])])),
                        "As columns says: id, start_date, end_date (UTC), value (a number or a category value), source index, flags (docs/schema.md: 512 entered by hand; others are problems)."
                    )
                ),
                ("next_cursor", SchemaBuilder.nullable("string")), ("truncated", SchemaBuilder.boolean()),
                ("hint", SchemaBuilder.nullable("string")),
            ], required: ["metric", "summary", "columns", "samples", "next_cursor", "truncated"]),
        call: { context, arguments in try run(context, arguments) })

    /// The most samples the summary reads (a month of heart rate; ten years would take seconds).
    static let summaryLimit = 10_000
    static let columns = ["id", "start_date", "end_date", "value", "source", "flags"]

    /// An instant `2024-03-24T17:48:00Z` as days since 1970 with the fraction of its day (the trend's axis).
    static func dayAxis(_ instant: String) -> Double {
        let day: Int = Timestamp.dayNumber(ofDate: String(instant.prefix(10))) ?? 0
        let hours: Double = Double(instant.dropFirst(11).prefix(2)) ?? 0
        let minutes: Double = Double(instant.dropFirst(14).prefix(2)) ?? 0
        return Double(day) + hours / 24 + minutes / 1_440
    }

    static let tables: Set<String> = ["cumulative_samples", "discrete_samples", "category_samples"]

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let name = try arguments.requiredString("metric")
        guard let range = try arguments.range(required: true) else {
            throw ToolError.argument(name: "start", reason: "is required")
        }
        let source = try arguments.string("source")
        let limit = try arguments.integer("limit", range: 1...context.limits.maximumRows) ?? 100
        var after: (start: String, id: Int64)?
        if let cursor = try arguments.string("cursor") {
            let parts = cursor.split(separator: "~")
            guard parts.count == 2, parts[0].count == 20, let identity = Int64(parts[1]) else {
                throw ToolError.argument(name: "cursor", reason: "not a next_cursor of this tool")
            }
            after = (String(parts[0]), identity)
        }
        return try context.database.read { db in
            let metric = try MetricResolver(metrics: context.catalog(db).metrics).resolve(name)
            guard tables.contains(metric.table) else {
                throw ToolError.notFound(
                    "\(metric.displayName) has no samples of its own (\(metric.kind)); ask for one of its parts.")
            }
            // `local_date` has no index; the start instant has one (with the type and the identity, which together
            // are unique: the order of a page and the cursor, so a page stops reading at its last row). A local day's samples start
            // within 14 hours of its UTC day (zones run from UTC−12 to UTC+14), so a UTC window a day wider
            // on each side finds them through the index, and local_date decides.
            var conditions = [
                "type = ?", "start_date >= ?", "start_date < ?", "local_date >= ?", "local_date <= ?",
            ]
            var values: [SQLiteValue] = [
                .text(metric.identifier), .text(MetricSeriesTool.instant(range.lowerBound.adding(days: -1))),
                .text(MetricSeriesTool.instant(range.upperBound.adding(days: 2))), .text(range.lowerBound.description),
                .text(range.upperBound.description),
            ]
            if let source {
                conditions.append("source_name = ?")
                values.append(.text(source))
            }
            if let after {
                conditions.append("(start_date > ? OR (start_date = ? AND identity > ?))")
                values += [.text(after.start), .text(after.start), .integer(after.id)]
            }
            let conditionText = conditions.joined(separator: " AND ")
            // The summary: the numeric values of the range (before the cursor's condition), oldest first.
            var points: [SeriesSummary.Point] = []
            var read = 0
            let summaryValues = Array(values.prefix(after == nil ? values.count : values.count - 3))
            let summaryWhere = after == nil ? conditionText : conditions.dropLast().joined(separator: " AND ")
            try db.prepare(
                "SELECT start_date, value FROM \(metric.table) WHERE \(summaryWhere) ORDER BY start_date, identity LIMIT \(summaryLimit + 1)"
            ).forEachRowBound(summaryValues) { row in
                read += 1
                guard read <= summaryLimit, let start = row.text(0) else { return }
                switch row.columnView(1) {
                case .integer, .real:
                    points.append(SeriesSummary.Point(day: dayAxis(start), label: start, value: row.double(1)))
                default: break
                }
            }
            let summary = SeriesSummary(points)
            let rounding = Precision.rounding(unit: metric.unit)
            let statement = try db.prepare(
                """
                SELECT id, start_date, end_date, value, source_name, flags, identity FROM \(metric.table)
                WHERE \(conditionText) ORDER BY start_date, identity LIMIT \(limit + 1)
                """)
            var sources = SourceIndex()
            var pending: [(row: JSON, line: String, cursor: String, source: String)] = []
            try statement.forEachRowBound(values) { row in
                let value: JSON =
                    switch row.columnView(3) {
                    case .integer(let number): .number(Double(number))
                    case .real(let number): .rounded(number, rounding)
                    case .text: .text(row.text(3))
                    default: .null
                    }
                let source = sources.add([row.text(4) ?? ""])[0]
                let sample: JSON = .array([
                    .integer(row.integer(0)), .text(row.text(1)), .text(row.text(2)), value, .integer(Int64(source)),
                    .integer(row.integer(5)),
                ])
                let shown =
                    value.stringValue.map { TextRendering.quoted($0, limit: 60) }
                    ?? TextRendering.value(row.isNull(3) ? nil : row.double(3), rounding)
                pending.append(
                    (
                        sample,
                        "\(TextRendering.instant(row.text(1))) – \(TextRendering.instant(row.text(2))): \(shown) src \(source)"
                            + (row.integer(5) != 0 ? " flags \(row.integer(5))" : ""),
                        "\(row.text(1) ?? "")~\(row.integer(6))", row.text(4) ?? ""
                    ))
            }
            let more = pending.count > limit
            if more { pending.removeLast() }
            func build(_ kept: Int, next: String?, hint: String?) -> ToolAnswer {
                let unit = metric.unit.map { " (\($0))" } ?? ""
                var text = "Samples of \(metric.displayName)\(unit), \(range.lowerBound) to \(range.upperBound)"
                text += source.map { " from \(TextRendering.quoted($0))" } ?? ""
                text +=
                    ": "
                    + (read > summaryLimit
                        ? "more than \(summaryLimit); the summary is of the first \(summaryLimit). "
                        : "\(read) samples. ")
                if !points.isEmpty { text += "Summary: " + summary.text(rounding) + ".\n" } else { text += "\n" }
                if let hint { text += hint + "\n" }
                if kept > 0 {
                    text += "Sources: \(sources.text).\n\(kept) samples (start – end UTC: value, source index):\n"
                    text += pending.prefix(kept).map(\.line).joined(separator: "\n")
                }
                return ToolAnswer(
                    structured: .object([
                        ("metric", .string(metric.identifier)), ("unit", .text(metric.unit)),
                        ("summary", summary.json(rounding)), ("summary_complete", .bool(read <= summaryLimit)),
                        ("sources", sources.json), ("columns", .array(columns.map(JSON.string))),
                        ("samples", .array(pending.prefix(kept).map(\.row))), ("next_cursor", .text(next)),
                        ("truncated", .bool(next != nil)), ("hint", .text(hint)),
                    ]), text: text)
            }
            var budget = AnswerBudget(
                rows: limit,
                bytes: AnswerBudget.remaining(context.limits.answerBudget, after: build(0, next: nil, hint: nil)))
            var kept = 0
            while kept < pending.count && budget.admit(pending[kept].row, line: pending[kept].line) { kept += 1 }
            // One row at least, so that a cursor always moves on.
            if kept == 0 && !pending.isEmpty { kept = 1 }
            // The sources of the rows sent, counted over them (indexes are by first appearance, so unchanged).
            sources = SourceIndex()
            for entry in pending.prefix(kept) { _ = sources.add([entry.source]) }
            return AnswerBudget.fit(kept: kept, budget: context.limits.answerBudget) { kept in
                let next = more || kept < pending.count ? pending.prefix(kept).last?.cursor : nil
                let hint =
                    kept < pending.count
                    ? "The answer budget holds \(kept) of the \(pending.count) samples asked for: call again with cursor \"\(next ?? "")\" for the next ones."
                    : next.map { "More: call again with cursor \"\($0)\"." }
                return build(kept, next: next, hint: hint)
            }.answer
        }
    }
}
