import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore

/// A database of healthetl 0.1 (schema version 1) is upgraded by the next import, keeping its run history.
struct SchemaMigrationTests {
    @Test func aVersion1DatabaseIsUpgradedByTheNextImport() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let dump = try String(
            contentsOfFile: Fixtures.repositoryRoot + "/Tests/Fixtures/schema-v1.sql", encoding: .utf8)
        let old = try SQLiteConnection(path: database)
        try old.execute(dump)
        #expect(try old.scalar("PRAGMA user_version") == .integer(1))
        let oldRuns = try old.query("SELECT input_path, export_date, outcome FROM import_runs")

        let export = directory.write("export.xml", exportXML(SQLiteSinkTests.body))
        let summary = try ImportJob(
            inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")
        )
        .run()
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("PRAGMA user_version") == .integer(Int64(Schema.userVersion)))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        // The data tables were rebuilt and refilled from the export; the history of runs is kept.
        #expect(try db.scalar("SELECT count(*) FROM cumulative_samples") == .integer(2))
        #expect(summary.changeTotals.added == summary.changes.values.reduce(0) { $0 + $1.rows })
        #expect(try db.query("SELECT input_path, export_date, outcome FROM import_runs WHERE id = 1") == oldRuns)
        #expect(try db.scalar("SELECT count(*) FROM import_runs") == .integer(2))
        for table in Schema.tables {
            let columns = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table.name)])
            #expect(columns == table.columnNames.map { [.text($0)] }, "\(table.name)")
        }
        // And it behaves as any current database from then on.
        let again = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        #expect(again.outcome == "unchanged")
    }
}
