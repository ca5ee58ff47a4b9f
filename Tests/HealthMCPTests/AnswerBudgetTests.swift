import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite
@testable import SampleExports

/// Issue 43: every answer within the budget, through the official SDK, on ten generated years. The widest
/// arguments each tool accepts stay under the hard cap at the largest budget and are coarsened or paged, saying
/// why, at the default one (EverydayQuestionsTests: questions a person asks, in at most 8,000 bytes).
@Suite(
    .serialized,
    .enabled(if: MCPClient.isInstalled, "the MCP Python SDK is not in .build/mcp-venv: run scripts/test once"),
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct AnswerBudgetTests {
    /// 2015-01-01 … 2024-12-31 at a low density (the number of days, not of readings, sizes the answers), without
    /// side files, imported once per test process for both suites (about a minute in a debug build); read-only.
    static func tenYears() throws -> String {
        try databases.value("ten years") {
            var options = GeneratorOptions(seed: 7, days: 3_653, profile: .ios18)
            options.startDate = Date(timeIntervalSince1970: 1_420_070_400)
            options.scale = 0.01
            options.includeSideFiles = false
            let export = try GeneratedExport.zip(options)
            let database = folder + "/health.sqlite"
            let result = try MCPFixtures.run(
                try #require(Fixtures.healthetl),
                ["import", export.path, "--db", database, "--timezone", "Europe/Berlin", "--quiet"])
            try #require(result.status == 0, "\(result.errors)")
            return database
        }
    }

    private static let databases = OnceCache<String, String>()
    private static let folder = TemporaryDirectory.removedAtExit("healthetl-mcp-budget-db").path

    /// Bytes of an answer as the server's budget counts them: the text and the structured content.
    static func size(_ result: JSON) -> Int {
        (result["text"]?.stringValue?.utf8.count ?? 0) + (result["structured"]?.serialized.utf8.count ?? 0)
    }

    static func call(_ name: String, _ arguments: [(String, JSON)]) -> JSON {
        ["call": .string(name), "arguments": .object(arguments)]
    }

    /// The first and last days a date argument accepts (YYYY-MM-DD, years 1000–9999).
    static let wide = "1000-01-01"
    static let far = "9999-12-31"

    /// Each tool with the widest arguments it accepts.
    static let widest: [JSON] = [
        call("overview", []), call("list_metrics", []),
        call(
            "metric_series", [("metric", "Steps"), ("start", .string(wide)), ("end", .string(far)), ("period", "day")]),
        call(
            "metric_series",
            [("metric", "HeartRate"), ("start", .string(wide)), ("end", .string(far)), ("period", "day")]),
        call("sleep_nights", [("start", .string(wide)), ("end", .string(far))]),
        call("workouts", [("limit", 1000)]),
        call("workout_detail", [("id", 1), ("route_points", 1000)]),
        call(
            "samples",
            [("metric", "HeartRate"), ("start", .string(wide)), ("end", .string(far)), ("limit", 1000)]),
        call("sql", [("query", "SELECT * FROM cumulative_samples"), ("limit", 1000)]),
        call(
            "baseline",
            [
                (
                    "metrics",
                    [
                        "RestingHeartRate", "HRV", "Steps", "HeartRate", "VO2Max", "BodyMass", "ActiveEnergyBurned",
                        "RespiratoryRate", "FlightsClimbed", "AppleExerciseTime",
                    ]
                ), ("start", .string(wide)), ("end", .string(far)),
            ]),
        call(
            "compare",
            [
                ("metric", "Steps"), ("first_start", .string(wide)), ("first_end", .string(far)),
                ("second_start", "2020-01-01"), ("second_end", "2024-12-31"),
            ]),
        call(
            "correlate",
            [
                ("x", "Steps"), ("y", "RestingHeartRate"), ("start", .string(wide)), ("end", .string(far)),
                ("lag_days", 60),
            ]
        ),
        call("unusual", [("min_signals", 2)]),
        // The edges of the calendar: ranges whose days, or whose lagged days, leave years 1000–9999.
        call(
            "correlate",
            [
                ("x", "Steps"), ("y", "HeartRate"), ("start", .string(wide)), ("end", .string(far)),
                ("lag_days", -60),
            ]),
        call(
            "correlate",
            [
                ("x", "Steps"), ("y", "HeartRate"), ("start", "9989-12-29"), ("end", "9999-12-31"),
                ("lag_days", 60),
            ]),
        call(
            "correlate",
            [
                ("x", "Steps"), ("y", "HeartRate"), ("start", .string(wide)), ("end", "1010-01-03"),
                ("lag_days", -60),
            ]),
        call(
            "compare",
            [
                ("metric", "Steps"), ("first_start", .string(wide)), ("first_end", "1010-01-03"),
                ("second_start", "9989-12-29"), ("second_end", .string(far)),
            ]),
        call("baseline", [("metrics", ["Steps"]), ("start", "9999-12-31")]),
        call("sleep_nights", [("start", .string(far)), ("end", .string(far))]),
        call("samples", [("metric", "HeartRate"), ("start", .string(far)), ("end", .string(far))]),
        call("workouts", [("start", .string(far)), ("end", .string(far))]),
        call("unusual", [("start", .string(wide)), ("end", .string(far)), ("min_signals", 2)]),
        call(
            "metric_series", [("metric", "Steps"), ("start", .string(far)), ("end", .string(far)), ("period", "week")]),
        call(
            "metric_series", [("metric", "Steps"), ("start", .string(wide)), ("end", .string(far)), ("period", "year")]),
    ]

    @Test func theWidestCallsStayUnderTheCapAndSayWhyTheyAreCoarser() throws {
        let directory = TemporaryDirectory("healthetl-mcp-budget")
        defer { directory.remove() }
        let database = try Self.tenYears()
        let largest = try MCPClient.run(
            database: database, program: Self.widest, in: directory,
            serverArguments: ["--answer-budget", "\(AnswerBudget.hardCap)"])
        let standard = try MCPClient.run(database: database, program: Self.widest, in: directory)
        for (index, call) in Self.widest.enumerated() {
            let name = call["call"]?.stringValue ?? ""
            for (results, budget) in [(largest, AnswerBudget.hardCap), (standard, AnswerBudget.defaultBytes)] {
                let result = results[index + 1]
                #expect(result["is_error"] == false, "\(name): \(result.serialized.prefix(300))")
                let size = Self.size(result)
                #expect(size <= budget, "\(name) at \(budget): \(size) bytes")
                let structured = result["structured"] ?? .null
                // Whatever is coarser or shorter than asked says so: a continuation and a hint.
                let coarser =
                    structured["period_used"] != nil && structured["period_used"] != structured["period"]
                    && structured["period_used"] != "night"
                let continued = ["next_cursor", "next_start", "next_end"].contains {
                    structured[$0]?.stringValue != nil
                }
                if coarser || continued || structured["truncated"] == true {
                    #expect(structured["hint"]?.stringValue?.isEmpty == false, "\(name) at \(budget) says no reason")
                }
                // An answer that needs more than the default budget comes coarser or paged at it, never cut silently.
                if budget == AnswerBudget.defaultBytes, Self.size(largest[index + 1]) > budget {
                    #expect(coarser || continued || structured["truncated"] == true, "\(name): cut without saying so")
                }
                print(
                    "budget \(budget): \(name) \(size) bytes" + (coarser ? ", coarser" : "")
                        + (continued ? ", paged" : ""))
            }
        }
        // What the default budget cannot hold comes coarser or paged, and says so.
        func structured(_ index: Int) throws -> JSON { try MCPClient.structured(standard[index + 1]) }
        #expect(
            try structured(2)["period_used"] != "day" && structured(2)["hint"]?.stringValue?.contains("budget") == true)
        #expect(try structured(4)["period_used"] != "night")
        #expect(try structured(5)["next_cursor"]?.stringValue != nil)
        #expect(try structured(7)["next_cursor"]?.stringValue != nil)
        #expect(try structured(8)["next_cursor"]?.stringValue != nil)
        // The summary is of every day, whatever the points' period: ten years of steps.
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        let stepDays = try db.scalar(
            "SELECT count(*) FROM rollups WHERE period = 'day' AND type = 'HKQuantityTypeIdentifierStepCount' AND statistic = 'sum'"
        )
        #expect(try structured(2)["summary"]?["count"]?.integerValue == stepDays.integer)
        // compare and correlate over every date there is: all the days with data, no refusal for the length.
        #expect(try structured(10)["first"]?["days_with_data"]?.integerValue == stepDays.integer)
        let (n11, n13) = (try structured(11)["n"]?.integerValue ?? 0, try structured(13)["n"]?.integerValue ?? 0)
        #expect(n11 > 1_000 && n13 > 1_000, "correlate over every date: n \(n11) and \(n13)")
        // A page of sql continues where the first stopped.
        let cursor = try #require(try structured(8)["next_cursor"]?.stringValue)
        let shown = try structured(8)["rows"]?.arrayValue.count ?? 0
        let next = try MCPClient.run(
            database: database,
            program: [
                Self.call(
                    "sql",
                    [
                        ("query", "SELECT id FROM cumulative_samples ORDER BY id"), ("limit", 1000),
                        ("cursor", .string(cursor)),
                    ])
            ], in: directory)
        #expect(
            try MCPClient.structured(next[1])["rows"]?.arrayValue.first?.arrayValue.first?.integerValue
                == Int64(shown + 1))
    }

    @Test func aRouteLineIsThinnedToTheBudgetAndSaysSo() throws {
        let directory = TemporaryDirectory("healthetl-mcp-budget")
        defer { directory.remove() }
        let database = try MCPFixtures.sampleDatabase(in: directory)
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        let row = try #require(
            try db.query("SELECT workout_id, route_points FROM workout_overview ORDER BY route_points DESC LIMIT 1")
                .first)
        let asked = min(Int(row[1].integer ?? 0), 1_000)
        try #require(asked > 100, "the sample export has a route")
        let results = try MCPClient.run(
            database: database,
            program: [
                Self.call(
                    "workout_detail", [("id", .integer(row[0].integer ?? 0)), ("route_points", .integer(Int64(asked)))])
            ], in: directory, serverArguments: ["--answer-budget", "\(AnswerBudget.smallestBytes)"])
        let detail = try MCPClient.structured(results[1])
        let used = try #require(detail["route_points_used"]?.integerValue)
        #expect(used < asked && detail["route_line"]?.arrayValue.count == Int(used))
        #expect(detail["hint"]?.stringValue?.contains("route_line has \(used) of the \(asked) points") == true)
        #expect(detail["route"]?["points"]?.integerValue == row[1].integer, "the summary still counts every point")
    }

    @Test func textIsUTF8NotEscapes() throws {
        let directory = TemporaryDirectory("healthetl-mcp-budget")
        defer { directory.remove() }
        let database = try MCPFixtures.sampleDatabase(in: directory)
        let server = try RawServer(database: database)
        _ = try server.initialize()
        server.send(
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"metric_series","arguments":{"metric":"Steps","start":"2024-03-23","end":"2024-03-25","period":"day"}}}"#
        )
        let finished = server.finish()
        // The source names as they are (Jonathan’s), on the wire itself: no \u2019 in either rendering.
        #expect(finished.rest.contains("Jonathan’s Apple Watch") && !finished.rest.contains("\\u2019"))
    }
}
