import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

extension SQLiteSink {
    /// Recomputes `local_date` (and `workouts.local_start`) everywhere in `timeZone` (a sample's own `HKTimeZone` still wins), when a
    /// database built in one zone is used with another: no re-import needed. One UPDATE per table, with the
    /// day computed by a Swift SQL function; only rows whose day changes are written.
    /// Returns the number of rows changed.
    @discardableResult
    public static func recomputeLocalDates(_ connection: SQLiteConnection, timeZone: TimeZone) throws -> Int {
        var resolver = LocalDateResolver(timeZone: timeZone)
        try connection.registerTextFunction("healthetl_local_date", argumentCount: 2) { arguments in
            guard let text = arguments[0], let seconds = StoredInstant.seconds(text) else { return nil }
            let instant = Timestamp(seconds: seconds, offsetSeconds: 0)
            return TimestampFormatting.dayString(resolver.day(of: instant, zoneName: arguments[1]))
        }
        var changed = 0
        for table in Schema.tables where table.name != "deleted_samples" && table.columnNames.contains("local_date") {
            let names = table.columnNames
            guard let dateColumn = ["start_date", "recorded_date", "end_date"].first(where: names.contains) else {
                continue
            }
            // The sample's own zone, where its table carries metadata (named by its public name).
            let publicName = Schema.compactTables.first { $0.table.name == table.name }?.publicName ?? table.name
            let zone =
                Schema.metadataParents.contains(publicName)
                ? "(SELECT m.value FROM metadata_rows AS m JOIN metadata_keys AS k ON k.id = m.key_id "
                    + "WHERE m.parent_table_id = \(Schema.parentTableID(publicName)) AND m.parent_id = t.id "
                    + "AND k.key = 'HKTimeZone')"
                : "NULL"
            let day = "healthetl_local_date(\(dateColumn), \(zone))"
            try connection.execute(
                "UPDATE \"\(table.name)\" AS t SET local_date = \(day) WHERE local_date IS NOT \(day)")
            changed += connection.changes
        }
        // Workouts also keep the local clock time of their start (not counted: the count is of changed days).
        try WorkoutTotals.updateLocalStarts(connection, timeZone: timeZone, onlyMissing: false)
        return changed
    }
}

extension SQLiteSink {
    /// Recomputes every `local_date` of the database in `timeZone` and keeps it as the database's zone
    /// (`healthetl set-timezone`); no export needed. Returns the number of rows whose day changed.
    public static func changeTimeZone(databasePath: String, to timeZone: TimeZone, lockTimeoutSeconds: Double) throws
        -> Int
    {
        try StoredDatabase.requireFile(databasePath)
        let target = try SQLiteTarget(path: databasePath, lockTimeoutMilliseconds: Int32(lockTimeoutSeconds * 1000))
        do {
            if let error = try SchemaState(of: target.connection).readingError(path: databasePath) { throw error }
            let changed = try recomputeLocalDates(target.connection, timeZone: timeZone)
            try RunRecorder.writeSetting(target.connection, "time_zone", timeZone.identifier)
            let stored = try target.connection.scalar("SELECT value FROM settings WHERE key = 'rollups'").text
            // Foundation's decoder stays: the project's own Codable setting, written by JSONEncoder (RunEnd).
            let options = try stored.map { try JSONDecoder().decode(RollupOptions.self, from: Data($0.utf8)) }
            try RollupTables.rebuild(target.connection, timeZone: timeZone, options: options ?? RollupOptions())
            try target.commit()
            return changed
        } catch let error as ImportError {
            target.rollback()
            throw error
        } catch {
            target.rollback()
            throw ImportError(.output, "cannot change the time zone: \(error)", file: databasePath)
        }
    }
}
