import HealthSQLite

/// The INSERTs of the tables with few rows per export, each bound by column name (`TableInsert`). The large
/// tables have writers of their own (`SampleRowWriter`, `MetadataWriter`, `BeatWriter`, `RoutePointWriter`).
struct SchemaStatements {
    let correlation: TableInsert
    let correlationSample: TableInsert
    let workout: TableInsert
    let event: TableInsert
    let activity: TableInsert
    let statistic: TableInsert
    let route: TableInsert
    let summary: TableInsert
    let ecg: TableInsert
    let clinical: TableInsert
    let audiogram: TableInsert
    let audiogramPoint: TableInsert
    let vision: TableInsert
    let me: TableInsert
    let document: TableInsert
    let stateOfMind: TableInsert
    let syncLookup: SQLiteStatement
    let syncStore: TableInsert

    init(_ connection: SQLiteConnection) throws {
        func insert(_ name: String, verb: String = "INSERT") throws -> TableInsert {
            try TableInsert(connection, table: name, verb: verb)
        }
        syncLookup = try connection.prepare(
            "SELECT version, row_table, row_id FROM sync_identifiers WHERE source_name = ?1 AND sync_identifier = ?2")
        syncStore = try insert("sync_identifiers", verb: "INSERT OR REPLACE")
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
        me = try insert("me", verb: "INSERT OR REPLACE")
        document = try insert("documents", verb: "INSERT OR REPLACE")
        stateOfMind = try insert("state_of_mind")
    }
}
