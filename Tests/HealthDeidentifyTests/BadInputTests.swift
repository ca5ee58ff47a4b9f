import Foundation
import HealthSQLite
import HealthTestSupport
import Testing

@testable import HealthETL

/// A missing or short key, a key others can read, an output that exists, the input as output: one line, an exit
/// code, nothing written.
@Suite struct BadInputTests {
    struct Outcome {
        var code: Int32
        var error: String
    }

    func run(_ arguments: [String]) -> Outcome {
        let output = CapturedOutput()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(arguments)
        return Outcome(code: code, error: output.err)
    }

    /// The folder's names after a refused run: only what the test put there.
    func expectRefused(
        _ arguments: [String], in folder: TemporaryDirectory, code: Int32, saying: String, before: Set<String>
    ) throws {
        let outcome = run(arguments)
        #expect(outcome.code == code, "\(outcome.error)")
        #expect(outcome.error.hasPrefix("healthetl: ") && outcome.error.contains(saying), "\(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == before)
    }

    @Test func badKeysAndOutputsAreRefusedWithNothingWritten() throws {
        let planted = try PlantedExport.make()
        let folder = TemporaryDirectory("deidentify-bad-input")
        defer { folder.remove() }
        let database = folder.file("health.sqlite")
        try FileManager.default.copyItem(atPath: planted.database, toPath: database)
        let good = try TestKey.write(in: folder)
        let output = folder.file("shared.sqlite")
        var names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        func deidentify(key: String, out: String = output) -> [String] {
            ["deidentify", "--db", database, "--out", out, "--key-file", key]
        }
        try expectRefused(
            deidentify(key: folder.file("missing.key")), in: folder, code: 64, saying: "cannot read the key file",
            before: names)
        let short = folder.file("short.key")
        _ = FileManager.default.createFile(atPath: short, contents: Data(repeating: 1, count: 31))
        chmod(short, 0o600)
        names.insert("short.key")
        try expectRefused(deidentify(key: short), in: folder, code: 64, saying: "at least 32", before: names)
        let shared = folder.file("shared.key")
        _ = FileManager.default.createFile(atPath: shared, contents: Data(repeating: 1, count: 32))
        chmod(shared, 0o644)
        names.insert("shared.key")
        try expectRefused(deidentify(key: shared), in: folder, code: 64, saying: "read by other users", before: names)
        try expectRefused(
            deidentify(key: good, out: database), in: folder, code: 64, saying: "the input database itself",
            before: names)
        try expectRefused(
            deidentify(key: good, out: folder.path + "/./health.sqlite"), in: folder, code: 64,
            saying: "the input database itself", before: names)
        _ = FileManager.default.createFile(atPath: output, contents: Data("keep me".utf8))
        names.insert("shared.sqlite")
        try expectRefused(deidentify(key: good), in: folder, code: 64, saying: "the output exists", before: names)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        let usage = run([
            "deidentify", "--db", database, "--out", folder.file("x.sqlite"), "--key-file", good, "--routes", "blur",
        ])
        #expect(usage.code == 64 && usage.error.contains("--routes"))
        // --replace is what a nightly run passes.
        #expect(run(deidentify(key: good) + ["--replace", "--quiet"]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(15) == Data("SQLite format 3".utf8))
    }

    @Test func theSameKeyGivesTheSameCopy() throws {
        let planted = try PlantedExport.make()
        let folder = TemporaryDirectory("deidentify-rerun")
        defer { folder.remove() }
        let key = try TestKey.write(in: folder)
        var dumps: [[String]] = []
        for name in ["first.sqlite", "second.sqlite"] {
            #expect(
                run([
                    "deidentify", "--db", planted.database, "--out", folder.file(name), "--key-file", key,
                    "--shift-dates",
                    "--quiet",
                ]).code == 0)
            let connection = try SQLiteConnection(path: folder.file(name), create: false)
            dumps.append(
                try connection.query(
                    "SELECT name FROM sources UNION ALL SELECT sync_identifier FROM sync_identifiers "
                        + "UNION ALL SELECT min(start_date) FROM cumulative_samples UNION ALL SELECT value FROM metadata WHERE key = 'HKExternalUUID'"
                ).map { "\($0[0])" })
        }
        #expect(dumps[0] == dumps[1] && dumps[0].count > 20)
    }
}
