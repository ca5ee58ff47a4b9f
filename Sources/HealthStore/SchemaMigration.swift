import HealthSQLite

/// Brings databases of earlier healthetl versions to `Schema.userVersion`.
enum SchemaMigration {
    /// Version 1 had no identities on workouts and correlations and no incremental tables, and replaced all
    /// its data on every import anyway. So its data tables are rebuilt empty (the running import refills
    /// them from the export) and only the history of runs is kept, extended with the new columns.
    static func fromVersion1(_ connection: SQLiteConnection) throws {
        let kept: Set = ["import_runs", "import_warnings"]
        for row in try connection.query("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'table')") {
            guard let kind = row[0].text, let name = row[1].text, !kept.contains(name), !name.hasPrefix("sqlite_")
            else { continue }
            try connection.execute("DROP \(kind == "view" ? "VIEW" : "TABLE") IF EXISTS \"\(name)\"")
        }
        let existing = Set(try connection.query("PRAGMA table_info(import_runs)").compactMap { $0[1].text })
        // swift-format-ignore: NeverForceUnwrap
        let runs = Schema.tables.first { $0.name == "import_runs" }!
        for column in runs.columns where !existing.contains(column.name) {
            try connection.execute("ALTER TABLE import_runs ADD COLUMN \"\(column.name)\" \(column.declaration)")
        }
        for table in Schema.tables where !kept.contains(table.name) { try connection.execute(table.createSQL) }
        for view in Schema.views { try connection.execute(view) }
        for index in Schema.indexes { try connection.execute(index) }
        try connection.execute("PRAGMA user_version = \(Schema.userVersion)")
    }

    /// Version 3 added `workouts.local_start`, the `data_types` table, the `workout_overview` view and two
    /// indexes for it. Nothing is rebuilt: the running import fills the new column and table (and the
    /// workout totals of iOS 16+ exports, which version 2 left empty) at its end, like for new rows.
    static func fromVersion2(_ connection: SQLiteConnection) throws {
        try connection.execute("ALTER TABLE workouts ADD COLUMN local_start TEXT")
        // swift-format-ignore: NeverForceUnwrap
        try connection.execute(Schema.tables.first { $0.name == "data_types" }!.createSQL)
        for row in try connection.query("SELECT name FROM sqlite_master WHERE type = 'view'") {
            guard let name = row[0].text else { continue }
            try connection.execute("DROP VIEW \"\(name)\"")
        }
        for view in Schema.views { try connection.execute(view) }
        for index in Schema.indexes { try connection.execute(index.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS ")) }
        try connection.execute("PRAGMA user_version = \(Schema.userVersion)")
    }
}
