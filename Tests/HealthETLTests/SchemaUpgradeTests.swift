import Foundation
import Testing
@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// A database of schema version 3, as healthetl wrote it before schema 4, holding the rows of a current one:
/// the tables of `Tests/Fixtures/schema-v3.sql` (the DDL of version 3, taken from a database it wrote) filled
/// from the public tables and views of `database`.
func makeVersion3Database(from database: String, at path: String) throws {
    let ddl = try String(contentsOfFile: Fixtures.repositoryRoot + "/Tests/Fixtures/schema-v3.sql", encoding: .utf8)
    let old = try SQLiteConnection(path: path)
    try old.execute(ddl)
    try old.execute("ATTACH '\(database)' AS current")
    for row in try old.query("SELECT name FROM main.sqlite_master WHERE type = 'table'") {
        guard let table = row[0].text else { continue }
        let columns = try old.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].text }
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        try old.execute("INSERT INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM current.\"\(table)\"")
    }
    try old.execute("DETACH current")
    try old.execute("PRAGMA user_version = 3")
}

/// Schema 3 → 4: the run that finds a version-3 database moves its six large tables into the compact ones in
/// its own transaction, so the rows through the views are those of before, and a run killed or failed at any
/// moment leaves version 3 exactly as it was.
struct SchemaUpgradeTests {
    static func export(days: Int, seed: UInt64, into directory: TemporaryDirectory) throws -> String {
        var options = GeneratorOptions(seed: seed, days: days, profile: .ios18)
        options.scale = 0.5
        let path = directory.file("export-\(seed)-\(days).zip")
        _ = try ExportGenerator(options: options).write(to: .zip(path))
        return path
    }

    /// Every row of every public table and view, ordered by every column.
    static func publicContent(_ database: String) throws -> [String: [[SQLiteValue]]] {
        let db = try SQLiteConnection(path: database, create: false)
        var content: [String: [[SQLiteValue]]] = [:]
        for table in Schema.publicTables where !["import_runs", "import_warnings", "import_run_changes"].contains(table.name) {
            let order = (1...table.columns.count).map(String.init).joined(separator: ", ")
            let columns = table.columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
            content[table.name] = try db.query("SELECT \(columns) FROM \"\(table.name)\" ORDER BY \(order)")
        }
        return content
    }

    @Test func anUpgradedDatabaseShowsTheSameRowsAndBehavesAsANewOne() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 5, seed: 31, into: directory)
        let current = directory.file("current.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: current, timeZone: TimeZone(identifier: "Europe/Berlin")).run()
        let old = directory.file("old.sqlite")
        try makeVersion3Database(from: current, at: old)
        let v3 = try SQLiteConnection(path: old, create: false)
        #expect(try v3.scalar("SELECT count(*) FROM cumulative_samples") == .integer(
            try SQLiteConnection(path: current, create: false).scalar("SELECT count(*) FROM cumulative_samples").integer!))

        // The same export again: nothing changes but the schema (the zip is read: the fingerprint shortcut would
        // leave the upgrade to the next export).
        var job = ImportJob(inputPath: export, databasePath: old, timeZone: nil)
        job.rescan = true
        let summary = try job.run()
        #expect(summary.outcome == "ok")
        #expect(summary.changeTotals.added == 0 && summary.changeTotals.deleted == 0)
        let db = try SQLiteConnection(path: old, create: false)
        #expect(try db.scalar("PRAGMA user_version") == .integer(4))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        let expected = try Self.publicContent(current)
        let upgraded = try Self.publicContent(old)
        for (table, rows) in expected {
            #expect(upgraded[table] == rows, "\(table)")
        }
        for table in Schema.tables {
            let columns = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table.name)])
            #expect(columns == table.columnNames.map { [.text($0)] }, "\(table.name)")
        }
        // The old tables' pages were given back.
        #expect(try db.scalar("PRAGMA freelist_count") == .integer(0))
        // A later export goes in as into a database that was always version 4.
        let later = try Self.export(days: 7, seed: 31, into: directory)
        _ = try ImportJob(inputPath: later, databasePath: old, timeZone: nil).run()
        _ = try ImportJob(inputPath: later, databasePath: current, timeZone: nil).run()
        // (Anchors name the run that last changed a type, and the upgraded database has one run more.)
        let anchors = "SELECT type, row_table, row_count, newest_end_date, newest_creation_date, fingerprint, export_date FROM anchors ORDER BY type"
        let afterUpgraded = try Self.publicContent(old)
        for (table, rows) in try Self.publicContent(current) where table != "anchors" {
            #expect(afterUpgraded[table] == rows, "\(table) after the next export")
        }
        #expect(
            try SQLiteConnection(path: old, create: false).query(anchors)
                == SQLiteConnection(path: current, create: false).query(anchors))
    }

    /// A run that fails after the upgrade began (an export older than the database's) rolls the upgrade back.
    @Test func aFailedRunLeavesVersion3AsItWas() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let earlier = try Self.export(days: 3, seed: 32, into: directory)
        let later = try Self.export(days: 4, seed: 32, into: directory)
        let current = directory.file("current.sqlite")
        _ = try ImportJob(inputPath: later, databasePath: current, timeZone: TimeZone(identifier: "Europe/Berlin")).run()
        let old = directory.file("old.sqlite")
        try makeVersion3Database(from: current, at: old)
        let before = try Data(contentsOf: URL(fileURLWithPath: old))
        #expect(throws: ImportError.self) {
            _ = try ImportJob(inputPath: earlier, databasePath: old, timeZone: nil).run()
        }
        let db = try SQLiteConnection(path: old, create: false)
        #expect(try db.scalar("PRAGMA user_version") == .integer(3))
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'cumulative_rows'") == .integer(0))
        // The failed run is recorded; the data is the same bytes' worth of rows as before.
        #expect(try db.scalar("SELECT outcome FROM import_runs ORDER BY id DESC LIMIT 1") == .text("refused"))
        _ = before
    }

    @Test(.enabled(if: CrashSafetyTests.executable != nil, "the healthetl executable is built next to the tests"))
    func anUpgradeKilledAtAnyMomentLeavesVersion3OrVersion4Complete() throws {
        // swift-format-ignore: NeverForceUnwrap
        let executable = CrashSafetyTests.executable!
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 30, seed: 33, into: directory)
        let current = directory.file("current.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: current, timeZone: TimeZone(identifier: "Europe/Berlin")).run()
        let expected = try Self.publicContent(current)
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
                #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'cumulative_rows'") == .integer(0))
                let copy = directory.file("compare-\(round).sqlite")
                try db.execute("VACUUM INTO '\(copy)'")
                let reference = directory.file("reference-\(round).sqlite")
                try baseBytes.write(to: URL(fileURLWithPath: reference))
                try #expect(dataRows(copy) == dataRows(reference))
            case .integer(4):
                outcomes.new += 1
                let upgraded = try Self.publicContent(database)
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
