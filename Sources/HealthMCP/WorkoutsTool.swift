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

    static let definition = ToolDefinition(
        name: "workouts", title: "Workouts",
        description: """
            Workouts, newest first: activity, local start, duration (min), distance (km), active energy (kcal), \
            average and maximum heart rate, elevation gain, indoor, source, route points. Filter by local dates and \
            activity (Running, Cycling, …); `limit` (default 20) and `cursor` (from the previous answer) page \
            through. A workout another app recorded too has probable_duplicate_of set. workout_detail(id) has more.
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
                ("workouts", SchemaBuilder.array(workoutSchema)), ("next_cursor", SchemaBuilder.nullable("string")),
                ("truncated", SchemaBuilder.boolean()),
            ], required: ["workouts", "next_cursor", "truncated"]),
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
            if let position = cursor {
                conditions.append("(start_date < ? OR (start_date = ? AND workout_id < ?))")
                values += [.text(position.start), .text(position.start), .integer(position.id)]
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let statement = try db.prepare(
                "SELECT \(columns) FROM workout_overview o \(filter) ORDER BY start_date DESC, workout_id DESC LIMIT \(limit + 1)"
            )
            var budget = AnswerBudget(rows: limit, bytes: context.limits.maximumBytes)
            var workouts: [JSON] = []
            var lines: [String] = []
            var last: Cursor?
            var more = false
            try statement.forEachRowBound(values) { row in
                let workout = json(row)
                guard budget.admit(workout) else {
                    more = true
                    return
                }
                workouts.append(workout)
                lines.append(line(row))
                last = Cursor(start: row.text(14) ?? "", id: row.integer(0))
            }
            let next = more ? last?.text : nil
            var text = workouts.isEmpty ? "No workouts match." : "\(workouts.count) workouts, newest first:\n"
            text += lines.joined(separator: "\n")
            if let next { text += "\nMore: call again with cursor \"\(next)\"." }
            return ToolAnswer(
                structured: .object([
                    ("workouts", .array(workouts)), ("next_cursor", .text(next)), ("truncated", .bool(more)),
                ]), text: text)
        }
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

    static func line(_ row: SQLiteStatement) -> String {
        var parts = ["#\(row.integer(0)) \(row.text(4) ?? row.text(3) ?? "?") \(row.text(1) ?? "")"]
        if !row.isNull(5) { parts.append("\(TextRendering.number(row.double(5))) min") }
        if !row.isNull(6) { parts.append("\(TextRendering.number(row.double(6))) km") }
        if !row.isNull(7) { parts.append("\(TextRendering.number(row.double(7))) kcal") }
        if !row.isNull(8) { parts.append("avg HR \(TextRendering.number(row.double(8)))") }
        parts.append("source \(TextRendering.quoted(row.text(12) ?? ""))")
        if !row.isNull(15) { parts.append("probable duplicate of #\(row.integer(15))") }
        return parts.joined(separator: ", ")
    }
}
