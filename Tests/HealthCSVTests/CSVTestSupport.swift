import Foundation
import HealthTestSupport

@testable import HealthImport
@testable import HealthSQLite
@testable import SampleExports

/// Shared by the CSV tests: a realistic database with hostile text in it, and the independent checker.
enum CSVTestSupport {
    static let checker = Fixtures.repositoryRoot + "/scripts/check-csv-export.py"

    /// A small generated export (written in -03:30, with GPX routes, ECGs, FHIR and the CDA document) imported
    /// into `health.sqlite`, plus rows no generator writes: quotes and line breaks, formulas from a third-party
    /// app, a FHIR resource longer than Excel's cell limit, awkward numbers.
    /// Made once per test process (the export and the import are the slow part); each test gets a copy of its
    /// own, `health.sqlite` in `directory`, so a test that changes it changes only its copy.
    static func makeDatabase(in directory: TemporaryDirectory) throws -> String {
        let database = directory.file("health.sqlite")
        let shared = try sharedDatabase.value("database") { try makeSharedDatabase() }
        try FileManager.default.copyItem(atPath: shared, toPath: database)
        return database
    }

    private static let sharedDatabase = OnceCache<String, String>()

    private static func makeSharedDatabase() throws -> String {
        var options = GeneratorOptions(seed: 7, days: 2, profile: .ios18)
        options.scale = 0.4
        options.exportOffset = "-0330"
        let export = try GeneratedExport.zip(options).path
        let database = TemporaryDirectory.removedAtExit("csv-database").file("health.sqlite")
        _ = try ImportJob(
            inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "America/St_Johns")!
        )
        .run()
        try addRowsNoGeneratorWrites(to: database)
        return database
    }

    /// Its own function, so the connection is closed (and the log checkpointed into the file) before the
    /// database is copied.
    private static func addRowsNoGeneratorWrites(to database: String) throws {
        let db = try SQLiteConnection(path: database, create: false)
        let insert = try db.prepare(
            """
            INSERT INTO metadata_rows (parent_table_id, parent_id, key_id, value)
            VALUES ((SELECT id FROM parent_tables WHERE name = 'workouts'), 1, (SELECT id FROM metadata_keys WHERE key = ?1), ?2)
            """)
        let insertKey = try db.prepare("INSERT OR IGNORE INTO metadata_keys (key) VALUES (?1)")
        let texts: [(String, SQLiteValue)] = [
            ("quoted", .text("He said \"hi\",\r\nthen left")), ("lf", .text("a\nb")), ("cr", .text("a\rb")),
            ("formula", .text("=HYPERLINK(\"http://example.com\",\"Click\")")), ("at", .text("@SUM(A1)")),
            ("dash", .text("-abc")), ("number", .text("-5")), ("empty", .text("")), ("null", .null),
            ("unicode", .text("导出 Jonathan’s ⌚️ 😀")), ("padded", .text("  padded  ")),
            ("looks like an instant", .text("2024-01-01T00:00:00Z")),
        ]
        for (key, value) in texts {
            try insertKey.run([.text(key)])
            try insert.run([.text(key), value])
        }
        try db.execute(
            """
            UPDATE clinical_records SET resource_json = '{"padding":"' || hex(randomblob(20000)) || '"}'
                WHERE id = (SELECT min(id) FROM clinical_records);
            UPDATE discrete_rows SET value = 0.00001 WHERE id = 1;
            UPDATE discrete_rows SET value = 12345678.0 WHERE id = 2;
            UPDATE discrete_rows SET value = 0.1 WHERE id = 3;
            UPDATE discrete_rows SET value = 1e22 WHERE id = 4;
            UPDATE discrete_rows SET value = -0.0 WHERE id = 5;
            INSERT INTO me (key, value) VALUES ('note', 'line one' || char(13, 10) || 'line "two"');
            """)
    }

    static func count(_ db: SQLiteConnection, _ sql: String) throws -> Int {
        guard case .integer(let value) = try db.scalar(sql) else { return -1 }
        return Int(value)
    }
}
