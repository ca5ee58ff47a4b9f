import HealthSQLite

/// The prepared INSERT of every table, in `Schema` column order.
struct SchemaStatements {
    let correlation: SQLiteStatement
    let correlationSample: SQLiteStatement
    let workout: SQLiteStatement
    let event: SQLiteStatement
    let activity: SQLiteStatement
    let statistic: SQLiteStatement
    let route: SQLiteStatement
    let summary: SQLiteStatement
    let ecg: SQLiteStatement
    let clinical: SQLiteStatement
    let audiogram: SQLiteStatement
    let audiogramPoint: SQLiteStatement
    let vision: SQLiteStatement
    let me: SQLiteStatement
    let document: SQLiteStatement
    let stateOfMind: SQLiteStatement
    let syncLookup: SQLiteStatement
    let syncStore: SQLiteStatement

    init(_ connection: SQLiteConnection) throws {
        // swift-format-ignore: NeverForceUnwrap
        // Every name here is a table of Schema.tables (checked by the schema tests).
        func table(_ name: String) -> SchemaTable { Schema.tables.first { $0.name == name }! }
        func insert(_ name: String, orReplace: Bool = false, orIgnore: Bool = false) throws -> SQLiteStatement {
            let table = table(name)
            var sql = table.insertSQL()
            if orReplace { sql = sql.replacingOccurrences(of: "INSERT INTO", with: "INSERT OR REPLACE INTO") }
            // An exact duplicate meets the UNIQUE (type, start_date, identity) constraint and is not stored.
            if orIgnore { sql = sql.replacingOccurrences(of: "INSERT INTO", with: "INSERT OR IGNORE INTO") }
            return try connection.prepare(sql)
        }
        syncLookup = try connection.prepare(
            "SELECT version, row_table, row_id FROM sync_identifiers WHERE source_name = ?1 AND sync_identifier = ?2")
        syncStore = try insert("sync_identifiers", orReplace: true)
        correlation = try insert("correlations")
        correlationSample = try insert("correlation_samples")
        workout = try insert("workouts")
        event = try insert("workout_events")
        activity = try insert("workout_activities")
        statistic = try insert("workout_statistics")
        route = try insert("workout_routes")
        summary = try insert("activity_summaries")
        ecg = try insert("ecg_recordings")
        clinical = try insert("clinical_records")
        audiogram = try insert("audiograms")
        audiogramPoint = try insert("audiogram_points")
        vision = try insert("vision_prescriptions")
        me = try insert("me", orReplace: true)
        document = try insert("documents", orReplace: true)
        stateOfMind = try insert("state_of_mind")
    }
}
