import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// What the database held before this run, for matching.
struct PreviousState {
    /// False for a new database: every row is new and nothing is looked up.
    var isActive = false
    var tables = TrackedTable.allCases.map { TrackedRows(name: $0.name) }
    var routeMaxID: Int64 = 0
    /// The newest `ExportDate` imported so far (UTC text, which sorts like the instants).
    var newestExportDate: String?
    var snapshotsCleared = false
    /// The zone of the database before this run (a different one means its rollups are all rebuilt).
    var storedTimeZone: String?
}

/// The statements of a re-import: lookups by identity (samples: `SampleRowWriter.find`; moving a row to
/// `deleted_samples` is `RowRemover`'s).
struct ReimportStatements {
    let findCorrelation: SQLiteStatement
    let findWorkout: SQLiteStatement
    /// Per tracked table: a row's type, identity and dates (?1 id).
    let typeAndIdentity: [SQLiteStatement]
    /// The samples linked to a correlation (?1 its id).
    let correlationChildren: SQLiteStatement

    init(_ connection: SQLiteConnection) throws {
        findCorrelation = try connection.prepare("SELECT id FROM correlations WHERE identity = ?1 ORDER BY id")
        findWorkout = try connection.prepare("SELECT id FROM workouts WHERE identity = ?1 ORDER BY id")
        typeAndIdentity = try TrackedTable.allCases.map { try connection.prepare(Self.typeAndIdentitySQL($0)) }
        correlationChildren = try connection.prepare(
            "SELECT sample_table, sample_id FROM correlation_samples WHERE correlation_id = ?1 ORDER BY rowid")
    }

    static func typeAndIdentitySQL(_ table: TrackedTable) -> String {
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
}

extension SQLiteSink {
    /// Reads what earlier runs left: row ids, anchors, sources, the newest export imported. Tables without a
    /// stable identity (`Schema.snapshotTables`) are emptied: this run refills them from the export.
    func loadPreviousState() throws {
        previous.isActive = true
        func maxID(_ table: String, stored: String? = nil) throws -> Int64 {
            guard
                case .integer(let id) = try connection.scalar("SELECT coalesce(max(id), 0) FROM \"\(stored ?? table)\"")
            else { return 0 }
            // Never below the highest id ever given out: a deleted row's id stays its own (deleted_samples
            // and the user's own tables may refer to it), even when it was the table's last row.
            let given = try connection.scalar("SELECT value FROM settings WHERE key = ?1", [.text("last_id:" + table)])
            let archived = try connection.scalar(
                "SELECT coalesce(max(row_id), 0) FROM deleted_samples WHERE row_table = ?1", [.text(table)])
            return max(id, given.text.flatMap { Int64($0) } ?? 0, archived.integer ?? 0)
        }
        ids.cumulative = try maxID("cumulative_samples", stored: TrackedTable.cumulative.storageName)
        ids.discrete = try maxID("discrete_samples", stored: TrackedTable.discrete.storageName)
        ids.category = try maxID("category_samples", stored: TrackedTable.category.storageName)
        ids.correlation = try maxID("correlations")
        ids.workout = try maxID("workouts")
        ids.event = try maxID("workout_events")
        ids.activity = try maxID("workout_activities")
        ids.statistic = try maxID("workout_statistics")
        ids.route = try maxID("workout_routes")
        ids.stateOfMind = try maxID("state_of_mind")
        previous.routeMaxID = ids.route
        let maxima = [ids.cumulative, ids.discrete, ids.category, ids.correlation, ids.workout]
        for table in TrackedTable.allCases {
            previous.tables[table.rawValue].previousMaxID = maxima[table.rawValue]
            if case .integer(let count) = try connection.scalar("SELECT count(*) FROM \"\(table.storageName)\"") {
                previous.tables[table.rawValue].previousCount = Int(count)
            }
        }
        if case .text(let date) = try connection.scalar(
            "SELECT max(export_date) FROM import_runs WHERE outcome IN ('ok', 'unchanged')")
        {
            previous.newestExportDate = date
        }
    }

    /// Empties the tables this run refills (`Schema.snapshotTables`); done when the first item arrives, so
    /// a run that stops before reading (the same export again) leaves them alone.
    func clearSnapshotTables() throws {
        previous.snapshotsCleared = true
        for table in Schema.snapshotTables { try connection.execute("DELETE FROM \"\(table)\"") }
        try connection.execute(
            "DELETE FROM metadata_rows WHERE parent_table_id IN "
                + "(\(MetadataParent.audiograms.rawValue), \(MetadataParent.visionPrescriptions.rawValue))")
        if options.replacesStateOfMind { try connection.execute("DELETE FROM state_of_mind") }
    }

    /// Refuses a run whose unit stage setting differs from the database's (see `Options.convertsUnits`).
    func checkUnitSetting() throws {
        guard let stored = try connection.scalar("SELECT value FROM settings WHERE key = 'units'").text else { return }
        let wanted = options.convertsUnits ? "converted" : "as exported"
        guard stored != wanted else { return }
        throw ImportError(
            .refused,
            "the database holds values \(stored == "converted" ? "converted to canonical units" : "in exported units"); "
                + "this run would store new ones \(options.convertsUnits ? "converted" : "as exported (--raw-units)"), "
                + "mixing both in one column",
            file: target.path, hint: "use the same unit setting as before, or import into a new database")
    }

    /// Refuses an export older than the newest one imported: its absence of newer samples would read as
    /// deletions. Equal dates pass (the same export again).
    func checkExportDate(_ exportDate: Timestamp?) throws {
        guard !options.allowOlderExport, let newest = previous.newestExportDate, let exportDate else { return }
        let date = TimestampFormatting.utcString(exportDate.seconds)
        guard date < newest else { return }
        throw ImportError(
            .refused,
            "this export (exported \(date)) is older than the one the database was last updated from "
                + "(\(newest)); importing it would record every newer sample as deleted",
            file: target.path, hint: "import the newest export, or pass --force to import this one anyway")
    }
}
