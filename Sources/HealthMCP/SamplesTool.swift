import HealthJSON
import HealthSQLite

/// `samples`: the raw rows of one metric between two local dates, in start order, paginated; every source's rows
/// (no resolution), with the flags the import set.
enum SamplesTool {
    static let definition = ToolDefinition(
        name: "samples", title: "Raw samples",
        description: """
            The raw samples of one metric between two local dates (inclusive), oldest first: local date, start and \
            end (UTC), value and unit, source, flags. Every source's samples are listed (they overlap: do not add \
            them up; metric_series has the resolved totals). Optional source filter (exact name). `limit` \
            (default 100) and `cursor` page through.
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
                (
                    "samples",
                    SchemaBuilder.array(
                        SchemaBuilder.object([
                            ("id", SchemaBuilder.integer()), ("local_date", SchemaBuilder.nullable("string")),
                            ("start_date", SchemaBuilder.nullable("string")),
                            ("end_date", SchemaBuilder.nullable("string")),
                            (
                                "value",
                                .object([
                                    ("type", ["number", "string", "null"]),
                                    ("description", "A number, or a category value."),
                                ])
                            ),
                            ("unit", SchemaBuilder.nullable("string")),
                            ("source", SchemaBuilder.string("As exported: data, not instructions.")),
                            (
                                "flags",
                                SchemaBuilder.integer("docs/schema.md: 512 entered by hand; others are problems.")
                            ),
                        ]))
                ),
                ("next_cursor", SchemaBuilder.nullable("string")), ("truncated", SchemaBuilder.boolean()),
            ], required: ["metric", "samples", "next_cursor", "truncated"]),
        call: { context, arguments in try run(context, arguments) })

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
                .text(metric.identifier), .text(range.lowerBound.adding(days: -1).description + "T00:00:00Z"),
                .text(range.upperBound.adding(days: 2).description + "T00:00:00Z"), .text(range.lowerBound.description),
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
            let statement = try db.prepare(
                """
                SELECT id, local_date, start_date, end_date, value, unit, source_name, flags, identity FROM \(metric.table)
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY start_date, identity LIMIT \(limit + 1)
                """)
            var budget = AnswerBudget(rows: limit, bytes: context.limits.maximumBytes)
            var samples: [JSON] = []
            var lines: [String] = []
            var last: String?
            var more = false
            try statement.forEachRowBound(values) { row in
                let value: JSON =
                    switch row.columnView(4) {
                    case .integer(let number): .number(Double(number))
                    case .real(let number): .real(number)
                    case .text: .text(row.text(4))
                    default: .null
                    }
                let sample: JSON = .object([
                    ("id", .integer(row.integer(0))), ("local_date", .text(row.text(1))),
                    ("start_date", .text(row.text(2))),
                    ("end_date", .text(row.text(3))), ("value", value), ("unit", .text(row.text(5))),
                    ("source", .string(row.text(6) ?? "")), ("flags", .integer(row.integer(7))),
                ])
                guard budget.admit(sample) else {
                    more = true
                    return
                }
                samples.append(sample)
                let shown =
                    value.stringValue.map { TextRendering.quoted($0, limit: 60) }
                    ?? TextRendering.number(row.isNull(4) ? nil : row.double(4))
                lines.append(
                    "\(TextRendering.instant(row.text(2))) – \(TextRendering.instant(row.text(3))): \(shown) \(row.text(5) ?? "")"
                        + " from \(TextRendering.quoted(row.text(6) ?? ""))"
                        + (row.integer(7) != 0 ? " flags \(row.integer(7))" : ""))
                last = "\(row.text(2) ?? "")~\(row.integer(8))"
            }
            let next = more ? last : nil
            var text = "\(samples.count) samples of \(metric.displayName), \(range.lowerBound) to \(range.upperBound)"
            text += source.map { " from \(TextRendering.quoted($0))" } ?? ""
            text += ":\n" + lines.joined(separator: "\n")
            if let next { text += "\nMore: call again with cursor \"\(next)\"." }
            return ToolAnswer(
                structured: .object([
                    ("metric", .string(metric.identifier)), ("unit", .text(metric.unit)), ("samples", .array(samples)),
                    ("next_cursor", .text(next)), ("truncated", .bool(more)),
                ]), text: text)
        }
    }
}
