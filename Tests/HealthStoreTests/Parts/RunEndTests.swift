import Foundation
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `RunEnd`: whether the rollups are rebuilt in full, what the run records, and when the commit compacts.
struct RunEndTests {
    /// An imported database (Berlin), opened again for a run in `zone` with `options`.
    static func withRunEnd(
        zone: String = "Europe/Berlin", options: SQLiteSink.Options = SQLiteSink.Options(),
        _ body: (RunEnd) throws -> Void
    ) throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        try store.connection.execute("ROLLBACK")
        let target = try SQLiteTarget(path: store.path, lockTimeoutMilliseconds: 0)
        defer { target.rollback() }
        let opening = try StoreOpening(target, timeZone: TimeZone(identifier: zone), convertsUnits: true)
        try body(try RunEnd(target, opening: opening, options: options))
    }

    @Test func rollupsAreRebuiltInFullOnlyWhenSomethingTheyDependOnChanged() throws {
        try Self.withRunEnd { (end: RunEnd) throws in
            #expect(try end.needsFullRollups(hasEarlierRows: true) == false)
            #expect(try end.needsFullRollups(hasEarlierRows: false))  // a new database
        }
        try Self.withRunEnd(zone: "UTC") { (end: RunEnd) throws in
            #expect(try end.needsFullRollups(hasEarlierRows: true))
        }
        var options = SQLiteSink.Options()
        options.rollups.periods = [.day]
        try Self.withRunEnd(options: options) { (end: RunEnd) throws in
            #expect(try end.needsFullRollups(hasEarlierRows: true))
            #expect(end.rollupSettingText.contains("day"))
            #expect(!end.rollupSettingText.contains("month"))
        }
    }

    @Test func theRunsSettingsAndLastIDsAreRecorded() throws {
        var options = SQLiteSink.Options()
        options.convertsUnits = false
        try Self.withRunEnd(zone: "Asia/Tokyo", options: options) { (end: RunEnd) throws in
            var summary = ImportSummary()
            summary.outcome = "ok"
            try end.record(summary, changes: [:], lastIDs: [("workouts", 12)])
            let settings = try end.target.connection.query(
                "SELECT key, value FROM settings WHERE key IN ('time_zone', 'units', 'last_id:workouts') ORDER BY key")
            #expect(
                settings == [
                    [.text("last_id:workouts"), .text("12")], [.text("time_zone"), .text("Asia/Tokyo")],
                    [.text("units"), .text("as exported")],
                ])
            #expect(try end.target.connection.scalar("SELECT max(id) FROM import_runs") == .integer(end.recorder.runID))
        }
    }

    /// More than 64 free pages and more than a quarter of the file.
    @Test func aFileOfMostlyFreePagesIsCompacted() throws {
        let store = try StoreFixture()
        #expect(try RunEnd.isMostlyFreeSpace(store.connection) == false)
        try store.connection.execute("CREATE TABLE filler (b BLOB)")
        try store.connection.execute("INSERT INTO filler VALUES (zeroblob(4000000))")
        try store.connection.execute("COMMIT")
        #expect(try RunEnd.isMostlyFreeSpace(store.connection) == false)
        try store.connection.execute("DELETE FROM filler")
        #expect(try RunEnd.isMostlyFreeSpace(store.connection))
    }
}
