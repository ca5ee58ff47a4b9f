import HealthStore

/// Brings a `healthetl` schema written by an earlier version to `Schema.userVersion`, step by step,
/// inside the transaction of `PostgresSession.ensureSchema`, which holds the server-wide schema lock: an upgrade
/// that fails or is killed leaves the schema exactly as it was (PostgreSQL's DDL is transactional).
enum PostgresSchemaUpgrade {
    /// Runs the steps from `version`; returns the version reached (the current one, or `version` itself when
    /// no step starts there).
    static func upgrade(_ connection: PostgresConnection, from version: String) throws -> String {
        var version = version
        if version == "2" {
            for statement in fromVersion2 { try connection.execute(statement) }
            version = "3"
        }
        return version
    }

    static let name = PostgresSchema.name

    /// Version 3 added a column, a table, two indexes and a view (`SchemaMigration.fromVersion2` for SQLite).
    /// Each person's new column and table are filled by their next import (the working copy does it). The view
    /// is version 4's (the next step's).
    static var fromVersion2: [String] {
        let added: Set = ["workout_statistics_workout", "workout_routes_workout"]
        // swift-format-ignore: NeverForceUnwrap
        let dataTypes = PostgresSchema.tables.first { $0.table.name == "data_types" }!
        return [
            "ALTER TABLE \(name).workouts ADD COLUMN local_start TEXT",
            dataTypes.createSQL,
        ] + PostgresSchema.indexes.filter { index in added.contains { index.hasPrefix("CREATE INDEX \($0) ") } } + [
            "UPDATE \(name).schema_info SET value = '3' WHERE key = 'schema_version'"
        ]
    }
}
