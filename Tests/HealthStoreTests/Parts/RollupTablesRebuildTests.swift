import Foundation
import HealthModel
import HealthSQLite
import Testing

@testable import HealthStore

/// `RollupTables.rebuild` on its own, on the importing connection: the whole table from the samples, and a partial
/// rebuild (`only`) that keeps the periods before a type's first change. The parallel pass (`sharedPath`, read-only
/// connections to a committed file) is the import's, checked through whole imports (`RollupTablesTests`).
struct RollupTablesRebuildTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func rows(_ fixture: StoreFixture) throws -> [String] {
        try fixture.connection.query(
            "SELECT period, label, period_start, type, statistic, column_name, value, unit, sources FROM rollups"
        ).map { "\($0)" }.sorted()
    }

    @Test("A full rebuild writes the rows the import wrote, and the days' sums are the samples' sums")
    func fullRebuild() throws {
        let fixture = try StoreFixture(importing: StoreFixture.records)
        let imported = try Self.rows(fixture)
        #expect(!imported.isEmpty)
        try fixture.connection.execute("DELETE FROM rollups")
        let written = try RollupTables.rebuild(fixture.connection, timeZone: Self.berlin, options: RollupOptions())
        #expect(try Self.rows(fixture) == imported)
        #expect(written == imported.count)
        // Steps of 5 and 7 on 1 February and 11 on the 2nd (Berlin days), each from one source.
        func steps(_ day: String) throws -> SQLiteValue {
            try fixture.connection.scalar(
                "SELECT value FROM rollups WHERE period = 'day' AND label = ?1 AND column_name = 'StepCount'",
                [.text(day)])
        }
        #expect(try steps("2024-02-01") == .real(12))
        #expect(try steps("2024-02-02") == .real(11))
        #expect(
            try fixture.integer("SELECT count(*) FROM rollups WHERE type = 'HKQuantityTypeIdentifierHeartRate'")! > 0)
    }

    @Test("A partial rebuild from before a type's first change gives what a full rebuild gives, and keeps the rest")
    func partialRebuild() throws {
        let fixture = try StoreFixture(importing: StoreFixture.records)
        let imported = try Self.rows(fixture)
        let steps = "HKQuantityTypeIdentifierStepCount"
        // A changed sample, as a re-import that replaced it leaves it: 1 February's second step count is now 70.
        try fixture.connection.execute("UPDATE cumulative_rows SET value = 70 WHERE value = 7")
        let change = try #require(Timestamp.parse("2024-02-01 09:00:00 +0100")).seconds
        // From 32 days before the change, as `RunEnd` asks: every day, week and month holding it starts later.
        let refresh = RollupTables.Refresh(table: "cumulative_samples", from: change - 32 * 86_400, lookback: 0)
        try RollupTables.rebuild(
            fixture.connection, timeZone: Self.berlin, options: RollupOptions(), only: [steps: refresh])
        let partial = try Self.rows(fixture)
        #expect(partial != imported)
        #expect(partial.filter { !$0.contains(steps) } == imported.filter { !$0.contains(steps) })
        let day = try fixture.connection.scalar(
            "SELECT value FROM rollups WHERE period = 'day' AND label = '2024-02-01' AND column_name = 'StepCount'"
        )
        #expect(day == .real(75))
        try fixture.connection.execute("DELETE FROM rollups")
        try RollupTables.rebuild(fixture.connection, timeZone: Self.berlin, options: RollupOptions())
        #expect(try Self.rows(fixture) == partial)
    }
}
