import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// Schema 3 → 4: the run that finds a version-3 database moves its six large tables into the compact ones in
/// its own transaction, so the rows through the views are those of before, and a run killed or failed at any
/// moment leaves version 3 exactly as it was.
struct SchemaUpgradeTests {
    /// The generator's export of `days` days (seed `seed`), copied into `directory`.
    static func export(days: Int, seed: UInt64, into directory: TemporaryDirectory) throws -> String {
        try GeneratedExport.days(days, seed: seed).copy(to: directory.file("export-\(seed)-\(days).zip"))
    }

    @Test func anUpgradedDatabaseShowsTheSameRowsAndBehavesAsANewOne() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 5, seed: 31, into: directory)
        let current = directory.file("current.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: current, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        let old = directory.file("old.sqlite")
        try makeVersion3Database(from: current, at: old)
        let v3 = try SQLiteConnection(path: old, create: false)
        #expect(
            try v3.scalar("SELECT count(*) FROM cumulative_samples")
                == .integer(
                    try SQLiteConnection(path: current, create: false).scalar("SELECT count(*) FROM cumulative_samples")
                        .integer!))

        // The same export again: nothing changes but the schema (the zip is read: the fingerprint shortcut would
        // leave the upgrade to the next export).
        var job = ImportJob(inputPath: export, databasePath: old, timeZone: nil)
        job.rescan = true
        let summary = try job.run()
        #expect(summary.outcome == "ok")
        #expect(summary.changeTotals.added == 0 && summary.changeTotals.deleted == 0)
        let db = try SQLiteConnection(path: old, create: false)
        #expect(try db.scalar("PRAGMA user_version") == .integer(Int64(Schema.userVersion)))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        let expected = try publicContent(of: current)
        let upgraded = try publicContent(of: old)
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
        let anchors =
            "SELECT type, row_table, row_count, newest_end_date, newest_creation_date, fingerprint, export_date FROM anchors ORDER BY type"
        let afterUpgraded = try publicContent(of: old)
        for (table, rows) in try publicContent(of: current) where table != "anchors" {
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
        _ = try ImportJob(inputPath: later, databasePath: current, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        let old = directory.file("old.sqlite")
        try makeVersion3Database(from: current, at: old)
        let before = try Self.version3Rows(old)
        #expect(throws: ImportError.self) {
            _ = try ImportJob(inputPath: earlier, databasePath: old, timeZone: nil).run()
        }
        let db = try SQLiteConnection(path: old, create: false)
        #expect(try db.scalar("PRAGMA user_version") == .integer(3))
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'cumulative_rows'") == .integer(0))
        // The failed run is recorded; every other row is as before.
        #expect(try db.scalar("SELECT outcome FROM import_runs ORDER BY id DESC LIMIT 1") == .text("refused"))
        #expect(try Self.version3Rows(old) == before)
    }

    /// The rows of every table of a version-3 database but the run history, ordered by every column.
    static func version3Rows(_ path: String) throws -> [String: [[SQLiteValue]]] {
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
