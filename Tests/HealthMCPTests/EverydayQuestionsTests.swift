import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// Issue 43: twenty questions a person asks, each answered from a tool's default answer in at most 8,000 bytes on
/// ten generated years, and the numbers in the answers equal to SQL over the same database (computed here, not by
/// the server's code) at the precision docs/mcp.md documents.
@Suite(
    .serialized,
    .enabled(if: MCPClient.isInstalled, "the MCP Python SDK is not in .build/mcp-venv: run scripts/test once"),
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct EverydayQuestionsTests {
    @Test func questionsAreAnsweredInEightKilobytesWithTheNumbersOfSQL() throws {
        let directory = TemporaryDirectory("healthetl-mcp-budget")
        defer { directory.remove() }
        let database = try AnswerBudgetTests.tenYears()
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        let steps = "HKQuantityTypeIdentifierStepCount"
        let program: [JSON] = [
            // 1 How many steps a day this year?
            MCPClient.series("Steps", "2024-01-01", "2024-12-31", "day"),
            // 2 My steps in the last 30 days?
            MCPClient.series("Steps", "2024-12-02", "2024-12-31", "day"),
            // 3 Is my resting heart rate going up this year?
            MCPClient.series("RestingHeartRate", "2024-01-01", "2024-12-31", "week"),
            // 4, 5 Sleep last month and the month before.
            AnswerBudgetTests.call("sleep_nights", [("start", "2024-12-01"), ("end", "2024-12-31")]),
            AnswerBudgetTests.call("sleep_nights", [("start", "2024-11-01"), ("end", "2024-11-30")]),
            // 6 My last run.
            AnswerBudgetTests.call("workouts", [("activity", "Running"), ("limit", 1)]),
            // 7 How many workouts this year?
            AnswerBudgetTests.call("workouts", [("start", "2024-01-01"), ("end", "2024-12-31")]),
            // 8 My weight since January.
            MCPClient.series("BodyMass", "2024-01-01", "2024-12-31", "day"),
            // 9 HRV this month.
            MCPClient.series("HRV", "2024-12-01", "2024-12-31", "day"),
            // 10 Unusual days this year.
            AnswerBudgetTests.call("unusual", [("start", "2024-01-01"), ("end", "2024-12-31")]),
            // 11 My heart rate readings yesterday.
            AnswerBudgetTests.call(
                "samples", [("metric", "HeartRate"), ("start", "2024-12-30"), ("end", "2024-12-30")]),
            // 12 Steps per month over the last five years (SQL).
            AnswerBudgetTests.call(
                "sql",
                [
                    (
                        "query",
                        "SELECT substr(date, 1, 7) AS month, round(sum(value)) AS steps FROM daily_rollups WHERE type = 'HKQuantityTypeIdentifierStepCount' AND statistic = 'sum' AND date >= '2020-01-01' GROUP BY month ORDER BY month"
                    )
                ]),
            // 13 Did I walk more this year than last year?
            AnswerBudgetTests.call(
                "compare",
                [
                    ("metric", "Steps"), ("first_start", "2023-01-01"), ("first_end", "2023-12-31"),
                    ("second_start", "2024-01-01"), ("second_end", "2024-12-31"),
                ]),
            // 14 Active energy per month this year.
            MCPClient.series("ActiveEnergyBurned", "2024-01-01", "2024-12-31", "month"),
            // 15 My resting heart rate last week against my normal.
            AnswerBudgetTests.call(
                "baseline", [("metrics", ["RestingHeartRate"]), ("start", "2024-12-25"), ("end", "2024-12-31")]),
            // 16 What does the database cover?
            AnswerBudgetTests.call("overview", []),
            // 17 Steps over all ten years.
            MCPClient.series("Steps", "2015-01-01", "2024-12-31", "day"),
            // 18 My average heart rate each month this year.
            MCPClient.series("HeartRate", "2024-01-01", "2024-12-31", "month"),
            // 19 How far did I walk and run each year?
            MCPClient.series("DistanceWalkingRunning", "2015-01-01", "2024-12-31", "year"),
            // 20 Is my resting heart rate lower on days I walk more?
            AnswerBudgetTests.call(
                "correlate",
                [("x", "Steps"), ("y", "RestingHeartRate"), ("start", "2024-01-01"), ("end", "2024-12-31")]),
        ]
        let results = try MCPClient.run(database: database, program: program, in: directory)
        #expect(results.count == 21, "twenty questions and the handshake")
        for (index, result) in results.dropFirst().enumerated() {
            #expect(result["is_error"] == false, "question \(index + 1): \(result.serialized.prefix(300))")
            #expect(
                AnswerBudgetTests.size(result) <= AnswerBudget.defaultBytes,
                "question \(index + 1): \(AnswerBudgetTests.size(result)) bytes")
            print("question \(index + 1): \(AnswerBudgetTests.size(result)) bytes")
        }
        func answer(_ number: Int) throws -> JSON { try MCPClient.structured(results[number]) }
        func days(_ type: String, _ statistic: String, _ first: String, _ last: String) throws -> [(String, Double)] {
            try db.query(
                "SELECT label, value FROM rollups WHERE period = 'day' AND type = ? AND statistic = ? AND label BETWEEN ? AND ? ORDER BY label",
                [.text(type), .text(statistic), .text(first), .text(last)]
            ).compactMap { row in MCPClient.double(row[1]).map { (row[0].text ?? "", $0) } }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

        // 1: the mean, the best day and the days with data of the year.
        let year = try days(steps, "sum", "2024-01-01", "2024-12-31")
        let one = try answer(1)
        #expect(one["summary"]?["mean"]?.doubleValue == MCPClient.rounded(mean(year.map(\.1)), unit: "count"))
        let best = try #require(year.max { $0.1 < $1.1 })
        #expect(one["summary"]?["max"]?["label"]?.stringValue == best.0)
        #expect(one["summary"]?["max"]?["value"]?.doubleValue == MCPClient.rounded(best.1, unit: "count"))
        #expect(one["days_with_data"]?.integerValue == Int64(year.count))
        #expect(one["summary"]?["trend"]?["per_30_days"]?.doubleValue != nil)
        // 2: every day, as the rollups.
        let month = try days(steps, "sum", "2024-12-02", "2024-12-31")
        let two = try MCPClient.points(results[2])
        #expect(two.map(\.label) == month.map(\.0))
        #expect(two.map(\.value) == month.map { MCPClient.rounded($0.1, unit: "count") })
        // 3: weeks, as the rollups.
        let weeks = try MCPClient.rollups(db, "week", "HKQuantityTypeIdentifierRestingHeartRate", "avg")
        let three = try MCPClient.points(results[3])
        #expect(!three.isEmpty)
        for point in three {
            #expect(point.value == MCPClient.rounded(weeks[point.label], unit: "count/min"), "\(point.label)")
        }
        // 4, 5: the mean night of each month.
        for (number, first, last) in [(4, "2024-12-01", "2024-12-31"), (5, "2024-11-01", "2024-11-30")] {
            let nights = try db.query(
                """
                SELECT date, sum(value) FROM daily_rollups WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
                AND statistic IN ('AsleepDeep_hours', 'AsleepCore_hours', 'AsleepREM_hours', 'AsleepUnspecified_hours',
                'Asleep_hours') AND date BETWEEN ? AND ? GROUP BY date
                """, [.text(first), .text(last)]
            ).compactMap { MCPClient.double($0[1]) }
            #expect(try answer(number)["summary"]?["mean"]?.doubleValue == MCPClient.rounded(mean(nights), unit: "hr"))
            #expect(try answer(number)["nights_with_data"]?.integerValue == Int64(nights.count))
        }
        // 6: the newest run, its duration to the minute.
        let run = try db.query(
            "SELECT workout_id, duration_min FROM workout_overview WHERE activity_type = 'HKWorkoutActivityTypeRunning' ORDER BY start_date DESC, workout_id DESC LIMIT 1"
        )
        let six = try answer(6)["workouts"]?.arrayValue.first?.arrayValue ?? []
        #expect(six.first?.integerValue == run.first?[0].integer)
        #expect(six[3].doubleValue == MCPClient.rounded(run.first.flatMap { MCPClient.double($0[1]) }, unit: "min"))
        // Its other numbers, each at its unit's precision, under the columns the answer names.
        let sixColumns = try answer(6)["columns"]?.arrayValue.compactMap(\.stringValue) ?? []
        let runRow = try #require(
            try db.query(
                """
                SELECT local_start, distance_km, active_energy_kcal, avg_heart_rate, max_heart_rate, elevation_gain_m,
                route_points FROM workout_overview WHERE workout_id = ?
                """, [run.first?[0] ?? .null]
            ).first)
        #expect(six[sixColumns.firstIndex(of: "local_start") ?? 0].stringValue == runRow[0].text)
        for (offset, (name, unit)) in [
            ("distance_km", "km"), ("active_energy_kcal", "kcal"), ("avg_heart_rate", "count/min"),
            ("max_heart_rate", "count/min"), ("elevation_gain_m", "m"), ("route_points", "count"),
        ].enumerated() {
            let cell = sixColumns.firstIndex(of: name).map { six[$0] }
            #expect(
                cell?.doubleValue == MCPClient.rounded(MCPClient.double(runRow[offset + 1]), unit: unit), "\(name)")
        }
        // 7: the count of the year's workouts, whatever the page.
        #expect(
            try answer(7)["count"]?.integerValue
                == (try db.scalar(
                    "SELECT count(*) FROM workout_overview WHERE local_date BETWEEN '2024-01-01' AND '2024-12-31'"
                )
                .integer))
        // 8: the last weight of the year.
        let weights = try days("HKQuantityTypeIdentifierBodyMass", "avg", "2024-01-01", "2024-12-31")
        #expect(
            try answer(8)["summary"]?["last"]?["value"]?.doubleValue == MCPClient.rounded(weights.last?.1, unit: "kg"))
        // 9: the median of the month's HRV.
        let hrv = try days("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "avg", "2024-12-01", "2024-12-31")
            .map(\.1).sorted()
        let median = hrv.count % 2 == 1 ? hrv[hrv.count / 2] : (hrv[hrv.count / 2 - 1] + hrv[hrv.count / 2]) / 2
        #expect(try answer(9)["summary"]?["median"]?.doubleValue == MCPClient.rounded(median, unit: "ms"))
        // 11: the day's readings: how many and the highest.
        let readings = try db.query(
            "SELECT count(*), max(value) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate' AND local_date = '2024-12-30'"
        )
        #expect(try answer(11)["summary"]?["count"]?.integerValue == readings.first?[0].integer)
        #expect(
            try answer(11)["summary"]?["max"]?["value"]?.doubleValue
                == MCPClient.rounded(readings.first.flatMap { MCPClient.double($0[1]) }, unit: "count/min"))
        // 12: the rows of the query itself, all sixty in the default answer.
        let perMonth = try db.query(
            "SELECT substr(date, 1, 7) AS month, round(sum(value)) AS steps FROM daily_rollups WHERE type = 'HKQuantityTypeIdentifierStepCount' AND statistic = 'sum' AND date >= '2020-01-01' GROUP BY month ORDER BY month"
        )
        #expect(
            try answer(12)["rows"]?.arrayValue.map { $0.arrayValue.first?.stringValue ?? "" }
                == perMonth.map { $0[0].text ?? "" })
        // 14: months, as the rollups.
        let energy = try MCPClient.rollups(db, "month", "HKQuantityTypeIdentifierActiveEnergyBurned", "sum")
        let fourteen = try MCPClient.points(results[14])
        #expect(fourteen.count == 12)
        for point in fourteen {
            #expect(point.value == MCPClient.rounded(energy[point.label], unit: "kcal"), "\(point.label)")
        }
        // 16: the days covered.
        #expect(try answer(16)["first_day"] == .string(try db.scalar("SELECT min(date) FROM daily_rollups").text ?? ""))
        #expect(try answer(16)["last_day"] == .string(try db.scalar("SELECT max(date) FROM daily_rollups").text ?? ""))
        #expect(try answer(16)["workout_count"]?.integerValue == db.scalar("SELECT count(*) FROM workouts").integer)
        // 17: ten years of days come coarser with their reason; the summary is still per day.
        let all = try days(steps, "sum", "2015-01-01", "2024-12-31")
        #expect(try answer(17)["period_used"] != "day" && answer(17)["hint"]?.stringValue != nil)
        #expect(try answer(17)["summary"]?["mean"]?.doubleValue == MCPClient.rounded(mean(all.map(\.1)), unit: "count"))

        // 10, 13, 15, 18, 19, 20: EverydayQuestionsChecks.
        try Self.checkUnusual(try answer(10), db)
        try Self.checkCompare(try answer(13), db)
        try Self.checkBaseline(try answer(15), db)
        try Self.checkMonths(try MCPClient.points(results[18]), db)
        try Self.checkYears(try MCPClient.points(results[19]), db)
        try Self.checkCorrelation(try answer(20), db)
    }
}
