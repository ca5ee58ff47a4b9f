import HealthSQLite

extension SchemaMigrator<SQLiteConnection> {
    /// SQLite's migrator: the version is `PRAGMA user_version`.
    package static var sqlite: Self {
        Self(subject: "the database", steps: SQLiteMigrations.steps, startAfresh: "import into a new file") {
            try $0.execute("PRAGMA user_version = \($1)")
        }
    }

    /// Brings the database to `Schema.userVersion` from the version it has (`migrate(_:from:file:)`).
    package func migrate(_ connection: SQLiteConnection, file: String?) throws -> MigrationAftermath {
        let version = try connection.scalar("PRAGMA user_version").integer ?? 0
        return try migrate(connection, from: Int(version), file: file)
    }
}

/// The steps that bring databases of earlier healthetl versions to `Schema.userVersion`, keyed by the version
/// each starts from; `PostgresMigrations.steps` are the server's, with the same keys from version 2 on.
package enum SQLiteMigrations {
    package static var steps: [MigrationStep<SQLiteConnection>] {
        [
            // Rebuilt as this version's schema, whichever it is (the run refills it).
            MigrationStep(from: 1, to: Schema.userVersion, fromVersion1),
            MigrationStep(from: 2, to: 3, fromVersion2),
            MigrationStep(from: 3, to: 4, aftermath: .compactsFile, fromVersion3),
            MigrationStep(from: 4, to: 6, aftermath: .computesBaselines, fromVersion4),
            // `baselines`' old pages are reused by later rows; the commit compacts the file only when they are
            // more than a quarter of it (`RunEnd.commit`).
            MigrationStep(from: 5, to: 6, fromVersion5),
        ]
    }

    /// Version 1 had no identities on workouts and correlations and no incremental tables, and replaced all
    /// its data on every import anyway. So its data tables are rebuilt empty (the running import refills
    /// them from the export) and only the history of runs is kept, extended with the new columns.
    package static func fromVersion1(_ connection: SQLiteConnection) throws {
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
        for statement in Schema.dictionaryContents { try connection.execute(statement) }
        for view in Schema.views { try connection.execute(view) }
        for index in Schema.indexes { try connection.execute(index) }
    }

    /// Version 3 added `workouts.local_start`, the `data_types` table and two indexes for the workout overview.
    /// Nothing is rebuilt: the running import fills the new column and table (and the workout totals of iOS
    /// 16+ exports, which version 2 left empty) at its end, like for new rows. The views are made by
    /// `fromVersion3`, which follows.
    package static func fromVersion2(_ connection: SQLiteConnection) throws {
        try connection.execute("ALTER TABLE workouts ADD COLUMN local_start TEXT")
        // swift-format-ignore: NeverForceUnwrap
        try connection.execute(Schema.tables.first { $0.name == "data_types" }!.createSQL)
    }

    /// Version 4 stores the six largest tables compactly (`Schema.version4CompactNames`), under views with
    /// their old names and columns. Their rows are copied into the compact tables and the old tables dropped, in the
    /// transaction of the run that found the old version: a run that fails or is killed leaves version 3 as
    /// it was (SQLite's log undoes all of it); a run that commits leaves version 4 complete. Row ids, and so
    /// every reference to a row, stay the same. The file keeps the old tables' pages as free space until
    /// `SQLiteTarget` gives them back after the commit (VACUUM: the `compactsFile` aftermath).
    package static func fromVersion3(_ connection: SQLiteConnection) throws {
        for row in try connection.query("SELECT name FROM sqlite_master WHERE type = 'view'") {
            guard let name = row[0].text else { continue }
            try connection.execute("DROP VIEW \"\(name)\"")
        }
        let compact = Schema.compactTables.filter { Schema.version4CompactNames.contains($0.publicName) }
        for table in Schema.dictionaryTables where Schema.version4DictionaryNames.contains(table.name) {
            try connection.execute(table.createSQL)
        }
        for table in compact.map(\.table) { try connection.execute(table.createSQL) }
        for statement in Schema.dictionaryContents { try connection.execute(statement) }
        try connection.execute(
            """
            INSERT INTO type_names (type) SELECT type FROM (SELECT type FROM cumulative_samples
                UNION SELECT type FROM discrete_samples UNION SELECT type FROM category_samples) ORDER BY type
            """)
        for table in TrackedTable.sampleTables {
            try connection.execute(
                """
                INSERT INTO \(table.storageName) (id, type_id, source_id, start_date, end_seconds, creation_seconds,
                    utc_offset_seconds, local_date, value, unit, raw_value, raw_unit, flags, xml_line, identity)
                SELECT s.id, t.id, s.source_id, s.start_date, unixepoch(s.end_date), unixepoch(s.creation_date),
                    \(offsetSeconds("s.utc_offset")), s.local_date, s.value, s.unit,
                    CASE WHEN s.raw_value IS s.value THEN NULL ELSE s.raw_value END,
                    CASE WHEN s.raw_unit IS s.unit THEN NULL ELSE s.raw_unit END, s.flags, s.xml_line, s.identity
                FROM \(table.name) AS s JOIN type_names AS t ON t.type = s.type ORDER BY s.id
                """)
        }
        try connection.execute("ALTER TABLE workouts ADD COLUMN origin INTEGER NOT NULL DEFAULT 0")
        try connection.execute("INSERT INTO metadata_keys (key) SELECT DISTINCT key FROM metadata ORDER BY key")
        try connection.execute(
            """
            INSERT INTO metadata_rows (parent_table_id, parent_id, key_id, value, number, number_unit)
            SELECT p.id, m.parent_id, k.id, m.value, m.number, m.number_unit
            FROM metadata AS m JOIN parent_tables AS p ON p.name = m.parent_table JOIN metadata_keys AS k ON k.key = m.key
            ORDER BY m.rowid
            """)
        try connection.execute(
            """
            INSERT INTO hrv_beat_rows (sample_id, seq, bpm, time_centis, raw_time)
            SELECT sample_id, seq, bpm, \(centiseconds("time")), raw_time FROM hrv_beats ORDER BY rowid
            """)
        try connection.execute(
            """
            INSERT INTO route_point_rows (route_id, seq, time_centis, latitude, longitude, elevation, speed, course,
                horizontal_accuracy, vertical_accuracy)
            SELECT route_id, seq, \(centiseconds("time")), latitude, longitude, elevation, speed, course,
                horizontal_accuracy, vertical_accuracy FROM route_points ORDER BY rowid
            """)
        for table in compact { try connection.execute("DROP TABLE \"\(table.publicName)\"") }
        // `baselines` is made by `fromVersion4`, which follows.
        for view in Schema.viewDescriptions where view.name != Schema.baselineRows.publicName {
            try connection.execute(view.sql)
        }
        for index in Schema.indexes {
            try connection.execute(index.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS "))
        }
    }

    /// Version 5 added `baselines`, which version 6 stores compactly: a version 4 database gets version 6's
    /// tables and view here, empty; the writer computes the rows from the rollups the database has
    /// (`BaselineTable`, the `computesBaselines` aftermath the opening runs after the last step).
    package static func fromVersion4(_ connection: SQLiteConnection) throws {
        try createBaselineTables(connection)
        try createBaselineView(connection)
    }

    /// Version 6 stores `baselines` compactly (`Schema.baselineRows`): the rows are moved, with their rowids,
    /// into `baseline_rows`, each metric numbered in the order it first appears (as a full computation numbers
    /// them), and the table becomes a view with the same columns. Nothing is computed again. In the run's
    /// transaction, like every step: a run that fails leaves version 5 as it was.
    package static func fromVersion5(_ connection: SQLiteConnection) throws {
        try createBaselineTables(connection)
        try connection.execute(
            """
            INSERT INTO baseline_metrics (type, column_name)
            SELECT type, column_name FROM baselines GROUP BY column_name ORDER BY min(rowid)
            """)
        let statistics = Schema.baselineRows.table.columnNames.dropFirst(2)  // after metric_id, date
        try connection.execute(
            """
            INSERT INTO baseline_rows (rowid, metric_id, date, \(statistics.joined(separator: ", ")))
            SELECT b.rowid, m.id, b.date, \(statistics.map { "b." + $0 }.joined(separator: ", "))
            FROM baselines AS b JOIN baseline_metrics AS m ON m.column_name = b.column_name ORDER BY b.rowid
            """)
        try connection.execute("DROP TABLE baselines")  // and its index, baselines_type
        try createBaselineView(connection)
    }

    private static func createBaselineTables(_ connection: SQLiteConnection) throws {
        try connection.execute(Schema.baselineMetrics.createSQL)
        try connection.execute(Schema.baselineRows.table.createSQL)
    }

    private static func createBaselineView(_ connection: SQLiteConnection) throws {
        // swift-format-ignore: NeverForceUnwrap
        // Every compact table has its view (checked by the schema tests).
        try connection.execute(Schema.viewDescriptions.first { $0.name == Schema.baselineRows.publicName }!.sql)
    }

    /// SQL for an offset's text (`-04:00`) in seconds.
    private static func offsetSeconds(_ text: String) -> String {
        "CASE WHEN \(text) IS NOT NULL THEN (CASE substr(\(text), 1, 1) WHEN '-' THEN -1 ELSE 1 END) "
            + "* (CAST(substr(\(text), 2, 2) AS INTEGER) * 3600 + CAST(substr(\(text), 5, 2) AS INTEGER) * 60) END"
    }

    /// SQL for an instant's text with or without hundredths (`2019-06-18T01:07:11.94Z`) in centiseconds.
    private static func centiseconds(_ text: String) -> String {
        "unixepoch(substr(\(text), 1, 19) || 'Z') * 100 "
            + "+ CASE WHEN length(\(text)) = 23 THEN CAST(substr(\(text), 21, 2) AS INTEGER) ELSE 0 END"
    }
}
