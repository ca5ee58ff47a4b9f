import Foundation
import HealthTestSupport
import Testing

@testable import HealthCSV
@testable import HealthETL
@testable import HealthSQLite

/// Every example in pipelines/ run with `healthetl run`, in a copy of the repository's layout (the examples'
/// relative paths resolve against their own folder, so nothing is written into the checkout).
struct PipelineRunTests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let output = ToolTests.Output()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        return (tool.run(arguments), output.out, output.err)
    }

    /// `<tmp>/pipelines/<name>` and `<tmp>/sample-exports/export.zip`, as in the repository.
    static func layout(_ name: String, in directory: TemporaryDirectory, edit: (String) -> String = { $0 }) throws
        -> String
    {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory.file("pipelines"), withIntermediateDirectories: true)
        try manager.createDirectory(atPath: directory.file("sample-exports"), withIntermediateDirectories: true)
        if !manager.fileExists(atPath: directory.file("sample-exports/export.zip")) {
            try manager.copyItem(
                atPath: Fixtures.repositoryRoot + "/sample-exports/export.zip",
                toPath: directory.file("sample-exports/export.zip"))
        }
        let text = try String(contentsOfFile: Fixtures.repositoryRoot + "/pipelines/" + name, encoding: .utf8)
        return directory.write("pipelines/" + name, edit(text))
    }

    @Test func fullSQLiteImportsEverythingAndThenNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let pipeline = try Self.layout("full-sqlite.json", in: directory)
        let first = run(["run", pipeline, "--json"])
        #expect(first.code == 0, "\(first.err)")
        let db = try SQLiteConnection(path: directory.file("health.sqlite"), create: false)
        #expect((try db.scalar("SELECT count(*) FROM cumulative_samples").integer ?? 0) > 1000)
        #expect(try db.scalar("SELECT count(DISTINCT period) FROM rollups") == .integer(3))
        #expect(try db.scalar("SELECT value FROM settings WHERE key = 'time_zone'") == .text("Europe/Berlin"))
        let second = run(["run", pipeline, "--json"])
        #expect(second.code == 0)
        #expect(try jsonObject(second.out)["outcome"] as? String == "unchanged")
    }

    @Test func spreadsheetWritesOnlyTheExcelDailyFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let pipeline = try Self.layout("spreadsheet.json", in: directory)
        let result = run(["run", pipeline, "--quiet"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.file("out-spreadsheet")).sorted()
        #expect(files == DailyCSV.fileNames.sorted())
        let daily = try Data(contentsOf: URL(fileURLWithPath: directory.file("out-spreadsheet/daily.csv")))
        #expect(Array(daily.prefix(3)) == [0xEF, 0xBB, 0xBF])
        // No database is kept beside it.
        #expect(!FileManager.default.fileExists(atPath: directory.file("health.sqlite")))
    }

    @Test func nightlyIncrementalTakesTheNewestExportOfTheDropFolder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let drop = directory.file("HealthDrop")
        try FileManager.default.createDirectory(atPath: drop, withIntermediateDirectories: true)
        let pipeline = try Self.layout("nightly-incremental.json", in: directory) {
            $0.replacingOccurrences(of: "~/HealthDrop", with: drop)
        }
        // No export yet: a clear error naming the pattern, exit 78, nothing written.
        let empty = run(["run", pipeline])
        #expect(empty.code == 78)
        #expect(empty.err.contains("input.export: no export matches"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("health.sqlite")))

        let older = drop + "/export-old.zip"
        let newer = drop + "/export-new.zip"
        try FileManager.default.copyItem(atPath: directory.file("sample-exports/export.zip"), toPath: older)
        try FileManager.default.copyItem(atPath: directory.file("sample-exports/export.zip"), toPath: newer)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: older)
        let dry = run(["run", pipeline, "--dry-run"])
        #expect(dry.code == 0)
        #expect(dry.out.contains(newer))
        #expect(dry.out.contains("nothing was read or written"))
        #expect(dry.out.contains("  report: \(directory.file("health-report.html")) (the last 365 days; "))
        #expect(!FileManager.default.fileExists(atPath: directory.file("health.sqlite")))

        let result = run(["run", pipeline, "--json"])
        #expect(result.code == 0, "\(result.err)")
        #expect(try jsonObject(result.out)["input"] as? String == newer)
        #expect(FileManager.default.fileExists(atPath: directory.file("out-rollups/daily.csv")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("out-rollups/workouts.csv")))
        // The report is refreshed from the database the run wrote, owner-only.
        let report = try String(contentsOfFile: directory.file("health-report.html"), encoding: .utf8)
        let lastDay =
            try SQLiteConnection(path: directory.file("health.sqlite"), create: false)
            .scalar("SELECT max(date) FROM daily_rollups").text ?? "?"
        #expect(report.contains("data-last-day=\"\(lastDay)\""))
        var info = stat()
        #expect(stat(directory.file("health-report.html"), &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func researchSubsetKeepsThreeTypesOfOneWeekAndDeletesNothingOutsideIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let pipeline = try Self.layout("research-subset.json", in: directory)
        // The database already holds the whole export; the filtered run must not read the rest as deleted.
        let full = run([
            "import", directory.file("sample-exports/export.zip"), "--db", directory.file("research.sqlite"),
            "--quiet", "--timezone", "Europe/Berlin",
        ])
        #expect(full.code == 0)
        let result = run(["run", pipeline, "--json", "--rescan"])
        #expect(result.code == 64)  // --rescan is an import flag, not a run flag
        let filtered = run(["run", pipeline, "--json"])
        #expect(filtered.code == 0, "\(filtered.err)")
        let summary = try jsonObject(filtered.out)
        let stages = summary["stages"] as? [String: [String: Int]]
        #expect((stages?["filter"]?.values.first ?? 0) > 0)
        let db = try SQLiteConnection(path: directory.file("research.sqlite"), create: false)
        #expect(try db.scalar("SELECT count(*) FROM deleted_samples") == .integer(0))
        #expect((try db.scalar("SELECT count(*) FROM rollups WHERE period = 'hour'").integer ?? 0) > 0)

        // Into a new database: only the three types, only that week (in Berlin).
        try FileManager.default.removeItem(atPath: directory.file("research.sqlite"))
        #expect(run(["run", pipeline, "--quiet"]).code == 0)
        let subset = try SQLiteConnection(path: directory.file("research.sqlite"), create: false)
        let types = try subset.query(
            "SELECT DISTINCT type FROM (SELECT type FROM cumulative_samples UNION ALL SELECT type FROM discrete_samples "
                + "UNION ALL SELECT type FROM category_samples) ORDER BY type")
        #expect(
            types == [
                [.text("HKCategoryTypeIdentifierSleepAnalysis")], [.text("HKQuantityTypeIdentifierHeartRate")],
                [.text("HKQuantityTypeIdentifierStepCount")],
            ])
        #expect(
            try subset.scalar(
                "SELECT min(start_date) >= '2024-03-24T23:00:00Z' AND max(start_date) < '2024-03-31T22:00:00Z' FROM cumulative_samples"
            )
                == .integer(1))
        #expect(try subset.scalar("SELECT count(*) FROM workouts") == .integer(0))
        #expect(FileManager.default.fileExists(atPath: directory.file("out-research/daily.csv")))
    }

    @Test func anInvalidPipelineRunsNothingAndNamesEveryProblem() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let pipeline = directory.write(
            "bad.json",
            """
            {"version": 1, "input": {"export": "x.zip"}, "stages": [{"stage": "units"}, {"stage": "rollups", "priority": {"default": ["watch", "garmin"]}}],
             "sinks": [{"sqlite": "db.sqlite", "wait": -1}], "extra": true}
            """)
        let result = run(["run", pipeline])
        #expect(result.code == 78)
        #expect(result.err.contains("stages[1].priority.default[1]"))
        #expect(result.err.contains("sinks[0].wait"))
        #expect(result.err.contains("extra"))
        #expect(result.err.split(separator: "\n").allSatisfy { $0.hasPrefix("healthetl: ") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.json"])
    }

    /// A pipeline file that is not JSON, or repeats a key: one line with the file, line and column (as the
    /// feed's errors), the bad-configuration exit, nothing written.
    @Test(arguments: [
        ("{\n  \"version\": 1,\n  \"input\" {\"export\": \"x.zip\"}}", "3:11: invalid JSON: expected ':'"),
        ("{\"version\": 1,\n \"version\": 1}", "2:2: invalid JSON: duplicate key 'version'"),
    ])
    func aPipelineThatIsNotJSONIsOneLineWithItsPlace(text: String, expected: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let pipeline = directory.write("bad.json", text)
        let result = run(["run", pipeline])
        #expect(result.code == 78)
        #expect(result.err == "healthetl: \(pipeline):\(expected)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.json"])
    }
}
