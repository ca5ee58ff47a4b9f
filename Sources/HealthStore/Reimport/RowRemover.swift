import HealthModel
import HealthSQLite
import HealthSchema

/// Why a row of an earlier run leaves its table: `deleted_samples.reason`.
enum RemovalReason: String {
    /// The newer export no longer has it.
    case deleted
    /// A higher sync version took its place.
    case replaced
    /// A Health Auto Export feed point (`RowOrigin.feed`) whose time the next full export covers (FeedMerge.swift).
    case feedSuperseded = "feed_superseded"
    /// A feed point a later feed file sent again, with other content or not at all, for the span it covers.
    case feedResent = "feed_resent"
}

/// A row taken out of a table, and what the run's bookkeeping needs to know about it.
struct RemovedRow {
    var type: String
    var identity: Int64
    /// Stored by an earlier run (so it was archived in `deleted_samples`), rather than by this one.
    var wasPrevious: Bool
    /// Already met in this export (counted as unchanged).
    var wasSeen: Bool
    var start: Int64?
}

/// Takes rows out of their tables with everything hanging off them: the rows of earlier runs that a newer
/// export no longer has (`deleted`), the rows a higher sync version replaces (`replaced`), and superseded
/// routes. A row of an earlier run is first copied to `deleted_samples`, so nothing leaves the database
/// unrecorded.
struct RowRemover {
    private let connection: SQLiteConnection
    /// The run the archived rows point to.
    private let runID: Int64
    /// Per tracked table: copy the row to `deleted_samples` (?1 run, ?2 reason, ?3 id), returning its type,
    /// identity and start.
    private let archive: [SQLiteStatement]
    /// Per tracked table: a row of this run's type, identity and dates (?1 id).
    private let typeAndIdentity: [SQLiteStatement]
    /// Per tracked table: the deletes of the row and everything hanging off it (?1 id).
    private let deletes: [[SQLiteStatement]]
    /// Per sample table, then the routes: the delete of a superseded row of this run (?1 id).
    private let deleteSuperseded: [SQLiteStatement]
    private let deleteMetadata: SQLiteStatement
    private let deleteBeats: SQLiteStatement
    private let deletePoints: SQLiteStatement

    init(_ connection: SQLiteConnection, runID: Int64) throws {
        self.connection = connection
        self.runID = runID
        archive = try TrackedTable.allCases.map { try connection.prepare(Self.archiveSQL($0)) }
        typeAndIdentity = try TrackedTable.allCases.map { try connection.prepare(Self.typeAndIdentitySQL($0)) }
        deletes = try TrackedTable.allCases.map { table in try Self.deleteSQL(table).map(connection.prepare) }
        deleteSuperseded = try (TrackedTable.sampleTables.map(\.storageName) + ["workout_routes"]).map {
            try connection.prepare("DELETE FROM \"\($0)\" WHERE id = ?1")
        }
        deleteMetadata = try connection.prepare(
            "DELETE FROM metadata_rows WHERE parent_table_id = ?1 AND parent_id = ?2")
        deleteBeats = try connection.prepare("DELETE FROM hrv_beat_rows WHERE sample_id = ?1")
        deletePoints = try connection.prepare("DELETE FROM route_point_rows WHERE route_id = ?1")
    }

    /// Deletes a row and everything hanging off it; `archiving` (a row of an earlier run) copies it to
    /// `deleted_samples` with `reason` first. Returns the row's type (as the ledger counts it), identity and
    /// start, or nil when there is no such row.
    func remove(_ table: TrackedTable, id: Int64, reason: RemovalReason, archiving: Bool) throws
        -> (type: String, identity: Int64, start: Int64?)?
    {
        let found =
            archiving
            ? try archive[table.rawValue].rows([.integer(runID), .text(reason.rawValue), .integer(id)])
            : try typeAndIdentity[table.rawValue].rows([.integer(id)])
        guard let row = found.first, case .integer(let identity) = row[1] else { return nil }
        for statement in deletes[table.rawValue] { try statement.run([.integer(id)]) }
        return (ChangeLedger.key(table, type: row[0].text ?? ""), identity, row[2].integer)
    }

    /// A stored row's type, identity, start, end and creation seconds, or nil when there is no such row.
    func storedRow(_ table: TrackedTable, id: Int64) throws -> [SQLiteValue]? {
        try typeAndIdentity[table.rawValue].rows([.integer(id)]).first
    }

    /// Removes a row of this run that a higher sync version superseded (a route; samples go through
    /// `remove`), with its metadata, beats or points.
    func removeSuperseded(_ table: SyncedTable, id: Int64) throws {
        let rowDelete: SQLiteStatement? =
            switch table {
            case .routes: deleteSuperseded[3]
            case .samples(let samples): samples.rawValue < 3 ? deleteSuperseded[samples.rawValue] : nil
            }
        try rowDelete?.run([.integer(id)])
        let parent: MetadataParent =
            switch table {
            case .routes: .workoutRoutes
            case .samples(let samples): MetadataParent(samples)
            }
        try deleteMetadata.run([.integer(parent.rawValue), .integer(id)])
        if table == .samples(.discrete) { try deleteBeats.run([.integer(id)]) }
        if table == .routes { try deletePoints.run([.integer(id)]) }
    }

    /// The export's rows of a table up to `maxID` (the earlier runs') that are not in `seen` and lie inside
    /// `scope`: those this export no longer has.
    func unseenRows(_ table: TrackedTable, through maxID: Int64, seen: SeenRows, scope: SampleFilter) throws
        -> [Int64]
    {
        var unseen: [Int64] = []
        // In id order, whatever plan SQLite picks: the order gives the rows their deleted_samples ids, which
        // must not depend on whether the database has statistics (a PostgreSQL working copy has none).
        // Feed rows are not the export's to delete: FeedMerge retires them by their time.
        let exportRows = table == .correlations ? "" : " AND \(RowOrigin.export.condition)"
        let scan = try connection.prepare(
            "SELECT id FROM \"\(table.storageName)\" WHERE id <= ?1\(exportRows) ORDER BY id")
        scan.bind(1, maxID)
        try scan.forEachInteger { id in if !seen.contains(id) { unseen.append(id) } }
        if !scope.isEmpty { unseen = try unseen.filter { id in try isInScope(table, id: id, scope) } }
        return unseen
    }

    /// Whether an earlier run's row lies inside the run's filters (only then does its absence mean deletion).
    private func isInScope(_ table: TrackedTable, id: Int64, _ scope: SampleFilter) throws -> Bool {
        let row = try connection.query(
            "SELECT \(table.typeColumn), source_name, unixepoch(start_date) FROM \"\(table.name)\" WHERE id = ?1",
            [.integer(id)])
        guard let row = row.first else { return false }
        return scope.contains(
            type: ChangeLedger.key(table, type: row[0].text ?? ""), source: row[1].text ?? "", start: row[2].integer)
    }

    /// Moves every feed row (`RowOrigin.feed`) of a sample table that starts before `date` (UTC text) to
    /// `deleted_samples` with `reason`, in three statements rather than row by row: feed rows have nothing
    /// hanging off them but metadata (no sync identifiers, correlations or beats). Returns, per type, how many
    /// and the earliest start (FeedMerge.swift: the export that now covers their time).
    func removeFeedRows(_ table: TrackedTable, before date: String, reason: RemovalReason) throws
        -> [(type: String, count: Int, earliest: Int64?)]
    {
        let stored = table.storageName
        let feed = RowOrigin.feed.condition
        // Tallied in one pass over the feed index rather than by GROUP BY type, which sorted every row (16 MB
        // for a year of per-minute feed). A feed has few types, so the tally stays small.
        var tally: [Int64: FeedRowTally] = [:]
        let scan = try connection.prepare(
            "SELECT type_id, unixepoch(start_date) FROM \"\(stored)\" WHERE \(feed) AND start_date < ?1")
        scan.bind(1, .text(date))
        try scan.forEachRow { row in
            tally[row.integer(0), default: FeedRowTally()].add(start: row.isNull(1) ? nil : row.integer(1))
        }
        guard !tally.isEmpty else { return [] }
        let names = try connection.query("SELECT id, type FROM type_names").reduce(into: [Int64: String]()) {
            $0[$1[0].integer ?? 0] = $1[1].text ?? ""
        }
        let counts = tally.map { (type: names[$0.key] ?? "", count: $0.value.count, earliest: $0.value.earliest) }
            .sorted { $0.type < $1.type }
        try connection.prepare(
            // In the feed index's order (start, type), not by id: sorting a year of feed rows took 16 MB.
            Self.archiveSQL(table, rows: "\(feed) AND start_date < ?3", returning: false)
        )
        .run([.integer(runID), .text(reason.rawValue), .text(date)])
        try connection.prepare(
            "DELETE FROM metadata_rows WHERE parent_table_id = \(MetadataParent(table).rawValue) AND parent_id IN "
                + "(SELECT id FROM \"\(stored)\" WHERE \(feed) AND start_date < ?1)"
        ).run([.text(date)])
        try connection.prepare("DELETE FROM \"\(stored)\" WHERE \(feed) AND start_date < ?1").run([.text(date)])
        return counts
    }

    /// How many feed rows of one type, and the earliest start among them (NULL starts do not count, as in SQL's
    /// `min`).
    private struct FeedRowTally {
        var count = 0
        var earliest: Int64?

        mutating func add(start: Int64?) {
            count += 1
            if let start { earliest = min(earliest ?? start, start) }
        }
    }

    /// The row as the public table shows it (a compact table's view: the archive is the same whatever the
    /// storage), with its metadata in stored order.
    private static func archiveSQL(_ table: TrackedTable, rows: String = "id = ?3", returning: Bool = true) -> String {
        // swift-format-ignore: NeverForceUnwrap
        let columns = Schema.publicTables.first { $0.name == table.name }!.columnNames
        let object = columns.map { "'\($0)', \"\($0)\"" }.joined(separator: ", ")
        let parent = MetadataParent(table).rawValue
        return """
            INSERT INTO deleted_samples (run_id, reason, row_table, row_id, type, source_name, start_date,
                end_date, local_date, identity, row_json, metadata_json)
            SELECT ?1, ?2, '\(table.name)', id, \(table.typeColumn), source_name, start_date, end_date, local_date,
                identity, json_object(\(object)),
                (SELECT json_group_array(json_array(key, value)) FROM (SELECT k.key, m.value FROM metadata_rows AS m
                 JOIN metadata_keys AS k ON k.id = m.key_id WHERE m.parent_table_id = \(parent) AND m.parent_id = t.id
                 ORDER BY m.rowid))
            FROM "\(table.name)" AS t WHERE \(rows)
            \(returning ? "RETURNING type, identity, unixepoch(start_date)" : "")
            """
    }

    /// A row's type, identity and dates in UTC seconds (?1 id).
    private static func typeAndIdentitySQL(_ table: TrackedTable) -> String {
        if table.storageName != table.name {
            return """
                SELECT t.type, r.identity, unixepoch(r.start_date), r.end_seconds, r.creation_seconds
                FROM "\(table.storageName)" AS r JOIN type_names AS t ON t.id = r.type_id WHERE r.id = ?1
                """
        }
        return """
            SELECT \(table.typeColumn), identity, unixepoch(start_date), unixepoch(end_date),
                   unixepoch(creation_date) FROM "\(table.name)" WHERE id = ?1
            """
    }

    /// The rows of the metadata of `parent`'s element ?1.
    private static func deleteMetadataSQL(_ parent: MetadataParent) -> String {
        "DELETE FROM metadata_rows WHERE parent_table_id = \(parent.rawValue) AND parent_id = ?1"
    }

    private static func deleteSQL(_ table: TrackedTable) -> [String] {
        let name = table.name
        var sql = [deleteMetadataSQL(MetadataParent(table))]
        switch table {
        case .cumulative, .discrete, .category:
            sql += [
                "DELETE FROM sync_identifiers WHERE row_table = '\(name)' AND row_id = ?1",
                "DELETE FROM correlation_samples WHERE sample_table = '\(name)' AND sample_id = ?1",
            ]
            if table == .discrete { sql.append("DELETE FROM hrv_beat_rows WHERE sample_id = ?1") }
        case .correlations:
            sql.append("DELETE FROM correlation_samples WHERE correlation_id = ?1")
        case .workouts:
            for child in [MetadataParent.workoutEvents, .workoutActivities, .workoutRoutes] {
                sql.append(
                    "DELETE FROM metadata_rows WHERE parent_table_id = \(child.rawValue) AND parent_id IN "
                        + "(SELECT id FROM \(child.tableName) WHERE workout_id = ?1)")
            }
            sql += [
                "DELETE FROM route_point_rows WHERE route_id IN (SELECT id FROM workout_routes WHERE workout_id = ?1)",
                "DELETE FROM sync_identifiers WHERE row_table = 'workout_routes' AND row_id IN "
                    + "(SELECT id FROM workout_routes WHERE workout_id = ?1)",
                "DELETE FROM workout_routes WHERE workout_id = ?1",
                "DELETE FROM workout_events WHERE workout_id = ?1",
                "DELETE FROM workout_statistics WHERE workout_id = ?1",
                "DELETE FROM workout_activities WHERE workout_id = ?1",
            ]
        }
        return sql + ["DELETE FROM \"\(table.storageName)\" WHERE id = ?1"]
    }
}
