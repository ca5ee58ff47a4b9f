import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore

/// Older databases get `baselines` in schema 6's form by their next run, even one that finds the same export
/// and changes nothing else: schema 4 (no baselines) has them computed from its rollups, schema 5 (a table)
/// has its rows moved into `baseline_rows`, row ids included.
struct BaselineUpgradeTests {
    /// A database of 40 generated days and its `baselines`, as this version writes them.
    static func current(in directory: TemporaryDirectory) throws -> (
        export: String, path: String, rows: [[SQLiteValue]]
    ) {
        let export = try GeneratedExport.days(40, seed: 5).path
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        let db = try SQLiteConnection(path: database, create: false)
        let rows = try db.query("SELECT * FROM baselines ORDER BY column_name, date")
        #expect(rows.count > 500)
        return (export, database, rows)
    }

    @Test func aVersion4DatabaseGetsItsBaselines() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (export, database, expected) = try Self.current(in: directory)
        let db = try SQLiteConnection(path: database, create: false)
        try db.execute(
            "DROP VIEW baselines; DROP TABLE baseline_rows; DROP TABLE baseline_metrics; PRAGMA user_version = 4")

        let summary = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        #expect(summary.outcome == "unchanged")
        #expect(try db.scalar("PRAGMA user_version") == .integer(6))
        #expect(try db.query("SELECT * FROM baselines ORDER BY column_name, date") == expected)
    }

    @Test func aVersion5DatabaseKeepsItsRowsInTheCompactTable() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (export, database, expected) = try Self.current(in: directory)
        let db = try SQLiteConnection(path: database, create: false)
        // Schema 5's table, as version 5 created it, holding the same rows with the same rowids (read from the
        // stored table: a view has no rowid of its own), and a metric no longer in the rollups, which must
        // survive the move.
        try db.execute(
            """
            CREATE TABLE version5 AS
                SELECT b.rowid AS row_id, b.date, m.type, m.column_name, b.value, b.n, b.mean, b.sd, b.median, b.mad,
                       b.z, b.n_365, b.percentile_365, b.n_90, b.slope_30d, b.slope_low, b.slope_high
                FROM baseline_rows AS b JOIN baseline_metrics AS m ON m.id = b.metric_id ORDER BY b.rowid;
            DROP VIEW baselines; DROP TABLE baseline_rows; DROP TABLE baseline_metrics;
            CREATE TABLE "baselines" (
                "date" TEXT NOT NULL, "type" TEXT NOT NULL, "column_name" TEXT NOT NULL, "value" REAL,
                "n" INTEGER NOT NULL, "mean" REAL, "sd" REAL, "median" REAL, "mad" REAL, "z" REAL,
                "n_365" INTEGER NOT NULL, "percentile_365" REAL, "n_90" INTEGER NOT NULL, "slope_30d" REAL,
                "slope_low" REAL, "slope_high" REAL, UNIQUE (column_name, date));
            CREATE INDEX baselines_type ON baselines(type, date);
            INSERT INTO baselines (rowid, date, type, column_name, value, n, mean, sd, median, mad, z, n_365,
                percentile_365, n_90, slope_30d, slope_low, slope_high)
            SELECT * FROM version5 ORDER BY row_id;
            INSERT INTO baselines (rowid, date, type, column_name, value, n, n_365, n_90)
                VALUES (9000, '2020-01-01', 'HKQuantityTypeIdentifierOldThing', 'OldThing_avg', 1.5, 0, 1, 1);
            DROP TABLE version5;
            PRAGMA user_version = 5;
            """)
        let rowids = try db.query("SELECT rowid, column_name, date FROM baselines ORDER BY rowid")

        let summary = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        #expect(summary.outcome == "unchanged")
        #expect(try db.scalar("PRAGMA user_version") == .integer(6))
        #expect(try db.scalar("SELECT type FROM sqlite_master WHERE name = 'baselines'") == .text("view"))
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'baselines_type'") == .integer(0))
        let old = try db.query("SELECT * FROM baselines WHERE column_name = 'OldThing_avg'")
        #expect(old.count == 1 && old.first?[3] == .real(1.5))
        #expect(
            try db.query("SELECT * FROM baselines WHERE column_name <> 'OldThing_avg' ORDER BY column_name, date")
                == expected)
        // Every row kept its rowid, and the metrics are numbered in the order they first appear.
        #expect(
            try db.query(
                "SELECT b.rowid, m.column_name, b.date FROM baseline_rows AS b JOIN baseline_metrics AS m "
                    + "ON m.id = b.metric_id ORDER BY b.rowid") == rowids)
        #expect(
            try db.query("SELECT id FROM baseline_metrics ORDER BY id")
                == db.query("SELECT metric_id FROM baseline_rows GROUP BY metric_id ORDER BY min(rowid)"))
    }
}
