import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore

/// Schema 4 → 5: a database without `baselines` gets it computed from its rollups by the next run, even one
/// that finds the same export and changes nothing else.
struct BaselineUpgradeTests {
    @Test func aVersion4DatabaseGetsItsBaselines() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try GeneratedExport.days(40, seed: 5).path
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        let db = try SQLiteConnection(path: database, create: false)
        let expected = try db.query("SELECT * FROM baselines ORDER BY column_name, date")
        #expect(expected.count > 500)
        try db.execute("DROP TABLE baselines; PRAGMA user_version = 4")

        let summary = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        #expect(summary.outcome == "unchanged")
        #expect(try db.scalar("PRAGMA user_version") == .integer(5))
        #expect(try db.query("SELECT * FROM baselines ORDER BY column_name, date") == expected)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'baselines_type'") == .integer(1))
    }
}
