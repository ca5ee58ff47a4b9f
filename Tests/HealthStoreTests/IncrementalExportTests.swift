import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import SampleExports

/// Re-imports of generated exports: a later export of the same person, and the same file twice.
struct IncrementalExportTests {
    /// The person's export after `days` days; later exports repeat the earlier days exactly (the generator
    /// draws each day from its own random stream) but are written in another offset.
    static func export(days: Int, offset: String = "+0100", into directory: TemporaryDirectory) throws -> String {
        var options = GeneratorOptions(seed: 7, days: days, profile: .ios18)
        options.scale = 0.3
        options.exportOffset = offset
        let path = directory.file("export-\(days)\(offset).zip")
        _ = try GeneratedExport.zip(options).copy(to: path)
        return path
    }

    static func importZip(_ path: String, into database: String, rescan: Bool = false) throws -> ImportSummary {
        var job = ImportJob(inputPath: path, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
        job.rescan = rescan
        return try job.run()
    }

    @Test func theSameZipTwiceIsRecognisedWithoutReadingIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 3, into: directory)
        let database = directory.file("health.sqlite")
        let first = try Self.importZip(export, into: database)
        let before = try dataContent(of: database)
        let second = try Self.importZip(export, into: database)
        #expect(second.outcome == "unchanged")
        #expect(second.xmlBytes == 0)  // not read at all
        let after = try dataContent(of: database)
        let differing = after.keys.filter { after[$0] != before[$0] }.sorted()
        #expect(differing == [])

        // Read again on request: every row is found, none written.
        let rescanned = try Self.importZip(export, into: database, rescan: true)
        #expect(rescanned.outcome == "ok")
        let totals = rescanned.changeTotals
        #expect((totals.added, totals.replaced, totals.deleted) == (0, 0, 0))
        #expect(totals.unchanged == first.changeTotals.added)
        let rescannedContent = try dataContent(of: database)
        #expect(rescannedContent.keys.filter { rescannedContent[$0] != before[$0] }.sorted() == [])
        let db = try SQLiteConnection(path: database, create: false)
        #expect(
            try db.query("SELECT outcome FROM import_runs ORDER BY id")
                == [[.text("ok")], [.text("unchanged")], [.text("ok")]])
    }

    /// The next export has four more days, in summer time. Importing it on top of the first gives exactly
    /// the database a fresh import of it gives (rows compared without ids), and only the new days are added.
    @Test func aLaterExportAddsOnlyTheNewDays() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // 40 days, then 44: long enough that the rollups before the changes are left as they are.
        let earlier = try Self.export(days: 40, into: directory)
        let later = try Self.export(days: 44, offset: "+0200", into: directory)
        let incremental = directory.file("incremental.sqlite")
        let fresh = directory.file("fresh.sqlite")
        let first = try Self.importZip(earlier, into: incremental)
        let update = try Self.importZip(later, into: incremental)
        let full = try Self.importZip(later, into: fresh)

        let totals = update.changeTotals
        #expect(totals.deleted == 0, "\(update.changes.filter { $0.value.deleted > 0 })")
        #expect(totals.unchanged == first.changeTotals.added)
        #expect(totals.added + totals.replaced + totals.unchanged == full.changeTotals.added)
        #expect(totals.added > 0)

        let tables = ["cumulative_samples", "discrete_samples", "category_samples", "workouts", "correlations"]
        let incrementalDB = try SQLiteConnection(path: incremental, create: false)
        let freshDB = try SQLiteConnection(path: fresh, create: false)
        for table in tables {
            let sql =
                "SELECT type_or_activity, start_date, end_date, identity, local_date FROM (SELECT "
                + (table == "workouts" ? "activity_type" : "type")
                + " AS type_or_activity, * FROM \(table)) ORDER BY 1, 2, 4"
            #expect(try incrementalDB.query(sql) == freshDB.query(sql), "\(table)")
        }
        // The rollups, rebuilt only from 32 days before the first change, equal a fresh import's, and fewer
        // rows were written to get there.
        let rollups = "SELECT period, label, type, statistic, value, unit, sources FROM rollups ORDER BY 1, 2, 3, 4"
        #expect(try incrementalDB.query(rollups) == freshDB.query(rollups))
        #expect((update.rows["rollups"] ?? 0) < (full.rows["rollups"] ?? 0))
        #expect((update.rows["rollups"] ?? 0) > 0)
        // Every anchor agrees with a fresh import's.
        let anchors = "SELECT type, row_count, fingerprint FROM anchors ORDER BY type"
        #expect(try incrementalDB.query(anchors) == freshDB.query(anchors))
        #expect(try incrementalDB.scalar("PRAGMA integrity_check") == .text("ok"))
    }
}
