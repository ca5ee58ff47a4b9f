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
        (hadData, upgradedSchema) = try Self.prepareSchema(connection, isNew: target.isNew)
        let stored = try Self.storedTimeZone(connection)
        storedTimeZone = stored?.identifier
        timeZone = requested ?? stored ?? TimeZone.current
        if hadData, let stored, stored.identifier != timeZone.identifier {
            try SQLiteSink.recomputeLocalDates(connection, timeZone: timeZone)
        }
        if hadData { try Self.checkUnitSetting(connection, convertsUnits: convertsUnits, path: target.path) }
    }

    /// Creates the schema in a new (or empty) database, or checks an existing one; migrates a version-1
    /// database by rebuilding its data tables (the run then refills them), later ones step by step
    /// (`SchemaMigration`). Returns whether the database holds data of earlier runs to
    /// match against.
    static func prepareSchema(_ connection: SQLiteConnection, isNew: Bool) throws -> (hadData: Bool, upgraded: Bool) {
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
            return try prepareSchema(connection, isNew: true)
        case .current:
            return (true, false)
        case .older(1):
            try SchemaMigration.fromVersion1(connection)
            return (true, false)
        case .older(2):
            try SchemaMigration.fromVersion2(connection)
            try SchemaMigration.fromVersion3(connection)
            try addBaselines(connection)
            return (true, true)
        case .older(3):
            try SchemaMigration.fromVersion3(connection)
            try addBaselines(connection)
            return (true, true)
        case .older(4):
            try addBaselines(connection)
            return (true, false)
        case .older(5):
            // The old table's pages are reused by later rows; the commit compacts the file only when they
            // are more than a quarter of it (`RunEnd.commit`).
            try SchemaMigration.fromVersion5(connection)
            return (true, false)
        case .older(let version), .newer(let version):
            throw ImportError(
                .output,
                "the database was not written by this version of healthetl (user_version \(version), expected "
                    + "\(Schema.userVersion))", hint: "import into a new file")
        case .foreign:
            // Another application's SQLite file, never to be written into.
            throw ImportError(
                .output, "not a healthetl database (it holds another application's tables)",
                hint: "import into a new file")
        }
    }

    /// Version 4 → 6: `baselines`, computed from the rollups the database has (the run then updates them with
    /// the rollups it rebuilds, as in any database).
    static func addBaselines(_ connection: SQLiteConnection) throws {
        try SchemaMigration.fromVersion4(connection)
        _ = try BaselineTable.update(connection, only: nil)
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
