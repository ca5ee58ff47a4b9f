/// The prepared INSERT of every table, in `Schema` column order.
struct SchemaStatements {
    let cumulative: SQLiteStatement
    let discrete: SQLiteStatement
    let category: SQLiteStatement
    let metadata: SQLiteStatement
    let source: SQLiteStatement
    let correlation: SQLiteStatement
    let correlationSample: SQLiteStatement
    let beat: SQLiteStatement
    let workout: SQLiteStatement
    let event: SQLiteStatement
    let activity: SQLiteStatement
    let statistic: SQLiteStatement
    let route: SQLiteStatement
    let point: SQLiteStatement
    let summary: SQLiteStatement
    let ecg: SQLiteStatement
    let clinical: SQLiteStatement
    let audiogram: SQLiteStatement
    let audiogramPoint: SQLiteStatement
    let vision: SQLiteStatement
    let me: SQLiteStatement
    let document: SQLiteStatement

    init(_ connection: SQLiteConnection) throws {
        func insert(_ name: String, orReplace: Bool = false) throws -> SQLiteStatement {
            // swift-format-ignore: NeverForceUnwrap
            // Every name here is a table of Schema.tables (checked by the schema tests).
            let table = Schema.tables.first { $0.name == name }!
            var sql = table.insertSQL()
            if orReplace { sql = sql.replacingOccurrences(of: "INSERT INTO", with: "INSERT OR REPLACE INTO") }
            return try connection.prepare(sql)
        }
        cumulative = try insert("cumulative_samples")
        discrete = try insert("discrete_samples")
        category = try insert("category_samples")
        metadata = try insert("metadata")
        source = try insert("sources", orReplace: true)
        correlation = try insert("correlations")
        correlationSample = try insert("correlation_samples")
        beat = try insert("hrv_beats")
        workout = try insert("workouts")
        event = try insert("workout_events")
        activity = try insert("workout_activities")
        statistic = try insert("workout_statistics")
        route = try insert("workout_routes")
        point = try insert("route_points")
        summary = try insert("activity_summaries")
        ecg = try insert("ecg_recordings")
        clinical = try insert("clinical_records")
        audiogram = try insert("audiograms")
        audiogramPoint = try insert("audiogram_points")
        vision = try insert("vision_prescriptions")
        me = try insert("me", orReplace: true)
        document = try insert("documents", orReplace: true)
    }
}
