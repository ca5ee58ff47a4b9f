import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// The guarded connection in-process, without a client: what the `sql` tool refuses and what it returns, the time
/// limit, and the database file untouched. (MCPGuardTests repeat the attempts through the real SDK.)
@Suite(
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct GuardTests {
    static func sql(_ context: ToolContext, _ query: String, limit: Int? = nil) throws -> ToolAnswer {
        var arguments: [(String, JSON)] = [("query", .string(query))]
        if let limit { arguments.append(("limit", .integer(Int64(limit)))) }
        return try SQLTool.definition.call(context, try ToolArguments(.object(arguments), allowed: ["query", "limit"]))
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func onlyReadingGetsThrough() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let path = try MCPFixtures.sampleDatabase(in: directory)
        let before = try Self.bytes(path)
        var limits = HealthDatabase.Limits()
        limits.timeout = .milliseconds(200)
        let context = ToolContext(database: try HealthDatabase(path: path, limits: limits))
        for attack in MCPGuardTests.attacks {
            #expect(throws: ToolError.self, "\(attack)") { try Self.sql(context, attack) }
            // The connection still answers, in a transaction of its own.
            #expect(try Self.sql(context, "SELECT count(*) FROM workouts").structured["rows"] == [[16]])
        }
        do {
            _ = try Self.sql(context, MCPGuardTests.attacks.last ?? "")
        } catch let error as ToolError {
            #expect(error.message.contains("time limit of 200 ms"), "\(error.message)")
        }
        #expect(try Self.sql(context, "PRAGMA table_info(workouts)").structured["row_count"] != 0)
        // The schema version healthetl writes.
        #expect(try Self.sql(context, "PRAGMA user_version").structured["rows"] == [[6]])
        let capped = try Self.sql(
            context, "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n", limit: 7)
        #expect(capped.structured["row_count"] == 7 && capped.structured["truncated"] == true)
        let blob = try Self.sql(context, "SELECT samples FROM ecg_recordings LIMIT 1")
        #expect(blob.structured["rows"]?.arrayValue.first?.arrayValue.first?["blob_bytes"] != nil)
        #expect(try Self.bytes(path) == before)
    }

    @Test func argumentsAreCheckedByName() throws {
        #expect(throws: ToolError.argument(name: "strat", reason: "unknown argument; expected one of: start, end")) {
            try ToolArguments(["strat": "2024-01-01"], allowed: ["start", "end"])
        }
        let arguments = try ToolArguments(
            ["start": "2024-02-30", "end": "2024-01-01", "limit": 1.5], allowed: ["start", "end", "limit"])
        #expect(throws: ToolError.self) { try arguments.range(required: true) }
        #expect(throws: ToolError.self) { try arguments.integer("limit", range: 1...10) }
        let reversed = try ToolArguments(["start": "2024-03-02", "end": "2024-03-01"], allowed: ["start", "end"])
        #expect(throws: ToolError.argument(name: "end", reason: "2024-03-01 is before start 2024-03-02")) {
            try reversed.range(required: true)
        }
    }
}
