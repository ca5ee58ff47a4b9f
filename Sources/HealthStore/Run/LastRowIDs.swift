import HealthSQLite
import HealthSchema

/// The highest row id given out so far in each table that keeps its rows across runs, as a run starts: each
/// writer numbers its new rows on from its tables' ids, and the run's end stores where they got to
/// (`RunRecorder.writeLastIDs`), so an id is never given out twice.
struct LastRowIDs {
    /// The tables, by public name (a compact table's ids are its stored table's).
    static let tables = [
        "cumulative_samples", "discrete_samples", "category_samples", "correlations", "workouts", "workout_events",
        "workout_activities", "workout_statistics", "workout_routes", "state_of_mind",
    ]

    private var ids: [String: Int64] = [:]

    /// All zero: a new database.
    init() {}

    /// Reads the ids of a database that earlier runs wrote.
    init(_ connection: SQLiteConnection) throws {
        for table in Self.tables {
            let stored = TrackedTable(name: table)?.storageName ?? table
            let id = try connection.scalar("SELECT coalesce(max(id), 0) FROM \"\(stored)\"").integer ?? 0
            // Never below the highest id ever given out: a deleted row's id stays its own (deleted_samples
            // and the user's own tables may refer to it), even when it was the table's last row.
            let given = try connection.scalar("SELECT value FROM settings WHERE key = ?1", [.text("last_id:" + table)])
            let archived = try connection.scalar(
                "SELECT coalesce(max(row_id), 0) FROM deleted_samples WHERE row_table = ?1", [.text(table)])
            ids[table] = max(id, given.text.flatMap { Int64($0) } ?? 0, archived.integer ?? 0)
        }
    }

    subscript(table: String) -> Int64 { ids[table] ?? 0 }

    subscript(table: TrackedTable) -> Int64 { self[table.name] }
}
