import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite
@testable import SampleExports

/// `healthetl mcp` driven by the official MCP Python SDK (`mcp` from PyPI, pinned in scripts/test and installed
/// into .build/mcp-venv), as an assistant's client drives it: the SDK negotiates the version, validates every
/// structured answer against its tool's output schema, and the answers are compared here with SQL on the same
/// database and with daily.csv.
@Suite(
    .serialized,
    // Without the venv (a developer who did not run scripts/test) these tests are skipped, and reported so.
    .enabled(if: MCPClient.isInstalled, "the MCP Python SDK is not in .build/mcp-venv: run scripts/test once"),
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct MCPClientTests {
    @Test func everyToolAnswersAsSQLAndDailyCSVDo() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let database = try MCPFixtures.sampleDatabase(in: directory)
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        let program: [JSON] = [
            ["list": "tools"], ["list": "prompts"], ["list": "resources"],
            ["read": "healthetl://docs/schema"], ["read": "healthetl://docs/numbers"], ["read": "healthetl://metrics"],
            ["prompt": "weekly_review", "arguments": ["week_of": "2024-03-27"]], ["prompt": "sleep_report"],
            ["ping": true],
            ["call": "overview"], ["call": "list_metrics"], ["call": "list_metrics", "arguments": ["search": "heart"]],
            MCPClient.series("Steps", "2024-03-20", "2024-04-10", "day"),
            MCPClient.series("HKQuantityTypeIdentifierHeartRate", "2024-03-20", "2024-04-10", "week", statistic: "avg"),
            MCPClient.series("Step Count", "2024-03-01", "2024-04-30", "month"),
            MCPClient.series("StepCount", "2024-01-01", "2024-12-31", "year"),
            MCPClient.series("HeartRate", "2023-06-01", "2024-12-31", "year"),
            MCPClient.series("HeartRate", "2024-03-20", "2024-04-10", "day"),
            ["call": "sleep_nights", "arguments": ["start": "2024-03-22", "end": "2024-04-08"]],
            [
                "call": "samples",
                "arguments": ["metric": "Steps", "start": "2024-03-24", "end": "2024-03-24", "limit": 100],
            ],
            [
                "call": "sql",
                "arguments": [
                    "query": "SELECT activity, count(*) AS n FROM workout_overview GROUP BY activity ORDER BY activity"
                ],
            ],
            MCPClient.series("Stepz", "2024-03-20", "2024-04-10", "day"),
            MCPClient.series("Sleep", "2024-03-20", "2024-04-10", "day"),
        ]
        let results = try MCPClient.run(database: database, program: program, in: directory)
        var position = 0
        func next() throws -> JSON {
            try #require(position < results.count, "fewer results than steps")
            position += 1
            return results[position - 1]
        }

        let handshake = try next()["handshake"]
        // The SDK's default mode probes server/discover (answered -32601) and falls back to the handshake.
        #expect(handshake?["protocol_version"] == "2025-11-25")
        #expect(handshake?["server_name"] == "healthetl")
        guard case .array(let tools) = try next() else { throw MCPClient.Failure("no tool list") }
        #expect(tools.compactMap { $0["name"]?.stringValue } == MCPSession.tools.map(\.name))
        #expect(tools.allSatisfy { $0["output"]?["type"] == "object" && $0["read_only"] == true })
        #expect(MCPClient.names(try next()) == ["weekly_review", "sleep_report"])
        #expect(
            try next().arrayValue.compactMap { $0["uri"]?.stringValue }
                == ["healthetl://docs/schema", "healthetl://docs/numbers", "healthetl://metrics"])
        #expect(try next()["text"]?.stringValue?.contains("## `rollups`") == true)
        #expect(try next()["text"]?.stringValue?.contains("are combined from the months") == true)
        let metricsResource = try JSONParser.parse(try #require(try next()["text"]?.stringValue))
        #expect(try next()["messages"]?.arrayValue.first?.stringValue?.contains("2024-03-25 to 2024-03-31") == true)
        #expect(try next()["messages"]?.arrayValue.first?.stringValue?.contains("sleep_nights") == true)
        #expect(try next()["pong"] == true)

        let overview = try MCPClient.structured(try next())
        #expect(overview["first_day"] == .string(try db.scalar("SELECT min(date) FROM daily_rollups").text ?? ""))
        #expect(overview["last_day"] == .string(try db.scalar("SELECT max(date) FROM daily_rollups").text ?? ""))
        #expect(overview["workout_count"]?.integerValue == (try db.scalar("SELECT count(*) FROM workouts").integer))
        #expect(overview["sources"]?.arrayValue.contains { $0["name"] == "Fever & <Temp> Log" } == true)
        #expect(overview["last_import"]?["export_date"] == "2024-04-07T07:12:31Z")

        // list_metrics stops at the answer budget with a cursor; the resource holds every metric.
        let metrics = try MCPClient.structured(try next())
        let identifiers = Set(
            try db.query(
                """
                SELECT DISTINCT type FROM data_types
                WHERE row_table IN ('cumulative_samples', 'discrete_samples', 'category_samples', 'correlations')
                """
            ).compactMap { $0.first?.text })
        // list_metrics: rows under columns, the short name first; the resource: every metric in full.
        #expect(metrics["columns"]?.arrayValue.first == "short_name")
        let shortNames = Dictionary(
            uniqueKeysWithValues: metricsResource["metrics"]?.arrayValue.compactMap { metric in
                metric["short_name"]?.stringValue.flatMap { name in metric["identifier"]?.stringValue.map { (name, $0) }
                }
            } ?? [])
        let listed = Set(
            metrics["metrics"]?.arrayValue.compactMap { $0.arrayValue.first?.stringValue.flatMap { shortNames[$0] } }
                ?? [])
        #expect(
            Set(metricsResource["metrics"]?.arrayValue.compactMap { $0["identifier"]?.stringValue } ?? [])
                == identifiers)
        #expect(listed.isSubset(of: identifiers) && !listed.isEmpty)
        #expect(metricsResource["count"] == metrics["count"])
        #expect(metrics["count"]?.integerValue == Int64(identifiers.count))
        #expect(listed.count == identifiers.count || metrics["next_cursor"]?.stringValue != nil)
        let steps = metricsResource["metrics"]?.arrayValue.first { $0["short_name"] == "StepCount" }
        #expect(
            steps?["sample_count"]?.integerValue
                == (try db.scalar(
                    "SELECT count(*) FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierStepCount'"
                ).integer))
        #expect(
            try MCPClient.structured(try next())["metrics"]?.arrayValue.allSatisfy {
                $0.arrayValue[1].stringValue?.lowercased().contains("heart") == true
            } == true)

        // Days: every day of the range with data, the rollups' value (whole steps), equal to daily.csv's column.
        let daily = try MCPClient.dailyCSV(database: database, in: directory)
        let stepAnswer = try next()
        let stepDays = try MCPClient.points(stepAnswer)
        let stepRows = try MCPClient.rollups(db, "day", "HKQuantityTypeIdentifierStepCount", "sum")
        let stepLabels = stepRows.keys.filter { $0 >= "2024-03-20" && $0 <= "2024-04-10" }.sorted()
        #expect(stepDays.map(\.label) == stepLabels)
        for point in stepDays {
            #expect(point.value == MCPClient.rounded(stepRows[point.label], unit: "count"), "\(point.label)")
            #expect(
                point.value == MCPClient.rounded(daily[point.label]?["StepCount"] ?? nil, unit: "count"),
                "daily.csv \(point.label)")
        }
        // The day: the Watch's 18,405 and the iPhone's 5,833 are not added up (24,238).
        #expect(stepDays.first { $0.label == "2024-03-24" }?.value == 19_647)
        // Every day of the range is counted; the ones without data have no row.
        let stepSummary = try MCPClient.structured(stepAnswer)
        #expect(
            stepSummary["periods"] == 22 && stepSummary["periods_with_data"]?.integerValue == Int64(stepLabels.count))
        #expect(stepLabels.count < 22 && stepSummary["period_used"] == "day")
        let stepValues = stepLabels.compactMap { stepRows[$0] }
        #expect(
            stepSummary["summary"]?["max"]?["value"]?.doubleValue == MCPClient.rounded(stepValues.max(), unit: "count"))
        #expect(
            stepSummary["summary"]?["mean"]?.doubleValue
                == MCPClient.rounded(stepValues.reduce(0, +) / Double(stepValues.count), unit: "count"))

        let heartWeeks = try MCPClient.points(try next())
        let heartWeekRows = try MCPClient.rollups(db, "week", "HKQuantityTypeIdentifierHeartRate", "avg")
        // The weeks of 2024-03-20 … 04-10 with data (the week of 04-08 has none, and no row).
        #expect(
            heartWeeks.map(\.label) == heartWeekRows.keys.filter { $0 >= "2024-03-18" && $0 <= "2024-04-08" }.sorted())
        #expect(heartWeeks.map(\.label) == ["2024-03-18", "2024-03-25", "2024-04-01"])
        for point in heartWeeks {
            #expect(point.value == MCPClient.rounded(heartWeekRows[point.label], unit: "count/min"), "\(point.label)")
        }

        let stepMonths = try MCPClient.points(try next())
        let stepMonthRows = try MCPClient.rollups(db, "month", "HKQuantityTypeIdentifierStepCount", "sum")
        #expect(stepMonths.map(\.label) == ["2024-03", "2024-04"])
        for point in stepMonths {
            #expect(point.value == MCPClient.rounded(stepMonthRows[point.label], unit: "count"), "\(point.label)")
        }

        // Years: the sum of the days' sums; the average of all readings (days weighted by their counts).
        let stepYear = try MCPClient.points(try next())
        #expect(
            stepYear.count == 1 && stepYear[0].value == MCPClient.rounded(stepRows.values.reduce(0, +), unit: "count"))
        let heartYearAnswer = try next()
        let heartYears = try MCPClient.points(heartYearAnswer)
        let heartYearPeriods = try MCPClient.structured(heartYearAnswer)["periods"]
        #expect(heartYears.map(\.label) == ["2024"] && heartYearPeriods == 2)
        let weighted = try db.scalar(
            """
            SELECT sum(a.value * c.value) / sum(c.value) FROM daily_rollups a JOIN daily_rollups c
            ON c.date = a.date AND c.type = a.type AND c.statistic = 'count'
            WHERE a.type = 'HKQuantityTypeIdentifierHeartRate' AND a.statistic = 'avg'
            """)
        let readings = try db.scalar(
            "SELECT avg(value) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate' AND local_date LIKE '2024-%'"
        )
        guard case .real(let weightedMean) = weighted, case .real(let meanOfReadings) = readings else {
            throw MCPClient.Failure("no heart rate in the sample")
        }
        #expect(MCPClient.close(weightedMean, meanOfReadings))
        #expect(heartYears.last?.value == MCPClient.rounded(weightedMean, unit: "count/min"))

        let heartDays = try MCPClient.points(try next())
        for point in heartDays {
            #expect(
                point.value == MCPClient.rounded(daily[point.label]?["HeartRate_avg"] ?? nil, unit: "count/min"),
                "daily.csv \(point.label)")
        }

        // Sleep: asleep = deep + core + REM + unspecified of the rollups, per day the night ends.
        let sleep = try MCPClient.structured(try next())
        let nights = sleep["rows"]?.arrayValue ?? []
        #expect(sleep["nights"] == 18 && sleep["period_used"] == "night")
        #expect(sleep["columns"]?.arrayValue.prefix(2) == ["date", "asleep_hours"])
        let asleep = try db.query(
            """
            SELECT date, sum(value) FROM daily_rollups WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
            AND statistic IN ('AsleepDeep_hours', 'AsleepCore_hours', 'AsleepREM_hours', 'AsleepUnspecified_hours',
            'Asleep_hours') GROUP BY date
            """)
        let asleepByDate = Dictionary(uniqueKeysWithValues: asleep.map { ($0[0].text ?? "", MCPClient.double($0[1])) })
        #expect(nights.count == asleepByDate.keys.filter { $0 >= "2024-03-22" && $0 <= "2024-04-08" }.count)
        for night in nights {
            let date = night.arrayValue.first?.stringValue ?? ""
            #expect(
                night.arrayValue[1].doubleValue == MCPClient.rounded(asleepByDate[date] ?? nil, unit: "hr"), "\(date)")
        }

        let samples = try MCPClient.structured(try next())
        let sampleCount = try db.scalar(
            "SELECT count(*) FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierStepCount' AND local_date = '2024-03-24'"
        )
        // As many as asked for, or fewer with a cursor and the reason: the answer budget.
        let shownSamples = Int64(samples["samples"]?.arrayValue.count ?? -1)
        #expect(
            shownSamples == sampleCount.integer.map { min($0, 100) }
                || (shownSamples > 0 && samples["next_cursor"]?.stringValue != nil
                    && samples["hint"]?.stringValue?.contains("budget") == true)
        )
        #expect(samples["summary"]?["count"]?.integerValue == sampleCount.integer)

        let sql = try MCPClient.structured(try next())
        let grouped = try db.query(
            "SELECT activity, count(*) AS n FROM workout_overview GROUP BY activity ORDER BY activity")
        #expect(sql["columns"] == ["activity", "n"])
        #expect(
            sql["rows"]?.arrayValue.map { $0.arrayValue.first?.stringValue ?? "" } == grouped.map { $0[0].text ?? "" })

        let unknown = try next()
        #expect(unknown["is_error"] == true)
        #expect(unknown["text"]?.stringValue?.contains("Step Count (StepCount)") == true, "\(unknown)")
        let needsStatistic = try next()
        #expect(needsStatistic["is_error"] == true)
        #expect(needsStatistic["text"]?.stringValue?.contains("AsleepCore_hours") == true, "\(needsStatistic)")
    }

    @Test func workoutsPageThroughAndDetailMatchesTheTables() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let database = try MCPFixtures.sampleDatabase(in: directory)
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        let expected = try db.query("SELECT workout_id FROM workout_overview ORDER BY start_date DESC, workout_id DESC")
            .compactMap { $0.first?.integer }
        let routed = try #require(
            try db.scalar("SELECT workout_id FROM workout_overview WHERE route_points > 60 ORDER BY workout_id LIMIT 1")
                .integer)
        let first = try MCPClient.run(
            database: database, program: [["call": "workouts", "arguments": ["limit": 5]]], in: directory)
        var ids =
            try MCPClient.structured(first[1])["workouts"]?.arrayValue.compactMap { $0.arrayValue.first?.integerValue }
            ?? []
        #expect(try MCPClient.structured(first[1])["count"]?.integerValue == Int64(expected.count))
        var cursor = try MCPClient.structured(first[1])["next_cursor"]?.stringValue
        // Later pages, each in a session of its own: the cursor is all a page needs.
        while let position = cursor {
            let page = try MCPClient.run(
                database: database,
                program: [["call": "workouts", "arguments": ["limit": 5, "cursor": .string(position)]]],
                in: directory)
            let structured = try MCPClient.structured(page[1])
            ids += structured["workouts"]?.arrayValue.compactMap { $0.arrayValue.first?.integerValue } ?? []
            cursor = structured["next_cursor"]?.stringValue
        }
        #expect(ids == expected)

        let detail = try MCPClient.run(
            database: database,
            program: [
                ["call": "workout_detail", "arguments": ["id": .integer(routed), "route_points": 50]],
                ["call": "workout_detail", "arguments": ["id": 999_999]],
                ["call": "workouts", "arguments": ["activity": "Runing"]],
            ], in: directory)
        let workout = try MCPClient.structured(detail[1])
        let points = try db.scalar(
            "SELECT sum(point_count) FROM workout_routes WHERE workout_id = ?", [.integer(routed)])
        #expect(workout["route"]?["points"]?.integerValue == points.integer)
        #expect(workout["route_line"]?.arrayValue.count == 50)
        let statistics = try db.scalar(
            "SELECT count(*) FROM workout_statistics WHERE workout_id = ?", [.integer(routed)])
        #expect(Int64(workout["statistics"]?.arrayValue.count ?? -1) == statistics.integer)
        #expect(workout["workout"]?["id"]?.integerValue == routed)
        #expect(detail[2]["is_error"] == true)

        // Samples page through a day in start order, every row once.
        let sampleIDs = try db.query(
            """
            SELECT id FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierStepCount' AND local_date = '2024-03-24'
            ORDER BY start_date, identity
            """
        ).compactMap { $0.first?.integer }
        var paged: [Int64] = []
        var sampleCursor: String?
        repeat {
            var arguments: [(String, JSON)] = [
                ("metric", "StepCount"), ("start", "2024-03-24"), ("end", "2024-03-24"), ("limit", 40),
            ]
            if let sampleCursor { arguments.append(("cursor", .string(sampleCursor))) }
            let page = try MCPClient.structured(
                try MCPClient.run(
                    database: database, program: [["call": "samples", "arguments": .object(arguments)]], in: directory)[
                        1])
            paged += page["samples"]?.arrayValue.compactMap { $0.arrayValue.first?.integerValue } ?? []
            sampleCursor = page["next_cursor"]?.stringValue
        } while sampleCursor != nil
        #expect(paged == sampleIDs && sampleIDs.count > 40)
        #expect(detail[3]["is_error"] == true && detail[3]["text"]?.stringValue?.contains("Running") == true)
    }
}
