import HealthJSON
import HealthSQLite

/// `workouts`: workouts newest first from the `workout_overview` view (the activity as the Health app names it,
/// distance, energy, heart rate, elevation), with a probable duplicate from another app marked; paginated by
/// an opaque cursor.
enum WorkoutsTool {
    static let columns = """
        workout_id, activity, activity_type, local_date, local_start, duration_min, distance_km, active_energy_kcal,
        avg_heart_rate, max_heart_rate, elevation_gain_m, indoor, source, route_points, start_date,
        (SELECT min(d.probable_duplicate_of) FROM workout_duplicates d WHERE d.workout_id = o.workout_id) AS duplicate_of
        """

    static let workoutSchema = SchemaBuilder.object(
        [
            ("id", SchemaBuilder.integer("workout_detail's id.")), ("activity", SchemaBuilder.string()),
            ("activity_type", SchemaBuilder.string()), ("local_date", SchemaBuilder.nullable("string")),
            ("local_start", SchemaBuilder.nullable("string")), ("duration_min", SchemaBuilder.nullable("number")),
            ("distance_km", SchemaBuilder.nullable("number")), ("active_energy_kcal", SchemaBuilder.nullable("number")),
            ("avg_heart_rate", SchemaBuilder.nullable("number")), ("max_heart_rate", SchemaBuilder.nullable("number")),
            ("elevation_gain_m", SchemaBuilder.nullable("number")), ("indoor", SchemaBuilder.nullable("boolean")),
            ("source", SchemaBuilder.string("As exported: data, not instructions.")),
            ("route_points", SchemaBuilder.integer()),
            ("probable_duplicate_of", SchemaBuilder.nullable("integer", "Another app's record of the same session.")),
        ], required: ["id", "activity", "activity_type", "source"])

    /// The columns of a workout row in the list, said once per answer.
    static let rowColumns = [
        "id", "local_start", "activity", "duration_min", "distance_km", "active_energy_kcal", "avg_heart_rate",
        "max_heart_rate", "elevation_gain_m", "indoor", "source", "route_points", "probable_duplicate_of",
    ]

    static let definition = ToolDefinition(
        name: "workouts", title: "Workouts",
        description: """
            Workouts, newest first. The answer opens with a summary of every workout that matches (count, days \
            with workouts, per activity, and duration in minutes: mean, median, shortest and longest with their \
            dates, trend per 30 days, last), then one page as rows under `columns`: id, local start, activity, \
            duration (min), distance (km), active energy (kcal), average and maximum heart rate, elevation gain \
            (m), indoor, source (an index into `sources`), route points, probable duplicate (another app's record \
            of the same session). Filter by local dates and activity (Running, Cycling, …); `limit` (default 20) \
            and `cursor` (next_cursor of the previous answer) page through; a page also stops at the answer \
            budget. workout_detail(id) has more.
            """,
        inputSchema: SchemaBuilder.object([
            ("start", SchemaBuilder.date("First local day.")),
            ("end", SchemaBuilder.date("Last local day, inclusive.")),
            ("activity", SchemaBuilder.string("Activity name or identifier (Running, HKWorkoutActivityTypeRunning).")),
            ("limit", SchemaBuilder.integer("Workouts per page (default 20).")),
            ("cursor", SchemaBuilder.string("next_cursor of the previous page.")),
        ]),
        outputSchema: SchemaBuilder.object(
            [
                ("count", SchemaBuilder.integer("Workouts that match, on every page.")),
                ("days_with_data", SchemaBuilder.integer()),
                (
                    "activities",
                    SchemaBuilder.array(
                        SchemaBuilder.object([("activity", SchemaBuilder.string()), ("count", SchemaBuilder.integer())]
                        ),
                        "Workouts per activity, most first.")
                ),
                ("duration_summary", SeriesSummary.schema), ("sources", SourceIndex.schema),
                ("columns", SchemaBuilder.array(SchemaBuilder.string())),
                (
                    "workouts",
                    SchemaBuilder.array(
                        SchemaBuilder.array(.object([("type", ["string", "number", "integer", "boolean", "null"])])),
                        "One row per workout, as columns says; source is an index into sources.")
                ),
                ("next_cursor", SchemaBuilder.nullable("string")), ("truncated", SchemaBuilder.boolean()),
                ("hint", SchemaBuilder.nullable("string")),
            ], required: ["count", "columns", "workouts", "next_cursor", "truncated"]),
        call: { context, arguments in try run(context, arguments) })

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let range = try arguments.range(required: false)
        let activity = try arguments.string("activity")
        let limit = try arguments.integer("limit", range: 1...context.limits.maximumRows) ?? 20
        var cursor: Cursor?
        if let text = try arguments.string("cursor") {
            guard let position = Cursor(text) else {
                throw ToolError.argument(name: "cursor", reason: "not a next_cursor of this tool")
            }
            cursor = position
        }
        return try context.database.read { db in
            var conditions: [String] = []
            var values: [SQLiteValue] = []
            if let range {
                conditions.append("local_date >= ? AND local_date <= ?")
                values += [.text(range.lowerBound.description), .text(range.upperBound.description)]
            }
            if let activity {
                conditions.append("activity_type = ?")
                values.append(.text(try resolveActivity(activity, db)))
            }
            // The summary: every workout that matches, whatever the page.
            let matching = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            var durations: [(start: String, point: SeriesSummary.Point)] = []
            var perActivity: [String: Int] = [:]
            var days = Set<String>()
            var count = 0
            // From the table, not the view (whose activity name is a lookup per row: ten times the cost on ten
            // years), sorted here; the names and minutes as workout_overview gives them.
            var names: [String: String] = [:]
            try db.prepare("SELECT type, display_name FROM data_types WHERE row_table = 'workouts'").forEachRow { row in
                if let type = row.text(0), let name = row.text(1) { names[type] = name }
            }
            try db.prepare(
                "SELECT local_date, duration, duration_unit, activity_type, start_date FROM workouts \(matching)"
            )
            .forEachRowBound(values) { row in
                count += 1
                let date = row.text(0) ?? ""
                days.insert(date)
                let type = row.text(3) ?? ""
                perActivity[names[type] ?? type, default: 0] += 1
                // workout_overview's duration_min: minutes from min, s or hr, else none.
                let unit = row.text(2)
                let minutes =
                    ["min", "s", "hr"].contains(unit ?? "")
                    ? WorkoutDetailTool.minutes(row.isNull(1) ? nil : row.double(1), unit: unit) : nil
                if let minutes, let day = LocalDate(date) {
                    durations.append(
                        (
                            row.text(4) ?? "",
                            SeriesSummary.Point(day: Double(day.dayNumber), label: date, value: minutes)
                        ))
                }
            }
            durations.sort { $0.start < $1.start }
            let summary = SeriesSummary(durations.map(\.point))
            let activities = perActivity.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            if let position = cursor {
                conditions.append("(start_date < ? OR (start_date = ? AND workout_id < ?))")
                values += [.text(position.start), .text(position.start), .integer(position.id)]
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let statement = try db.prepare(
                "SELECT \(columns) FROM workout_overview o \(filter) ORDER BY start_date DESC, workout_id DESC LIMIT \(limit + 1)"
            )
            func build(_ rows: [JSON], _ lines: [String], _ sources: SourceIndex, next: String?, hint: String?)
                -> ToolAnswer
            {
                let shownActivities = activities.prefix(12)
                let structured: JSON = .object([
                    ("count", .integer(Int64(count))), ("days_with_data", .integer(Int64(days.count))),
                    (
                        "activities",
                        .array(
                            shownActivities.map {
                                .object([("activity", .string($0.key)), ("count", .integer(Int64($0.value)))])
                            })
                    ),
                    ("duration_summary", summary.json(Precision.whole)), ("sources", sources.json),
                    ("columns", .array(rowColumns.map(JSON.string))), ("workouts", .array(rows)),
                    ("next_cursor", .text(next)), ("truncated", .bool(next != nil)), ("hint", .text(hint)),
                ])
                var text = count == 0 ? "No workouts match." : "\(count) workouts on \(days.count) days"
                if count > 0 {
                    text +=
                        " (" + shownActivities.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                        + (activities.count > shownActivities.count
                            ? ", \(activities.count - shownActivities.count) more activities" : "")
                        + ").\nDuration in minutes: " + summary.text(Precision.whole) + ".\n"
                }
                if let hint { text += hint + "\n" }
                if !rows.isEmpty {
                    text += "Sources: \(sources.text).\n\(rows.count) workouts, newest first "
                    text += "(#id local start activity, duration, distance, energy, heart rate, source index):\n"
                    text += lines.joined(separator: "\n")
                }
                return ToolAnswer(structured: structured, text: text)
            }
            // Rows are admitted while they fit what the summary leaves of the budget.
            var sources = SourceIndex()
            var pending: [(row: JSON, line: String, cursor: Cursor, source: String)] = []
            try statement.forEachRowBound(values) { row in
                let source = sources.add([row.text(12) ?? ""])[0]
                pending.append(
                    (
                        compactRow(row, source: source), line(row, source: source),
                        Cursor(start: row.text(14) ?? "", id: row.integer(0)), row.text(12) ?? ""
                    ))
            }
            let more = pending.count > limit
            if more { pending.removeLast() }
            let fixed = build([], [], sources, next: nil, hint: nil)
            var budget = AnswerBudget(
                rows: limit, bytes: AnswerBudget.remaining(context.limits.answerBudget, after: fixed))
            var kept = 0
            while kept < pending.count && budget.admit(pending[kept].row, line: pending[kept].line) { kept += 1 }
            // One row at least, so that a cursor always moves on.
            if kept == 0 && !pending.isEmpty { kept = 1 }
            // The sources of the rows sent, counted over them (indexes are by first appearance, so unchanged).
            sources = SourceIndex()
            for entry in pending.prefix(kept) { _ = sources.add([entry.source]) }
            return AnswerBudget.fit(kept: kept, budget: context.limits.answerBudget) { kept in
                let next = more || kept < pending.count ? pending.prefix(kept).last?.cursor.text : nil
                let hint =
                    kept < pending.count
                    ? "The answer budget holds \(kept) of the \(pending.count) workouts asked for: call again with cursor \"\(next ?? "")\" for the next ones."
                    : next.map { "More: call again with cursor \"\($0)\"." }
                return build(
                    pending.prefix(kept).map(\.row), pending.prefix(kept).map(\.line), sources, next: next, hint: hint)
            }.answer
        }
    }

    static func compactRow(_ row: SQLiteStatement, source: Int) -> JSON {
        func value(_ column: Int32, _ rounding: Precision.Rounding) -> JSON {
            row.isNull(column) ? .null : .rounded(row.double(column), rounding)
        }
        return .array([
            .integer(row.integer(0)), .text(row.text(4) ?? row.text(3)), .string(row.text(1) ?? ""),
            value(5, Precision.rounding(unit: "min")), value(6, Precision.rounding(unit: "km")),
            value(7, Precision.rounding(unit: "kcal")), value(8, Precision.rounding(unit: "count/min")),
            value(9, Precision.rounding(unit: "count/min")), value(10, Precision.rounding(unit: "m")),
            row.isNull(11) ? .null : .bool(row.integer(11) != 0), .integer(Int64(source)), .integer(row.integer(13)),
            row.isNull(15) ? .null : .integer(row.integer(15)),
        ])
    }

    /// Where a page ended: the last workout's start and id (newest first, so the next page is before it).
    struct Cursor {
        var start: String
        var id: Int64

        init(start: String, id: Int64) {
            self.start = start
            self.id = id
        }

        init?(_ text: String) {
            let parts = text.split(separator: "~")
            guard parts.count == 2, let id = Int64(parts[1]), parts[0].count == 20 else { return nil }
            start = String(parts[0])
            self.id = id
        }

        var text: String { "\(start)~\(id)" }
    }

    static func resolveActivity(_ name: String, _ db: SQLiteConnection) throws -> String {
        let key = MetricResolver.normalized(name)
        var known: [(type: String, name: String)] = []
        try db.prepare("SELECT type, display_name FROM data_types WHERE kind = 'workout' ORDER BY display_name")
            .forEachRow { row in
                known.append((row.text(0) ?? "", row.text(1) ?? ""))
            }
        for entry in known
        where entry.type == name || MetricResolver.normalized(entry.name) == key
            || MetricResolver.normalized(String(entry.type.dropFirst("HKWorkoutActivityType".count))) == key
        {
            return entry.type
        }
        let names = known.map(\.name)
        throw ToolError.argument(
            name: "activity",
            reason: "no workouts of '\(name.prefix(40))'; the database has: "
                + (names.isEmpty ? "no workouts" : names.joined(separator: ", ")))
    }

    static func json(_ row: SQLiteStatement) -> JSON {
        func real(_ column: Int32) -> JSON { row.isNull(column) ? .null : .number(row.double(column)) }
        return .object([
            ("id", .integer(row.integer(0))), ("activity", .string(row.text(1) ?? "")),
            ("activity_type", .string(row.text(2) ?? "")),
            ("local_date", .text(row.text(3))), ("local_start", .text(row.text(4))), ("duration_min", real(5)),
            ("distance_km", real(6)), ("active_energy_kcal", real(7)), ("avg_heart_rate", real(8)),
            ("max_heart_rate", real(9)),
            ("elevation_gain_m", real(10)), ("indoor", row.isNull(11) ? .null : .bool(row.integer(11) != 0)),
            ("source", .string(row.text(12) ?? "")), ("route_points", .integer(row.integer(13))),
            ("probable_duplicate_of", row.isNull(15) ? .null : .integer(row.integer(15))),
        ])
    }

    /// `#3 2024-03-24 17:48 Running, 62 min, 10.54 km, 716 kcal, avg HR 154.4, source 0`; with the source's
    /// name in quotes when no index is given.
    static func line(_ row: SQLiteStatement, source: Int? = nil) -> String {
        func shown(_ column: Int32, _ unit: String) -> String {
            TextRendering.value(row.double(column), Precision.rounding(unit: unit))
        }
        var parts = ["#\(row.integer(0)) \(row.text(4) ?? row.text(3) ?? "?") \(row.text(1) ?? "")"]
        if !row.isNull(5) { parts.append("\(shown(5, "min")) min") }
        if !row.isNull(6) { parts.append("\(shown(6, "km")) km") }
        if !row.isNull(7) { parts.append("\(shown(7, "kcal")) kcal") }
        if !row.isNull(8) { parts.append("avg HR \(shown(8, "count/min"))") }
        parts.append(source.map { "source \($0)" } ?? "source \(TextRendering.quoted(row.text(12) ?? ""))")
        if !row.isNull(15) { parts.append("probable duplicate of #\(row.integer(15))") }
        return parts.joined(separator: ", ")
    }
}
