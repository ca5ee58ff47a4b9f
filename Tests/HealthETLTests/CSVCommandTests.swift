import Foundation
import HealthTestSupport
import Testing

@testable import HealthCSV
@testable import HealthETL
@testable import HealthSQLite

/// `healthetl import --csv` and `healthetl export --csv`, and daily.csv read back by Python's csv module.
struct CSVCommandTests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let output = ToolTests.Output()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        return (tool.run(arguments), output.out, output.err)
    }

    static let sample = Fixtures.repositoryRoot + "/sample-exports/export.zip"

    @Test func csvOnlyImportLeavesOnlyTheFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("out")
        let result = run(["import", Self.sample, "--csv", folder, "--timezone", "Europe/Berlin"])
        #expect(result.code == 0, "\(result.err)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        for name in ["cumulative_samples.csv", "workouts.csv", "rollups.csv"] + DailyCSV.fileNames {
            #expect(files.contains(name), "\(name)")
        }
        // The scratch database and its lock are gone; nothing else is left.
        #expect(files.allSatisfy { $0.hasSuffix(".csv") }, "\(files.sorted())")
        #expect(result.err.contains("Wrote \(files.count) CSV files"))
    }

    /// daily.csv against the database it came from, through an independent reader.
    @Test(.enabled(if: Condition.python3, "python3 is not installed"))
    func dailyCSVHoldsTheDailyRollups() throws {
        let python = try #require(Fixtures.executable("python3"))
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let folder = directory.file("out")
        #expect(run(["import", Self.sample, "--db", database, "--quiet", "--timezone", "Europe/Berlin"]).code == 0)
        let exported = run(["export", "--db", database, "--csv", folder, "--no-tables", "--json"])
        #expect(exported.code == 0, "\(exported.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == DailyCSV.fileNames.sorted())

        // Python reads daily.csv into {date: {column: value}}; it must equal daily_rollups exactly.
        let script = """
            import csv, json, sys
            rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
            header, body = rows[0], rows[1:]
            # repr: the shortest text of each double, so no JSON number conversion can round it.
            out = {r[0]: {h: repr(float(v)) for h, v in zip(header[1:], r[1:]) if v != ''} for r in body}
            print(json.dumps({"header": header, "days": out}))
            """
        let parsed = try ProcessRunner.run(python, ["-c", script, folder + "/daily.csv"])
        #expect(parsed.status == 0, "\(parsed.error)")
        let object = try jsonObject(parsed.output)
        let header = try #require(object["header"] as? [String])
        let days = try #require(object["days"] as? [String: [String: String]]).mapValues {
            $0.compactMapValues(Double.init)
        }
        #expect(header.first == "date")
        #expect(header.contains("StepCount"))
        #expect(header.contains("HeartRate_avg"))
        #expect(header.contains { $0.hasPrefix("SleepAnalysis_") && $0.hasSuffix("_hours") })

        let db = try SQLiteConnection(path: database, create: false)
        var expected: [String: [String: Double]] = [:]
        for row in try db.query("SELECT date, column_name, value FROM daily_rollups") {
            guard let date = row[0].text, let column = row[1].text, case .real(let value) = row[2] else { continue }
            expected[date, default: [:]][column] = value
        }
        let differing = Set(days.keys).union(expected.keys).filter { days[$0] != expected[$0] }.sorted()
        #expect(
            differing.isEmpty, "\(differing.prefix(2).map { ($0, days[$0]?.count ?? -1, expected[$0]?.count ?? -1) })")
        #expect(days.count == Int(try db.scalar("SELECT count(DISTINCT date) FROM daily_rollups").integer ?? -1))

        // daily_long.csv: one row per day, type and statistic, through the same reader.
        let long = try ProcessRunner.run(
            python,
            [
                "-c",
                "import csv, sys; print(len(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))) - 1)",
                folder + "/daily_long.csv",
            ])
        #expect(
            Int(long.output.trimmingCharacters(in: .whitespacesAndNewlines))
                == Int(try db.scalar("SELECT count(*) FROM daily_rollups").integer ?? -1))

        // Steps, summed by the rollups over all days, never exceed the plain sum of every source (which
        // double counts) and are at least the Watch's total (the best-ranked source always counts).
        let rollupTotal = days.values.compactMap { $0["StepCount"] }.reduce(0, +)
        let allSources = try db.scalar(
            "SELECT sum(value) FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierStepCount'")
        let bestSource = try db.scalar(
            """
            SELECT sum(s.value) FROM cumulative_samples AS s JOIN sources ON sources.id = s.source_id
            WHERE s.type = 'HKQuantityTypeIdentifierStepCount' AND sources.device_model LIKE '%Watch%'
              AND s.flags & 512 = 0
            """)
        #expect(
            try db.scalar(
                "SELECT count(DISTINCT s.source_name) FROM cumulative_samples AS s JOIN sources ON sources.id = s.source_id WHERE sources.device_model LIKE '%Watch%'"
            ) == .integer(1))
        guard case .real(let all) = allSources, case .real(let best) = bestSource else {
            Issue.record("no steps in the sample export")
            return
        }
        #expect(rollupTotal <= all + 1e-6)
        #expect(rollupTotal >= best - 1e-6)
    }

    @Test func theExcelFlavourStartsEachFileWithABOM() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("out")
        #expect(run(["import", Self.sample, "--csv", folder, "--excel", "--quiet"]).code == 0)
        let daily = try Data(contentsOf: URL(fileURLWithPath: folder + "/daily.csv"))
        #expect(Array(daily.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(String(decoding: daily.dropFirst(3).prefix(5), as: UTF8.self) == "date,")
    }

    @Test func exportNeedsADatabaseAndAFolder() {
        let result = run(["export", "--csv", "/tmp/x"])
        #expect(result.code == 64)
        #expect(result.err.contains("--db"))
    }
}

extension CSVCommandTests {
    /// A killed CSV-only run leaves its scratch database; the next run removes it (its process is gone).
    @Test func aKilledRunsScratchDatabaseIsRemoved() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // pid 2^22 + 1 is above Linux's pid_max, so no process has it.
        let stale = folder + "/\(CSVOutput.scratchPrefix)4194305.sqlite"
        FileManager.default.createFile(atPath: stale, contents: Data("x".utf8))
        #expect(run(["import", Self.sample, "--csv", folder, "--quiet", "--no-tables"]).code == 64)
        #expect(run(["import", Self.sample, "--csv", folder, "--quiet"]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { $0.hasSuffix(".csv") })
    }
}
