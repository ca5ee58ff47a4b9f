import HealthSchema
import HealthStore

extension SchemaMigrator<PostgresConnection> {
    /// The server's migrator: the version is `schema_info`'s `schema_version`. It runs inside the transaction
    /// of `PostgresSession.ensureSchema`, which holds the server-wide schema lock: a migration that fails or is
    /// killed leaves the schema exactly as it was (PostgreSQL's DDL is transactional).
    static var postgres: Self {
        let name = PostgresSchema.name
        return Self(subject: "the PostgreSQL schema \(name)", steps: PostgresMigrations.steps, startAfresh: nil) {
            try $0.execute("UPDATE \(name).schema_info SET value = '\($1)' WHERE key = 'schema_version'")
        }
    }
}

/// The steps that bring a `healthetl` schema written by an earlier version to `Schema.userVersion`, keyed by the
/// version each starts from, as `SQLiteMigrations.steps` are (the server began at version 2). Nothing is left
/// for afterwards: each person's next import computes what is missing in the working copy.
enum PostgresMigrations {
    static var steps: [MigrationStep<PostgresConnection>] {
        [
            MigrationStep(from: 2, to: 3) { connection in
                for statement in fromVersion2 { try connection.execute(statement) }
            },
            MigrationStep(from: 3, to: 4, fromVersion3),
            MigrationStep(from: 4, to: 6) { connection in
                for statement in fromVersion4 { try connection.execute(statement) }
            },
            MigrationStep(from: 5, to: 6, fromVersion5),
        ]
    }

    static let name = PostgresSchema.name

    /// Version 3 added a column, a table, two indexes and a view (`SQLiteMigrations.fromVersion2` for SQLite).
    /// Each person's new column and table are filled by their next import (the working copy does it). The view
    /// is version 4's (the next step's).
    static var fromVersion2: [String] {
        let added: Set = ["workout_statistics_workout", "workout_routes_workout"]
        // swift-format-ignore: NeverForceUnwrap
        let dataTypes = PostgresSchema.tables.first { $0.table.name == "data_types" }!
        return [
            "ALTER TABLE \(name).workouts ADD COLUMN local_start TEXT",
            dataTypes.createSQL,
        ] + PostgresSchema.indexes.filter { index in added.contains { index.hasPrefix("CREATE INDEX \($0) ") } }
    }

    /// Version 5 added `baselines`, which version 6 stores compactly (`SQLiteMigrations.fromVersion4` for
    /// SQLite): version 6's tables and view. Each person's rows are computed by their next import: the working
    /// copy finds the table empty and computes it whole (`BaselineTable`).
    static var fromVersion4: [String] {
        baselineStorage + [baselineView]
    }

    /// Version 6 stores `baselines` compactly (`SQLiteMigrations.fromVersion5` for SQLite): every person's rows
    /// move to `baseline_rows` with their `row_key`, each person's metrics numbered in the order they first
    /// appear, so a person's next check-out is what a working copy upgraded by SQLite would be. Nothing is
    /// computed again; a conversion that would lose a row fails the upgrade.
    static func fromVersion5(_ connection: PostgresConnection) throws {
        for statement in baselineStorage { try connection.execute(statement) }
        try connection.execute(
            """
            INSERT INTO \(name).baseline_metrics (person, id, type, column_name)
            SELECT person, row_number() OVER (PARTITION BY person ORDER BY first), type, column_name
            FROM (SELECT person, column_name, min(type) AS type, min(row_key) AS first
                  FROM \(name).baselines GROUP BY person, column_name) AS used
            """)
        let statistics = Schema.baselineRows.table.columnNames.dropFirst(2)  // after metric_id, date
        try move(
            "baselines", connection,
            """
            INSERT INTO \(name).baseline_rows (person, row_key, metric_id, date, \(statistics.joined(separator: ", ")))
            SELECT b.person, b.row_key, m.id, b.date, \(statistics.map { "b." + $0 }.joined(separator: ", "))
            FROM \(name).baselines AS b
                JOIN \(name).baseline_metrics AS m ON m.person = b.person AND m.column_name = b.column_name
            """)
        try connection.execute("DROP TABLE \(name).baselines")
        try connection.execute(baselineView)
        try connection.execute("ANALYZE \(name).baseline_metrics, \(name).baseline_rows")
    }

    /// `baseline_metrics` and `baseline_rows` with their index.
    private static var baselineStorage: [String] {
        let added = [Schema.baselineMetrics.name, Schema.baselineRows.table.name]
        return PostgresSchema.tables.filter { added.contains($0.table.name) }.map(\.createSQL)
            + PostgresSchema.indexes.filter { index in added.contains { index.contains(" ON \(name).\($0) ") } }
    }

    /// The `baselines` view over them.
    private static var baselineView: String {
        // swift-format-ignore: NeverForceUnwrap
        // Every compact table has its view (checked by the schema tests).
        Schema.viewDescriptions.first { $0.name == Schema.baselineRows.publicName }!.sql(in: .postgres)
    }

    /// Version 4 stores the six largest tables compactly under views with their old names and columns, as
    /// `SQLiteMigrations.fromVersion3` does for SQLite: every person's rows are converted on the server, in one
    /// statement per table, with per-person dictionaries numbered in byte order of the names (as SQLite's
    /// upgrade numbers them). Keys (`id`, `row_key`) stay, so a person's next check-out is what a working copy
    /// upgraded by SQLite would be. Each conversion must move every row: one that would lose a row (a value
    /// the dictionaries cannot name) fails the upgrade instead.
    static func fromVersion3(_ connection: PostgresConnection) throws {
        // The views over the old tables (not CASCADE: a view of a DBA's own on them stops the upgrade, named).
        try connection.execute(
            "DROP VIEW IF EXISTS "
                + ["all_quantity_samples", "sleep", "daily_rollups", "workout_overview"]
                .map { "\(name).\($0)" }.joined(separator: ", "))
        // What version 4 added; `baselines` comes with the step from version 4 (`fromVersion4`).
        let compact = Schema.compactTables.filter { Schema.version4CompactNames.contains($0.publicName) }
        let added =
            Schema.dictionaryTables.map(\.name).filter { Schema.version4DictionaryNames.contains($0) }
            + compact.map(\.table.name)
        for table in PostgresSchema.tables where added.contains(table.table.name) {
            try connection.execute(table.createSQL)
        }
        // Health Auto Export's feed marks its rows; every row of version 3 came from an export (0).
        try connection.execute(
            "ALTER TABLE \(name).workouts ADD COLUMN origin "
                + PostgresSchema.declaration(FeedSchema.originColumn.declaration))
        try connection.execute(
            """
            INSERT INTO \(name).parent_tables (person, id, name)
            SELECT people.person, fixed.id, fixed.name
            FROM (SELECT DISTINCT person FROM \(name).import_runs) AS people CROSS JOIN \(fixedParentTables)
            """)
        try connection.execute(
            """
            INSERT INTO \(name).type_names (person, id, type)
            SELECT person, row_number() OVER (PARTITION BY person ORDER BY type COLLATE "C"), type
            FROM (SELECT person, type FROM \(name).cumulative_samples UNION SELECT person, type FROM \(name).discrete_samples
                  UNION SELECT person, type FROM \(name).category_samples) AS used
            """)
        for (old, new) in [
            ("cumulative_samples", "cumulative_rows"), ("discrete_samples", "discrete_rows"),
            ("category_samples", "category_rows"),
        ] {
            try move(
                old, connection,
                """
                INSERT INTO \(name).\(new) (person, id, type_id, source_id, start_date, end_seconds, creation_seconds,
                    utc_offset_seconds, local_date, value, unit, raw_value, raw_unit, flags, xml_line, identity)
                SELECT s.person, s.id, t.id, s.source_id, s.start_date, \(seconds("s.end_date")),
                    \(seconds("s.creation_date")), \(offsetSeconds("s.utc_offset")), s.local_date, s.value, s.unit,
                    CASE WHEN s.raw_value IS NOT DISTINCT FROM s.value THEN NULL ELSE s.raw_value END,
                    CASE WHEN s.raw_unit IS NOT DISTINCT FROM s.unit THEN NULL ELSE s.raw_unit END,
                    s.flags, s.xml_line, s.identity
                FROM \(name).\(old) AS s JOIN \(name).type_names AS t ON t.person = s.person AND t.type = s.type
                """)
        }
        try connection.execute(
            """
            INSERT INTO \(name).metadata_keys (person, id, key)
            SELECT person, row_number() OVER (PARTITION BY person ORDER BY key COLLATE "C"), key
            FROM (SELECT DISTINCT person, key FROM \(name).metadata) AS used
            """)
        try move(
            "metadata", connection,
            """
            INSERT INTO \(name).metadata_rows (person, row_key, parent_table_id, parent_id, key_id, value, number,
                number_unit)
            SELECT m.person, m.row_key, fixed.id, m.parent_id, k.id, m.value, m.number, m.number_unit
            FROM \(name).metadata AS m JOIN \(fixedParentTables) ON fixed.name = m.parent_table
                JOIN \(name).metadata_keys AS k ON k.person = m.person AND k.key = m.key
            """)
        try move(
            "hrv_beats", connection,
            """
            INSERT INTO \(name).hrv_beat_rows (person, row_key, sample_id, seq, bpm, time_centis, raw_time)
            SELECT person, row_key, sample_id, seq, bpm, \(centiseconds("time")), raw_time FROM \(name).hrv_beats
            """)
        try move(
            "route_points", connection,
            """
            INSERT INTO \(name).route_point_rows (person, row_key, route_id, seq, time_centis, latitude, longitude,
                elevation, speed, course, horizontal_accuracy, vertical_accuracy)
            SELECT person, row_key, route_id, seq, \(centiseconds("time")), latitude, longitude, elevation, speed,
                course, horizontal_accuracy, vertical_accuracy
            FROM \(name).route_points
            """)
        for table in compact { try connection.execute("DROP TABLE \(name).\"\(table.publicName)\"") }
        for index in PostgresSchema.indexes where added.contains(where: { index.contains(" ON \(name).\($0) ") }) {
            try connection.execute(index)
        }
        for view in Schema.viewDescriptions where view.name != Schema.baselineRows.publicName {
            try connection.execute(view.sql(in: .postgres))
        }
        // Statistics now rather than whenever autovacuum comes: the views' joins are planned from them.
        try connection.execute("ANALYZE " + added.map { "\(name).\($0)" }.joined(separator: ", "))
    }

    /// Runs `insert`, which converts the rows of `table`, and fails unless it inserted as many rows as the
    /// table has.
    private static func move(_ table: String, _ connection: PostgresConnection, _ insert: String) throws {
        let moved = try connection.execute(counting: insert)
        let count = Int(try connection.scalar("SELECT count(*) FROM \(name).\(table)") ?? "") ?? -1
        guard moved == count else {
            throw PostgresError(
                message: "upgrading the schema: \(table) has \(count) rows, but \(moved) could be "
                    + "converted; nothing was changed")
        }
    }

    /// The fixed ids of the tables that own metadata, as a relation `fixed (id, name)`.
    static var fixedParentTables: String {
        "(VALUES "
            + Schema.metadataParents.enumerated().map { "(\($0.offset + 1), '\($0.element)')" }
            .joined(separator: ", ") + ") AS fixed (id, name)"
    }

    // The conversions of `SQLiteMigrations.fromVersion3`, for the text version 3 wrote. Other text becomes NULL, as
    // SQLite's date functions make it. The shape is checked with LIKE: a regular expression cost a microsecond a
    // row, a third of the conversion (measured). Text of the right shape with other characters than digits,
    // which version 3 never wrote, fails the cast and so the whole upgrade, rather than losing a value.

    /// `2019-06-18T01:07:11Z` → seconds since 1970 (date_part: extract's numeric is slower).
    private static func seconds(_ text: String) -> String {
        "CASE WHEN \(text) LIKE '____-__-__T__:__:__Z' THEN date_part('epoch', left(\(text), 19)::timestamp)::bigint END"
    }

    /// `2019-06-18T01:07:11.94Z` or `2019-06-18T01:07:11Z` → centiseconds since 1970.
    private static func centiseconds(_ text: String) -> String {
        "CASE WHEN \(text) LIKE '____-__-__T__:__:__Z' OR \(text) LIKE '____-__-__T__:__:__.__Z' "
            + "THEN date_part('epoch', left(\(text), 19)::timestamp)::bigint * 100 "
            + "+ CASE WHEN length(\(text)) = 23 THEN substr(\(text), 21, 2)::bigint ELSE 0 END END"
    }

    /// `-04:00` → seconds.
    private static func offsetSeconds(_ text: String) -> String {
        "CASE WHEN \(text) LIKE '+__:__' OR \(text) LIKE '-__:__' THEN (CASE WHEN left(\(text), 1) = '-' THEN -1 ELSE 1 END) "
            + "* (substr(\(text), 2, 2)::bigint * 3600 + substr(\(text), 5, 2)::bigint * 60) END"
    }
}
