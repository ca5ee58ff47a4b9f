import Foundation
import HealthSQLite
import HealthTestSupport
import Testing

@testable import HealthETL

/// A pipeline's `deidentify` output keeps the shared copy current: each run replaces it with the new state.
@Suite struct PipelineOutputTests {
    func run(_ arguments: [String]) -> (code: Int32, err: String) {
        let output = CapturedOutput()
        let tool = Tool(standardOutput: { _ in }, standardError: { output.err += $0 }, errorIsTerminal: false)
        return (tool.run(arguments), output.err)
    }

    @Test func aNightlyRunReplacesTheSharedCopy() throws {
        let folder = TemporaryDirectory("deidentify-pipeline")
        defer { folder.remove() }
        _ = try TestKey.write(in: folder)  // secret.key, which the pipeline names
        let first = try GeneratedExport.days(3, seed: 21).copy(to: folder.file("first.zip"))
        let pipeline = folder.write(
            "nightly.json",
            """
            {"version": 1, "input": {"export": "export.zip"}, "sinks": [{"sqlite": "health.sqlite"},
              {"deidentify": "shared.sqlite", "keyFile": "secret.key", "shiftDates": true,
               "keepUnknownApps": true}]}
            """)
        try FileManager.default.moveItem(atPath: first, toPath: folder.file("export.zip"))
        let firstRun = run(["run", pipeline])
        #expect(firstRun.code == 0, "\(firstRun.err)")
        #expect(firstRun.err.contains("shared.sqlite: de-identified copy written"))
        func counts(_ path: String) throws -> [[SQLiteValue]] {
            try SQLiteConnection(path: path, create: false).query(
                "SELECT (SELECT count(*) FROM cumulative_samples), (SELECT count(*) FROM workouts), "
                    + "(SELECT count(*) FROM sources WHERE name LIKE '%Jonathan%')")
        }
        let firstCounts = try counts(folder.file("shared.sqlite"))
        // The pipeline's field reaches the copy (recorded in it: unknown apps kept instead of pseudonymised).
        let record = try SQLiteConnection(path: folder.file("shared.sqlite"), create: false).scalar(
            "SELECT json_extract(value, '$.unknown_apps') FROM settings WHERE key = 'deidentification'")
        #expect(record == .text("kept"))
        #expect(firstCounts == (try counts(folder.file("health.sqlite"))).map { [$0[0], $0[1], .integer(0)] })
        // The next night's export holds more days: the copy follows.
        try FileManager.default.removeItem(atPath: folder.file("export.zip"))
        _ = try GeneratedExport.days(5, seed: 21).copy(to: folder.file("export.zip"))
        let secondRun = run(["run", pipeline])
        #expect(secondRun.code == 0, "\(secondRun.err)")
        let secondCounts = try counts(folder.file("shared.sqlite"))
        #expect(secondCounts == (try counts(folder.file("health.sqlite"))).map { [$0[0], $0[1], .integer(0)] })
        #expect(secondCounts != firstCounts)
    }

    @Test func aDeidentifyOutputIsCheckedBeforeTheImport() throws {
        let folder = TemporaryDirectory("deidentify-pipeline-errors")
        defer { folder.remove() }
        let pipeline = folder.write(
            "bad.json",
            """
            {"version": 1, "input": {"export": "export.zip"}, "sinks": [{"csv": "out"},
              {"deidentify": "shared.sqlite", "keyFile": "missing.key", "routes": "blur"}]}
            """)
        let outcome = run(["run", pipeline])
        #expect(outcome.code != 0)
        #expect(outcome.err.contains("sinks[1].keyFile"), "\(outcome.err)")
        #expect(outcome.err.contains("not drop or relative"))
        #expect(outcome.err.contains("from the database of a sqlite sink"))
    }
}
