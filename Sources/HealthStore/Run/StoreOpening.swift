import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// A run's opening of the database: the schema created, checked or migrated; the zone `local_date` is computed
/// in (every stored day recomputed when it changes); the unit setting checked. Nothing here changes after it.
struct StoreOpening {
    /// The database holds rows of earlier runs, to match against.
    let hadData: Bool
    /// This run moved a database of an earlier schema version to this one (its commit then compacts the file).
    let upgradedSchema: Bool
    /// The zone `local_date` is computed in: the one asked for, else the database's, else the machine's.
    let timeZone: TimeZone
    /// The zone of the database before this run (another one means its rollups are all rebuilt).
    let storedTimeZone: String?

    /// `timeZone` nil means: keep the zone the database was built with; if a different zone is asked for, every
    /// `local_date` is recomputed in it.
    init(_ target: SQLiteTarget, timeZone requested: TimeZone?, convertsUnits: Bool) throws {
        let connection = target.connection
        (hadData, upgradedSchema) = try Self.prepareSchema(connection, isNew: target.isNew, path: target.path)
        let stored = try Self.storedTimeZone(connection)
        storedTimeZone = stored?.identifier
        timeZone = requested ?? stored ?? TimeZone.current
        if hadData, let stored, stored.identifier != timeZone.identifier {
            try SQLiteSink.recomputeLocalDates(connection, timeZone: timeZone)
        }
        if hadData { try Self.checkUnitSetting(connection, convertsUnits: convertsUnits, path: target.path) }
    }

    /// Creates the schema in a new (or empty) database; brings an existing one of healthetl's to this version
    /// (`SchemaMigrator.sqlite`, which decides what runs and refuses a later version) and does what the
    /// migration left for after it. Returns whether the database holds data of earlier runs to match against, and
    /// whether the commit compacts the file.
    static func prepareSchema(_ connection: SQLiteConnection, isNew: Bool, path: String) throws -> (
        hadData: Bool, upgraded: Bool
    ) {
        if isNew {
            // Indexes before the load rather than after: rows arrive grouped by type and in time order within
            // a type, so keeping these indexes up to date is nearly sequential and runs while the other thread
            // decodes, instead of a single-threaded sort at the end.
            try Schema.createTables(connection)
            try Schema.createIndexes(connection)
            return (false, false)
        }
        switch try SchemaState(of: connection) {
        case .empty:
            return try prepareSchema(connection, isNew: true, path: path)
        case .current, .older, .newer:
            let aftermath = try SchemaMigrator.sqlite.migrate(connection, file: path)
            // The rows of the steps' new, empty `baselines` (the run then updates them with the rollups it
            // rebuilds, as in any database).
            if aftermath.contains(.computesBaselines) { _ = try BaselineTable.update(connection, only: nil) }
            return (true, aftermath.contains(.compactsFile))
        case .foreign:
            // Another application's SQLite file, never to be written into.
            throw ImportError(
                .output, "not a healthetl database (it holds another application's tables)",
                hint: "import into a new file")
        }
    }

    /// The zone an earlier run computed `local_date` in, if any.
    static func storedTimeZone(_ connection: SQLiteConnection) throws -> TimeZone? {
        guard case .text(let name) = try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'")
        else { return nil }
        return TimeZone(identifier: name)
    }

    /// Refuses a run whose unit stage setting differs from the database's (see `SQLiteSink.Options.convertsUnits`).
    static func checkUnitSetting(_ connection: SQLiteConnection, convertsUnits: Bool, path: String) throws {
        guard let stored = try connection.scalar("SELECT value FROM settings WHERE key = 'units'").text else { return }
        let wanted = convertsUnits ? "converted" : "as exported"
        guard stored != wanted else { return }
        throw ImportError(
            .refused,
            "the database holds values \(stored == "converted" ? "converted to canonical units" : "in exported units"); "
                + "this run would store new ones \(convertsUnits ? "converted" : "as exported (--raw-units)"), "
                + "mixing both in one column",
            file: path, hint: "use the same unit setting as before, or import into a new database")
    }
}
