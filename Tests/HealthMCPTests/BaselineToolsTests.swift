import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite
@testable import SampleExports

/// The tools over the person's normal (`baseline`, `compare`, `correlate`, `unusual`) through the official MCP
/// Python SDK, on a generated export of 120 days with a planted illness (days 100–103: 2024-04-10 … 04-13), each
/// answer checked against SQL on the same database.
@Suite(
    .serialized,
    .enabled(if: MCPClient.isInstalled, "the MCP Python SDK is not in .build/mcp-venv: run scripts/test once"),
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct BaselineToolsTests {
    static let illness = ["2024-04-13", "2024-04-12", "2024-04-11", "2024-04-10"]

    /// The generated export with its planted illness, imported by the real `healthetl import`.
    static func illnessDatabase(in directory: TemporaryDirectory, plant: Bool = true) throws -> String {
        var options = GeneratorOptions(seed: 3, days: 120, profile: .ios18)
        options.scale = 0.1
        options.includeSideFiles = false
        if plant { options.illnessDays = 100...103 }
        let export = directory.file("export-\(plant).zip")
        _ = try ExportGenerator(options: options).write(to: .zip(export))
        let database = directory.file("health-\(plant).sqlite")
        let result = try MCPFixtures.run(
            try #require(Fixtures.healthetl),
            ["import", export, "--db", database, "--timezone", "Europe/Berlin", "--quiet"])
        try #require(result.status == 0, "\(result.errors)")
        return database
    }

    @Test func unusualFindsThePlantedIllnessAndNothingElse() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let database = try Self.illnessDatabase(in: directory)
        let healthy = try Self.illnessDatabase(in: directory, plant: false)
        let program: [JSON] = [
            ["call": "unusual"],
            ["call": "unusual", "arguments": ["start": "2024-04-11", "end": "2024-04-12"]],
            ["call": "unusual", "arguments": ["min_signals": 4]],
        ]
        let results = try MCPClient.run(database: database, program: program, in: directory)
        let all = try MCPClient.structured(results[1])
        let days = all["days"]?.arrayValue.compactMap { $0["date"]?.stringValue }
        #expect(days == Self.illness)
        #expect(all["rule"]?.stringValue?.contains("2.5") == true && all["min_signals"] == 3)
        for day in all["days"]?.arrayValue ?? [] {
            let signals = day["signals"]?.arrayValue ?? []
            #expect(signals.count >= 3 && day["signal_count"]?.integerValue == Int64(signals.count))
            for signal in signals {
                let z = signal["robust_z"]?.doubleValue ?? 0
                let expected =
                    ((signal["value"]?.doubleValue ?? 0) - (signal["median"]?.doubleValue ?? 0))
                    / (signal["mad"]?.doubleValue ?? 1)
                #expect(MCPClient.close(z, expected))
                #expect(signal["signal"] == "heart rate variability" ? z <= -2.5 : abs(z) >= 2.5)
            }
        }
        #expect(
            try MCPClient.structured(results[2])["days"]?.arrayValue.compactMap { $0["date"]?.stringValue }
                == ["2024-04-12", "2024-04-11"])
        // The first three days have all four planted signals (the last one's wrist temperature is filed under
        // the evening the night began).
        let four = try MCPClient.structured(results[3])["days"]?.arrayValue.compactMap { $0["date"]?.stringValue }
        #expect(four == ["2024-04-12", "2024-04-11", "2024-04-10"])

        // Without the illness, the same export has no unusual day.
        let calm = try MCPClient.run(database: healthy, program: [["call": "unusual"]], in: directory)
        #expect(try MCPClient.structured(calm[1])["days"]?.arrayValue.isEmpty == true)
    }

    @Test func baselineCompareAndCorrelateAnswerAsSQLDoes() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let database = try Self.illnessDatabase(in: directory)
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        let program: [JSON] = [
            [
                "call": "baseline",
                "arguments": [
                    "metrics": ["Resting Heart Rate", "HeartRateVariabilitySDNN"], "start": "2024-04-08",
                    "end": "2024-04-14",
                ],
            ],
            ["call": "baseline", "arguments": ["metrics": "Steps", "start": "2024-01-03"]],
            [
                "call": "compare",
                "arguments": [
                    "metric": "RestingHeartRate", "first_start": "2024-03-01", "first_end": "2024-04-09",
                    "second_start": "2024-04-10", "second_end": "2024-04-13",
                ],
            ],
            [
                "call": "correlate",
                "arguments": [
                    "x": "RestingHeartRate", "y": "HeartRateVariabilitySDNN", "start": "2024-01-01",
                    "end": "2024-04-29",
                ],
            ],
            [
                "call": "correlate",
                "arguments": [
                    "x": "Steps", "y": "RestingHeartRate", "start": "2024-01-01", "end": "2024-04-29",
                    "lag_days": 1,
                ],
            ],
            ["list": "tools"],
        ]
        let results = try MCPClient.run(database: database, program: program, in: directory)

        // baseline: every number as the table holds it.
        let baseline = try MCPClient.structured(results[1])
        let metrics = baseline["metrics"]?.arrayValue ?? []
        #expect(
            metrics.map { $0["metric"]?["column"]?.stringValue } == [
                "RestingHeartRate_avg", "HeartRateVariabilitySDNN_avg",
            ])
        for metric in metrics {
            let column = metric["metric"]?["column"]?.stringValue ?? ""
            let rows = try db.query(
                "SELECT date, value, mean, sd, z, percentile_365, slope_30d, slope_low, n FROM baselines "
                    + "WHERE column_name = ? AND date BETWEEN '2024-04-08' AND '2024-04-14' ORDER BY date",
                [.text(column)])
            // Rows under columns, each number as the table holds it at the documented precision.
            let days = metric["days"]?.arrayValue ?? []
            let columns = baseline["columns"]?.arrayValue.compactMap(\.stringValue) ?? []
            let unit = metric["metric"]?["unit"]?.stringValue
            let resolved = DailyColumn(
                metric: Metric(
                    identifier: "", displayName: "", shortName: "", kind: "", unit: unit, table: "", sampleCount: 0,
                    firstDay: nil, lastDay: nil, statistics: []),
                statistic: metric["metric"]?["statistic"]?.stringValue ?? "", name: column, unit: unit)
            #expect(days.count == 7 && rows.count == 7)
            for (day, row) in zip(days, rows) {
                func cell(_ name: String) -> JSON? { columns.firstIndex(of: name).map { day.arrayValue[$0] } }
                #expect(cell("date")?.stringValue == row[0].text)
                for (offset, name) in ["value", "mean", "sd", "z", "percentile_365", "slope_30d", "slope_low"]
                    .enumerated()
                {
                    #expect(
                        cell(name)?.doubleValue
                            == BaselineTool.rounding(name, resolved)(MCPClient.double(row[offset + 1])), "\(name)")
                }
                #expect(cell("n")?.integerValue == row[8].integer)
            }
        }
        // Early days have no normal yet, and say so.
        let early = try MCPClient.structured(results[2])["metrics"]?.arrayValue.first?["days"]?.arrayValue.first
        let columns = BaselineTool.columns
        #expect(
            early?.arrayValue[columns.firstIndex(of: "mean")!] == .null
                && early?.arrayValue[columns.firstIndex(of: "n")!] == 2)
        #expect(results[2]["text"]?.stringValue?.contains("no normal yet") == true)

        // compare: the means, standard deviations and effect sizes of SQL's aggregates.
        let compare = try MCPClient.structured(results[3])
        func period(_ first: String, _ last: String) throws -> (n: Double, mean: Double, sd: Double) {
            let row = try db.query(
                """
                SELECT count(*), avg(value), sqrt((sum(value * value) - sum(value) * sum(value) / count(*)) / (count(*) - 1))
                FROM daily_rollups WHERE column_name = 'RestingHeartRate_avg' AND date BETWEEN ? AND ?
                """, [.text(first), .text(last)])[0]
            return (MCPClient.double(row[0]) ?? 0, MCPClient.double(row[1]) ?? 0, MCPClient.double(row[2]) ?? 0)
        }
        let a = try period("2024-03-01", "2024-04-09")
        let b = try period("2024-04-10", "2024-04-13")
        #expect(compare["first"]?["days_with_data"]?.integerValue == Int64(a.n))
        #expect(compare["second"]?["days_with_data"]?.integerValue == 4)
        #expect(abs((compare["first"]?["sd"]?.doubleValue ?? 0) - a.sd) < 1e-6)
        #expect(MCPClient.close(compare["difference"]?.doubleValue, b.mean - a.mean))
        let pooled = (((a.n - 1) * a.sd * a.sd + (b.n - 1) * b.sd * b.sd) / (a.n + b.n - 2)).squareRoot()
        let d = (b.mean - a.mean) / pooled
        #expect(abs((compare["cohens_d"]?.doubleValue ?? 0) - d) < 1e-6)
        #expect(abs((compare["hedges_g"]?.doubleValue ?? 0) - d * (1 - 3 / (4 * (a.n + b.n) - 9))) < 1e-6)
        #expect(d > 3)

        // correlate: Spearman's rho from ranks SQL computes (ties share their mean rank).
        for (index, (x, y, lag)) in [
            ("RestingHeartRate_avg", "HeartRateVariabilitySDNN_avg", 0), ("StepCount", "RestingHeartRate_avg", 1),
        ].enumerated() {
            let answer = try MCPClient.structured(results[4 + index])
            let row = try db.query(
                """
                WITH pairs AS (
                    SELECT a.value AS x, b.value AS y FROM daily_rollups a JOIN daily_rollups b
                    ON b.column_name = ?2 AND b.date = date(a.date, ?3 || ' days')
                    WHERE a.column_name = ?1 AND a.date BETWEEN '2024-01-01' AND '2024-04-29'),
                ranked AS (
                    SELECT rank() OVER (ORDER BY x) + (count(*) OVER (PARTITION BY x) - 1) / 2.0 AS rx,
                           rank() OVER (ORDER BY y) + (count(*) OVER (PARTITION BY y) - 1) / 2.0 AS ry FROM pairs)
                SELECT count(*), (avg(rx * ry) - avg(rx) * avg(ry))
                    / sqrt((avg(rx * rx) - avg(rx) * avg(rx)) * (avg(ry * ry) - avg(ry) * avg(ry))) FROM ranked
                """, [.text(x), .text(y), .text(String(lag))])[0]
            let n = MCPClient.double(row[0]) ?? 0
            let rho = MCPClient.double(row[1]) ?? 0
            #expect(answer["n"]?.integerValue == Int64(n) && n > 100)
            #expect(abs((answer["rho"]?.doubleValue ?? 9) - rho) < 1e-9)
            let half = 1.959963985 / (n - 3).squareRoot()
            #expect(abs((answer["ci_low"]?.doubleValue ?? 9) - tanh(atanh(rho) - half)) < 1e-9)
            #expect(abs((answer["ci_high"]?.doubleValue ?? 9) - tanh(atanh(rho) + half)) < 1e-9)
            #expect(answer["lag_days"]?.integerValue == Int64(lag))
        }
        #expect(results[4]["text"]?.stringValue?.contains("not a cause") == true)

        let tools = results[6].arrayValue.compactMap { $0["name"]?.stringValue }
        #expect(["baseline", "compare", "correlate", "unusual"].allSatisfy(tools.contains))
        #expect(CorrelateTool.definition.description.contains("not causation"))
    }
}
