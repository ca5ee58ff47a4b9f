import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// Every number of `baselines` equals an independent recomputation from `daily_rollups` by the definitions of
/// docs/baselines.md: `baselines_reference.py` (Python's standard library: `statistics`, a t quantile by
/// numerical integration, no code shared with Swift) checks every metric and day.
@Suite(.enabled(if: Condition.python3, "python3 is not on PATH"))
struct BaselineReferenceTests {
    static let script = Fixtures.repositoryRoot + "/Tests/HealthStoreTests/baselines_reference.py"

    /// Runs the reference on `database`; returns the rows it checked.
    static func check(_ database: String) throws -> Int {
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", script, database], mergeError: true)
        #expect(result.status == 0, "\(result.output)")
        let checked = result.output.split(separator: "\n").first { $0.hasPrefix("checked ") }
        let rows = checked.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
        let stored = try SQLiteConnection(path: database, create: false).scalar("SELECT count(*) FROM baselines")
        #expect(stored == .integer(Int64(rows)), "\(result.output)")
        return rows
    }

    @Test func theSampleExport() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("sample.sqlite")
        let export = Fixtures.repositoryRoot + "/sample-exports/export.zip"
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        #expect(try Self.check(database) > 500)
    }

    /// A generated year, then the same person's export four months later re-imported over it (only the changed
    /// rows recomputed): both agree with the reference, and the update equals a computation from scratch.
    @Test func aGeneratedYearAndItsUpdate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("year.sqlite")
        let zone = TimeZone(identifier: "Europe/Berlin")
        var options = GeneratorOptions(seed: 7, days: 365, profile: .ios18)
        options.scale = 0.1
        options.includeSideFiles = false
        _ = try ImportJob(inputPath: try GeneratedExport.zip(options).path, databasePath: database, timeZone: zone)
            .run()
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM baselines WHERE z IS NOT NULL").integer ?? 0 > 10_000)
        #expect(try db.scalar("SELECT count(*) FROM baselines WHERE slope_low IS NOT NULL").integer ?? 0 > 10_000)
        let first = try Self.check(database)
        #expect(first > 20_000)

        options.days = 365 + 120
        _ = try ImportJob(inputPath: try GeneratedExport.zip(options).path, databasePath: database, timeZone: zone)
            .run()
        let second = try Self.check(database)
        #expect(second > first * 5 / 4, "\(first) rows, then \(second)")
        let updated = try db.query("SELECT * FROM baselines ORDER BY column_name, date")
        try db.execute("BEGIN")
        try BaselineTable.update(db, only: nil)
        #expect(try db.query("SELECT * FROM baselines ORDER BY column_name, date") == updated)
        try db.execute("ROLLBACK")
    }
}
