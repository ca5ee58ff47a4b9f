import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite
@testable import SampleExports

/// Read-only by construction, through the real SDK client: every write, attach, extension and runaway attempt is a
/// tool error, the file's bytes stay the same, and the next call is answered; calls during a real
/// `healthetl import` see one committed state or the next; a file renamed over the path is followed.
@Suite(
    .serialized,
    // Without the venv (a developer who did not run scripts/test) these tests are skipped, and reported so.
    .enabled(if: MCPClient.isInstalled, "the MCP Python SDK is not in .build/mcp-venv: run scripts/test once"),
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct MCPGuardTests {
    static let attacks = [
        "INSERT INTO settings (key, value) VALUES ('x', 'y')",
        "DELETE FROM workouts",
        "UPDATE rollups SET value = 0",
        "DROP TABLE workouts",
        "CREATE TEMP TABLE scratch (x)",
        "CREATE TABLE scratch (x)",
        "ATTACH DATABASE '/tmp/healthetl-mcp-attack.sqlite' AS other",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA user_version = 99",
        "PRAGMA writable_schema = ON",
        "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so.0')",
        "VACUUM INTO '/tmp/healthetl-mcp-attack-copy.sqlite'",
        "VACUUM",
        "BEGIN IMMEDIATE",
        "SELECT 1; DELETE FROM workouts",
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n",
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT group_concat(x) FROM n",
    ]

    @Test func writesAttachesExtensionsAndRunawaysAreRefused() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let database = try MCPFixtures.sampleDatabase(in: directory)
        var program: [JSON] = [["hash": true]]
        for attack in Self.attacks {
            program += [
                ["call": "sql", "arguments": ["query": .string(attack)]], ["call": "overview"], ["hash": true],
            ]
        }
        // A huge result is cut, not refused: rows capped, marked truncated.
        program.append([
            "call": "sql",
            "arguments": [
                "query":
                    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x, printf('%.2000c', 'a') FROM n",
                "limit": 2_000,
            ],
        ])
        program += [["call": "overview"], ["hash": true]]
        let started = Date()
        let results = try MCPClient.run(
            database: database, program: program, in: directory,
            serverArguments: ["--timeout-ms", "300", "--max-rows", "2000"])
        let before = try #require(results[1]["sha256"])
        for (index, attack) in Self.attacks.enumerated() {
            let refused = results[2 + index * 3]
            #expect(refused["is_error"] == true, "\(attack) was not refused: \(refused.serialized.prefix(300))")
            let text = refused["text"]?.stringValue ?? ""
            #expect(
                text.contains("Not allowed") || text.contains("not authorized") || text.contains("time limit")
                    || text.contains("one statement"), "\(attack): \(text)")
            if attack.hasPrefix("WITH RECURSIVE") { #expect(text.contains("time limit of 300 ms"), "\(text)") }
            #expect(results[3 + index * 3]["is_error"] == false, "no answer after \(attack)")
            #expect(results[4 + index * 3]["sha256"] == before, "the file changed after \(attack)")
        }
        let huge = try MCPClient.structured(results[2 + Self.attacks.count * 3])
        #expect(huge["truncated"] == true)
        let rows = huge["rows"]?.arrayValue.count ?? 0
        #expect(rows > 0 && rows < 2_000, "\(rows) rows")
        #expect(results[3 + Self.attacks.count * 3]["is_error"] == false)
        #expect(results.last?["sha256"] == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/healthetl-mcp-attack-copy.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/healthetl-mcp-attack.sqlite"))
        print("\(Self.attacks.count) attacks refused in \(Int(Date().timeIntervalSince(started))) s")
    }

    /// Two exports of the same generated person, the later one 60 days longer.
    static func exports(in directory: TemporaryDirectory) throws -> (earlier: String, later: String) {
        var paths: [String] = []
        for days in [20, 80] {
            var options = GeneratorOptions(seed: 5, days: days, profile: .ios18)
            options.scale = 0.5
            let path = directory.file("export-\(days).zip")
            _ = try ExportGenerator(options: options).write(to: .zip(path))
            paths.append(path)
        }
        return (paths[0], paths[1])
    }

    @Test func callsDuringAnImportSeeOneStateThenTheNext() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let (earlier, later) = try Self.exports(in: directory)
        let executable = try #require(Fixtures.healthetl)
        let database = directory.file("health.sqlite")
        try #require(try MCPFixtures.run(executable, ["import", earlier, "--db", database, "--quiet"]).status == 0)
        let series = MCPClient.series("StepCount", "2015-01-01", "2030-12-31", "month")
        let results = try MCPClient.run(
            database: database,
            program: [
                series,
                [
                    "while_running": .array(
                        [executable, "import", later, "--db", database, "--quiet"].map(JSON.string)),
                    "call": series["call"] ?? "", "arguments": series["arguments"] ?? .null,
                ],
            ], in: directory)
        let before = try MCPClient.structured(results[1])["points"]
        let run = results[2]
        #expect(run["exit"] == 0)
        let after = try MCPClient.structured(try #require(run["after"]))["points"]
        #expect(before != after, "the later export changed nothing")
        let during = run["during"]?.arrayValue ?? []
        for answer in during {
            let points = try MCPClient.structured(answer)["points"]
            #expect(points == before || points == after, "a call during the import saw neither state")
        }
        print("calls during the import: \(during.count)")
    }

    @Test func aDatabaseReplacedUnderThePathIsFollowed() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let (earlier, later) = try Self.exports(in: directory)
        let executable = try #require(Fixtures.healthetl)
        let database = directory.file("health.sqlite")
        try #require(try MCPFixtures.run(executable, ["import", earlier, "--db", database, "--quiet"]).status == 0)
        let replacement = directory.file("replacement.sqlite")
        try #require(try MCPFixtures.run(executable, ["import", later, "--db", replacement, "--quiet"]).status == 0)
        let results = try MCPClient.run(
            database: database,
            program: [
                ["call": "overview"],
                // A restore: another database renamed over the path (new inode).
                ["run": .array(["/bin/mv", replacement, database].map(JSON.string))],
                ["call": "overview"],
                // A first import: the path is empty, then a new file appears there.
                ["run": .array(["/bin/rm", "-f", database].map(JSON.string))],
                ["call": "overview"],
                ["run": .array([executable, "import", earlier, "--db", database, "--quiet"].map(JSON.string))],
                ["call": "overview"],
            ], in: directory)
        let first = try MCPClient.structured(results[1])
        let replaced = try MCPClient.structured(results[3])
        #expect(results[2]["exit"] == 0)
        #expect(first["last_day"] != replaced["last_day"])
        #expect(replaced["workout_count"] != first["workout_count"])
        let gone = results[5]
        #expect(gone["is_error"] == true && gone["text"]?.stringValue?.contains("not there") == true, "\(gone)")
        #expect(results[6]["exit"] == 0)
        let reimported = try MCPClient.structured(results[7])
        #expect(reimported["last_day"] == first["last_day"])
    }
}
