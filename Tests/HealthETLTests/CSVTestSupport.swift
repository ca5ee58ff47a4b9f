import Foundation
import Testing
@testable import HealthImport
@testable import HealthSQLite
@testable import SampleExports

/// Shared by the CSV tests: a realistic database with hostile text in it, and running python3 and LibreOffice.
enum CSVTestSupport {
    static let checker = Fixtures.repositoryRoot + "/scripts/check-csv-export.py"

    /// A small generated export (written in -03:30, with GPX routes, ECGs, FHIR and the CDA document) imported
    /// into `health.sqlite`, plus rows no generator writes: quotes and line breaks, formulas from a third-party
    /// app, a FHIR resource longer than Excel's cell limit, awkward numbers.
    static func makeDatabase(in directory: TemporaryDirectory) throws -> String {
        var options = GeneratorOptions(seed: 7, days: 2, profile: .ios18)
        options.scale = 0.4
        options.exportOffset = "-0330"
        let export = directory.file("export.zip")
        _ = try ExportGenerator(options: options).write(to: .zip(export))
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "America/St_Johns")!)
            .run()
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
        return database
    }

    static func count(_ db: SQLiteConnection, _ sql: String) throws -> Int {
        guard case .integer(let value) = try db.scalar(sql) else { return -1 }
        return Int(value)
    }

    /// The first of `names` found on PATH.
    static func executable(_ names: String...) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Runs a program to completion (killed after `timeout` seconds) and returns its exit status and output.
    static func run(_ executable: String, _ arguments: [String], input: String? = nil, timeout: Double = 180) throws
        -> (status: Int32, output: String, error: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Read while the program runs, so a large output cannot fill the pipe and stall it.
        let outputData = LockedData()
        let errorData = LockedData()
        let readers = DispatchGroup()
        for (pipe, sink) in [(output, outputData), (error, errorData)] {
            DispatchQueue.global().async(group: readers) { sink.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            finished.wait()
        }
        readers.wait()
        return (
            process.terminationStatus, String(decoding: outputData.get(), as: UTF8.self),
            String(decoding: errorData.get(), as: UTF8.self)
        )
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}

/// Bytes handed over from a reading thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
