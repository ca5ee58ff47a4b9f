import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// The run that upgrades a schema 3 database, killed with SIGKILL at random moments: the database is version 3
/// exactly as it was, or the current version complete, and the next run completes.
struct SchemaUpgradeCrashTests {
    /// The generator's export of `days` days (seed `seed`), copied into `directory`.
    static func export(days: Int, seed: UInt64, into directory: TemporaryDirectory) throws -> String {
        try GeneratedExport.days(days, seed: seed).copy(to: directory.file("export-\(seed)-\(days).zip"))
    }

    @Test(.needsHealthetlExecutable)
    func anUpgradeKilledAtAnyMomentLeavesVersion3OrVersion4Complete() throws {
        let executable = try #require(Fixtures.healthetl)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try SchemaUpgradeCrashTests.export(days: 30, seed: 33, into: directory)
        let current = directory.file("current.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: current, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        let expected = try publicContent(of: current)
        let base = directory.file("base-v3.sqlite")
        try makeVersion3Database(from: current, at: base)
        let baseBytes = try Data(contentsOf: URL(fileURLWithPath: base))

        // How long an uninterrupted upgrading run takes, so the kills spread over all of it.
        let timing = directory.file("timing.sqlite")
        try FileManager.default.copyItem(atPath: base, toPath: timing)
        let clock = ContinuousClock()
        let started = clock.now
        let full = try CrashSafetyTests.importKilled(executable, export: export, database: timing, after: 120)
        #expect(full == (true, 0))
        let elapsed = clock.now - started
        let duration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        var random = SampleExports.SeededRandom(seed: 7, stream: "upgrade-kill-times")
        var outcomes = (old: 0, new: 0)
        for round in 0..<8 {
            let database = directory.file("killed-\(round).sqlite")
            try FileManager.default.copyItem(atPath: base, toPath: database)
            let delay = 0.05 + duration * Double(random.next() % 1000) / 1000
            _ = try CrashSafetyTests.importKilled(executable, export: export, database: database, after: delay)
            let db = try SQLiteConnection(path: database, create: false)
            #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
            switch try db.scalar("PRAGMA user_version") {
            case .integer(3):
                // As it was: every row of version 3 (the log of the killed run is rolled back on open).
                outcomes.old += 1
                #expect(
                    try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'cumulative_rows'") == .integer(0))
                let copy = directory.file("compare-\(round).sqlite")
                try db.execute("VACUUM INTO '\(copy)'")
                let reference = directory.file("reference-\(round).sqlite")
                try baseBytes.write(to: URL(fileURLWithPath: reference))
                try #expect(dataRows(copy) == dataRows(reference))
            case .integer(let version) where version == Int64(Schema.userVersion):
                outcomes.new += 1
                let upgraded = try publicContent(of: database)
                for (table, rows) in expected { #expect(upgraded[table] == rows, "\(table), round \(round)") }
            default:
                Issue.record("user_version \(String(describing: try db.scalar("PRAGMA user_version")))")
            }
            // Whatever the kill left, the next run completes.
            let next = try CrashSafetyTests.importKilled(executable, export: export, database: database, after: 120)
            #expect(next == (true, 0))
        }
        #expect(outcomes.old + outcomes.new == 8)
    }

    /// The rows of every table of a version-3 database, ordered by every column.
    private func dataRows(_ path: String) throws -> [String: [[SQLiteValue]]] {
        let db = try SQLiteConnection(path: path, create: false)
        var content: [String: [[SQLiteValue]]] = [:]
        for row in try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'import_%'") {
            guard let table = row[0].text else { continue }
            let count = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).count
            let order = (1...count).map(String.init).joined(separator: ", ")
            content[table] = try db.query("SELECT * FROM \"\(table)\" ORDER BY \(order)")
        }
        return content
    }
}
