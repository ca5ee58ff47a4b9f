import Foundation
import HealthSchema
import HealthTestSupport
import SampleExports
import Testing

@testable import HealthETL
@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import HealthStore

/// Health Auto Export's JSON feed, stated through the CLI and SQL on the public tables and views:
/// the merge rule with exports (docs/incremental.md), the feed's shapes, bad input.
@Suite(.serialized) struct FeedImportTests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let output = ToolTests.Output()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        return (tool.run(arguments), output.out, output.err)
    }

    func query(_ database: String, _ sql: String) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: database, create: false).query(sql)
    }

    func double(_ database: String, _ sql: String) throws -> Double {
        try SQLiteConnection(path: database, create: false).scalar(sql).number ?? .nan
    }

    /// `date → value` of one daily.csv column.
    func daily(_ database: String, _ column: String) throws -> [String: Double] {
        var values: [String: Double] = [:]
        for row in try query(database, "SELECT date, value FROM daily_rollups WHERE column_name = '\(column)'") {
            if let date = row[0].text, let value = row[1].number { values[date] = value }
        }
        return values
    }

    /// A feed file of one metric.
    static func feed(_ name: String, units: String, _ points: [String]) -> String {
        """
        {"data": {"metrics": [{"name": "\(name)", "units": "\(units)", "data": [
        \(points.joined(separator: ",\n"))
        ]}]}}
        """
    }

    static func stepPoint(_ date: String, _ qty: Double) -> String {
        "{\"date\": \"\(date)\", \"qty\": \(qty), \"source\": \"Jonathan’s Apple Watch|iPhone\"}"
    }

    // MARK: - Feed and exports from the generator's one truth

    /// Export of 10 days (exported at 18:00 on its last day), the daily feed files of the 6 days after it, and
    /// the export of all 16 days: the days the feed fills agree with the later export's own totals within
    /// 0.5 %, the export's last day (part export, part feed) within 3 %; after the later export, every day is
    /// the later export's.
    @Test func feedFillsTheDaysAfterAnExportAndTheNextExportRepairsThem() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 7, days: 10)
        options.scale = 0.5
        options.startDate = Date(timeIntervalSince1970: 1_711_281_600)  // 2024-03-24
        options.exportOffset = "+0200"
        options.exportTimeOfDay = 18 * 3_600
        try ExportGenerator(options: options).write(to: .zip(directory.file("first.zip")))
        var later = options
        later.days = 16
        try FeedGenerator(options: later, exportDays: 10).write(to: directory.file("feed"))
        later.exportTimeOfDay = nil
        try ExportGenerator(options: later).write(to: .zip(directory.file("later.zip")))

        let merged = directory.file("merged.sqlite")
        let fresh = directory.file("fresh.sqlite")
        for arguments in [
            ["import", directory.file("first.zip"), "--db", merged, "--timezone", "Europe/Berlin"],
            ["import", directory.file("feed"), "--db", merged],
            ["import", directory.file("later.zip"), "--db", fresh, "--timezone", "Europe/Berlin"],
        ] {
            let result = run(arguments)
            #expect(result.code == 0, "\(arguments): \(result.err)")
        }
        // The export's last day is 2024-04-02 (until 18:00); the feed fills from there to 2024-04-08.
        for column in ["StepCount", "ActiveEnergyBurned", "BasalEnergyBurned", "DistanceWalkingRunning"] {
            let fed = try daily(merged, column)
            let truth = try daily(fresh, column)
            for day in 3...8 {
                let date = String(format: "2024-04-%02d", day)
                let want = try #require(truth[date], "\(column) \(date)")
                let got = fed[date] ?? 0
                #expect(abs(got - want) <= 0.005 * want, "\(column) \(date): feed \(got), export \(want)")
            }
            let want = try #require(truth["2024-04-02"])
            let got = fed["2024-04-02"] ?? 0
            #expect(abs(got - want) <= 0.03 * want, "\(column) 2024-04-02: export + feed \(got), export \(want)")
            // Days the first export covered whole are its own, untouched by the feed.
            for day in 24...31 {
                let date = "2024-03-\(day)"
                #expect(fed[date] == truth[date], "\(column) \(date)")
            }
        }
        // The feed is marked, and only after the first export's ExportDate.
        #expect(try double(merged, "SELECT count(*) FROM cumulative_samples WHERE origin = 1") > 1_000)
        #expect(
            try double(
                merged,
                "SELECT count(*) FROM cumulative_samples WHERE origin = 1 AND start_date < '2024-04-02T16:00:00Z'")
                == 0)
        let status = run(["status", "--db", merged])
        #expect(
            status.out.contains("export through 2024-04-02T16:00:00Z; Health Auto Export feed through 2024-04-08T2"),
            "\(status.out)")

        // The later export replaces the feed: every day as a fresh import of it; the feed rows archived.
        let repaired = run(["import", directory.file("later.zip"), "--db", merged])
        #expect(repaired.code == 0, "\(repaired.err)")
        let connection = try SQLiteConnection(path: merged, create: false)
        try connection.execute("ATTACH '\(fresh)' AS fresh")
        for (left, right) in [("main", "fresh"), ("fresh", "main")] {
            let differing = try connection.scalar(
                """
                SELECT count(*) FROM (SELECT date, column_name, value, sources FROM \(left).daily_rollups
                    EXCEPT SELECT date, column_name, value, sources FROM \(right).daily_rollups)
                """)
            #expect(differing.integer == 0, "daily rollups in \(left) but not in \(right)")
        }
        for table in ["cumulative_samples", "discrete_samples", "category_samples", "workouts"] {
            #expect(try connection.scalar("SELECT count(*) FROM \(table) WHERE origin = 1").integer == 0, "\(table)")
            #expect(
                try connection.scalar("SELECT count(*) FROM \(table)").integer
                    == connection.scalar("SELECT count(*) FROM fresh.\(table)").integer, "\(table)")
        }
        let archived = try connection.scalar(
            "SELECT count(*) FROM deleted_samples WHERE reason = 'feed_superseded' AND row_table = 'cumulative_samples'"
        )
        #expect((archived.integer ?? 0) > 1_000)
        #expect(repaired.err.contains("feed rows this export covers, replaced by its own (in deleted_samples)"))
    }

    // MARK: - Overlapping files, duplicates, older than the export

    @Test func overlappingFilesReplaceNeverAdd() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("feed.sqlite")
        let first = directory.write(
            "day1.json",
            Self.feed(
                "step_count", units: "count",
                [
                    Self.stepPoint("2024-05-01 10:00:00 +0200", 100), Self.stepPoint("2024-05-01 10:01:00 +0200", 50),
                    Self.stepPoint("2024-05-01 23:59:00 +0200", 10),
                ]))
        // Sent again a day later: the 10:01 bucket grew (a late Watch sync), 23:59 is gone, the next day begins.
        let second = directory.write(
            "day2.json",
            Self.feed(
                "step_count", units: "count",
                [
                    Self.stepPoint("2024-05-01 10:00:00 +0200", 100), Self.stepPoint("2024-05-01 10:01:00 +0200", 80),
                    Self.stepPoint("2024-05-02 08:00:00 +0200", 30),
                ]))
        for file in [first, first, second, second] {
            let result = run(["import", file, "--db", database, "--timezone", "Europe/Berlin", "--rescan"])
            #expect(result.code == 0, "\(result.err)")
        }
        let steps = try daily(database, "StepCount")
        #expect(steps["2024-05-01"] == 180)
        #expect(steps["2024-05-02"] == 30)
        #expect(try double(database, "SELECT count(*) FROM cumulative_samples") == 3)
        let archived = try query(database, "SELECT reason, count(*) FROM deleted_samples GROUP BY reason")
        #expect(archived.map { [$0[0].text ?? "", "\($0[1].integer ?? 0)"] } == [["feed_resent", "2"]])
        // The same file twice changed nothing: the second run of each found every row unchanged. The second
        // file kept 10:00, added its 10:01 and 08:00, and replaced the first file's 10:01 and 23:59.
        let runs = try query(database, "SELECT added, replaced, deleted, unchanged FROM import_runs ORDER BY id")
        #expect(
            runs.map { $0.map { $0.integer ?? -1 } } == [[3, 0, 0, 0], [0, 0, 0, 3], [2, 2, 0, 1], [0, 0, 0, 3]])
    }

    @Test func duplicateAndOutOfOrderPointsInOneFileKeepTheLater() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("feed.sqlite")
        let file = directory.write(
            "feed.json",
            Self.feed(
                "step_count", units: "count",
                [
                    Self.stepPoint("2024-05-01 10:05:00 +0200", 5), Self.stepPoint("2024-05-01 10:00:00 +0200", 100),
                    Self.stepPoint("2024-05-01 10:05:00 +0200", 7), Self.stepPoint("2024-05-01 09:00:00 +0200", 1),
                ]))
        let result = run(["import", file, "--db", database, "--timezone", "Europe/Berlin"])
        #expect(result.code == 0, "\(result.err)")
        #expect(try daily(database, "StepCount")["2024-05-01"] == 108)
        #expect(result.err.contains("points given twice in one file (the later kept): 1"), "\(result.err)")
    }

    @Test func aFeedOlderThanTheExportChangesNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let export = directory.write(
            "export.xml",
            exportXML(
                """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-02-29 10:00:00 +0100" endDate="2024-02-29 10:10:00 +0100" value="500"/>
                """))
        #expect(run(["import", export, "--db", database, "--timezone", "Europe/Berlin"]).code == 0)
        let before = try dataContent(of: database)
        let old = directory.write(
            "old.json", Self.feed("step_count", units: "count", [Self.stepPoint("2024-02-29 10:00:00 +0100", 999)]))
        let result = run(["import", old, "--db", database])
        #expect(result.code == 0, "\(result.err)")
        #expect(
            result.err.contains(
                "this feed lies entirely before the last export (ExportDate 2024-03-01T09:00:00Z): nothing changed"),
            "\(result.err)")
        var after = try dataContent(of: database)
        after["settings"] = before["settings"]  // the last ids, rewritten as they were
        #expect(after.keys == before.keys)
        for (table, rows) in before where table != "settings" { #expect(after[table] == rows, "\(table)") }
    }

    // MARK: - Bad input

    @Test(arguments: [
        (
            "{\"data\": {\"metrics\": [{\"name\": \"step_count\", \"units\": \"count\", \"data\": [\n{\"date\": \"2024-05-01 10:00:00 +0200\", \"qty\": 1},\n{\"date\": \"2024-05-01 10:01:00",
            "3:30: error: invalid JSON: unterminated string"
        ),
        (
            "{\"data\": {\"metrics\": [{\"name\": \"step_count\", \"units\": \"count\", \"data\": [\n{\"date\": \"2024-05-01 10:00:00 +0200\", \"qty\": 1},\n{\"date\": \"2024-05-01 10:01:00 +0200\", \"qty\": 12x}]}]}}",
            "3:48: error: invalid JSON: expected ',' or '}'"
        ),
    ])
    func invalidJSONIsOneLineWithItsPlace(text: String, expected: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let good = directory.write(
            "good.json", Self.feed("step_count", units: "count", [Self.stepPoint("2024-04-30 10:00:00 +0200", 3)]))
        #expect(run(["import", good, "--db", database, "--timezone", "Europe/Berlin"]).code == 0)
        let before = try dataContent(of: database)
        let bad = directory.write("bad.json", text)
        let result = run(["import", bad, "--db", database])
        #expect(result.code == 65)
        let line = result.err.split(separator: "\n").first { $0.contains("error:") }.map(String.init) ?? ""
        #expect(line == "healthetl: \(bad):\(expected)", "\(result.err)")
        #expect(try dataContent(of: database) == before)
        // A new database is not created at all.
        #expect(run(["import", bad, "--db", directory.file("new.sqlite")]).code == 65)
        #expect(!FileManager.default.fileExists(atPath: directory.file("new.sqlite")))
    }

    // MARK: - Shapes

    @Test func shapesOfTheFeed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let file = directory.write(
            "shapes.json",
            """
            {"data": {"workouts": [{"id": "A1", "name": "Outdoor Run", "start": "2024-05-01 07:00:00 +0200",
               "end": "2024-05-01 07:30:00 +0200", "duration": 1800, "distance": {"qty": 5.2, "units": "km"},
               "activeEnergyBurned": {"qty": 350, "units": "kcal"}}],
              "stateOfMind": [{"id": "S1", "start": "2024-05-01 12:00:00 +0200", "end": "2024-05-01 12:00:00 +0200",
               "kind": "dailyMood", "valence": 0.5, "labels": ["Happy"], "associations": []}],
              "metrics": [
              {"data": [{"date": "2024-05-01 10:00:00 +0200", "Min": 60, "Avg": 70, "Max": 90}], "units": "bpm", "name": "heart_rate"},
              {"name": "blood_pressure", "units": "mmHg", "data": [{"date": "2024-05-01 08:00:00 +0200", "systolic": 121, "diastolic": 79}]},
              {"name": "blood_glucose", "units": "mmol/L", "data": [{"date": "2024-05-01 08:05:00 +0200", "qty": 5.5, "mealTime": "Before Meal"}]},
              {"name": "blood_oxygen_saturation", "units": "%", "data": [{"date": "2024-05-01 03:00:00 +0200", "qty": 97}]},
              {"name": "sleep_analysis", "units": "hr", "data": [
                {"date": "2024-05-01", "asleep": 7, "core": 4, "deep": 1, "rem": 2, "awake": 0.5, "inBed": 8,
                 "sleepStart": "2024-04-30 23:00:00 +0200", "sleepEnd": "2024-05-01 07:00:00 +0200", "source": "Watch"}]},
              {"name": "sleep_analysis", "units": "hr", "data": [
                {"startDate": "2024-05-01 23:00:00 +0200", "endDate": "2024-05-02 01:00:00 +0200", "qty": 2, "value": "Core", "source": null},
                {"startDate": "2024-05-02 01:00:00 +0200", "endDate": "2024-05-02 02:30:00 +0200", "qty": 1.5, "value": "Deep", "source": null}]},
              {"name": "apple_stand_hour", "units": "count", "data": [{"date": "2024-05-01 09:00:00 +0200", "qty": 1}]},
              {"name": "mystery_metric", "units": "zz", "data": [{"date": "2024-05-01 09:00:00 +0200", "qty": 4, "note": "x"}]}
            ]}}
            """)
        let result = run(["import", file, "--db", database, "--timezone", "Europe/Berlin"])
        #expect(result.code == 0, "\(result.err)")
        func value(_ sql: String) throws -> Double { try double(database, sql) }
        #expect(try value("SELECT value FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate'") == 70)
        #expect(try value("SELECT number FROM metadata WHERE key = 'max'") == 90)
        #expect(
            try value("SELECT value FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierBloodPressureSystolic'")
                == 121)
        #expect(
            abs(
                try value("SELECT value FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierBloodGlucose'")
                    - 99.09) < 0.01)
        #expect(
            try value("SELECT value FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierOxygenSaturation'")
                == 0.97)
        let sleep = try daily(database, "SleepAnalysis_AsleepCore_hours")
        #expect(sleep["2024-05-01"] == 4)
        #expect(sleep["2024-05-02"] == 2)
        #expect(try daily(database, "SleepAnalysis_AsleepDeep_hours")["2024-05-02"] == 1.5)
        #expect(try daily(database, "SleepAnalysis_InBed_hours")["2024-05-01"] == 8)
        #expect(try daily(database, "AppleStandHour_Stood_hours")["2024-05-01"] == 1)
        #expect(try value("SELECT value FROM discrete_samples WHERE type = 'HealthAutoExport:mystery_metric'") == 4)
        #expect(
            result.err.contains(
                "Health Auto Export metrics not in healthetl's table (stored as HealthAutoExport:mystery_metric): mystery_metric"
            ))
        let workout = try query(
            database, "SELECT activity_type, total_distance, total_energy_burned, origin FROM workouts")
        #expect(workout.first?[0].text == "HKWorkoutActivityTypeRunning")
        #expect(workout.first?[1].number == 5_200)
        #expect(workout.first?[3].integer == 1)
        #expect(try value("SELECT valence FROM state_of_mind") == 0.5)
        // Every row of the file is marked as the feed's.
        #expect(
            try value(
                "SELECT count(*) FROM (SELECT origin FROM discrete_samples UNION ALL SELECT origin FROM category_samples) WHERE origin <> 1"
            ) == 0)
        // Again: nothing new (the State of Mind entry is not doubled either).
        #expect(run(["import", file, "--db", database, "--rescan"]).code == 0)
        #expect(try value("SELECT count(*) FROM state_of_mind") == 1)
        #expect(try value("SELECT count(*) FROM workouts") == 1)
    }

    /// Every name of the metric table maps to a type healthetl knows (the catalog, or a correlation).
    @Test func metricTableNamesKnownTypes() {
        for metric in HealthAutoExportMetrics.all {
            let known = TypeCatalog.isKnown(metric.identifier) || metric.identifier.hasPrefix("HKCorrelationType")
            #expect(known, "\(metric.name) → \(metric.identifier)")
        }
        #expect(HealthAutoExportMetrics.all.count > 100)
        #expect(Set(HealthAutoExportMetrics.all.map(\.name)).count == HealthAutoExportMetrics.all.count)
    }

    /// A pipeline whose input is a folder of feed files, as a synced drop folder holds them: run twice, the
    /// second run finds the same files and changes nothing.
    @Test func pipelineTakesAFolderOfFeedFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("feed"), withIntermediateDirectories: true)
        _ = directory.write(
            "feed/HealthAutoExport-2024-05-01.json",
            Self.feed("step_count", units: "count", [Self.stepPoint("2024-05-01 10:00:00 +0200", 100)]))
        _ = directory.write(
            "feed/HealthAutoExport-2024-05-02.json",
            Self.feed(
                "step_count", units: "count",
                [Self.stepPoint("2024-05-01 10:00:00 +0200", 120), Self.stepPoint("2024-05-02 09:00:00 +0200", 40)]))
        let pipeline = directory.write(
            "feed.json",
            """
            {"version": 1, "timeZone": "Europe/Berlin", "input": {"export": "\(directory.file("feed"))"},
             "sinks": [{"sqlite": "\(directory.file("health.sqlite"))"}]}
            """)
        let first = run(["run", pipeline])
        #expect(first.code == 0, "\(first.err)")
        let steps = try daily(directory.file("health.sqlite"), "StepCount")
        #expect(steps == ["2024-05-01": 120, "2024-05-02": 40])
        let second = run(["run", pipeline, "--json"])
        #expect(second.code == 0, "\(second.err)")
        #expect(
            second.out.contains("\"outcome\" : \"unchanged\"") || second.out.contains("\"outcome\":\"unchanged\""),
            "\(second.out)")
    }

    /// A database of schema 3, from before the feed (no `origin`), gets the column when it is upgraded, 0 for
    /// all of its rows, and then takes the feed.
    @Test func aDatabaseFromBeforeTheFeedGetsOrigin() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let current = directory.file("current.sqlite")
        let sample = Fixtures.repositoryRoot + "/sample-exports/export.zip"
        #expect(run(["import", sample, "--db", current, "--timezone", "Europe/Berlin"]).code == 0)
        let database = directory.file("health.sqlite")
        try makeVersion3Database(from: current, at: database)
        #expect(
            try query(database, "SELECT count(*) FROM pragma_table_info('cumulative_samples') WHERE name = 'origin'")
                == [[.integer(0)]])
        let feed = directory.write(
            "feed.json", Self.feed("step_count", units: "count", [Self.stepPoint("2024-04-08 10:00:00 +0200", 100)]))
        let result = run(["import", feed, "--db", database])
        #expect(result.code == 0, "\(result.err)")
        #expect(try query(database, "PRAGMA user_version") == [[.integer(Int64(Schema.userVersion))]])
        let origins = try query(
            database, "SELECT origin, count(*) FROM cumulative_samples GROUP BY origin ORDER BY origin")
        #expect(origins.count == 2)
        #expect(origins.last?.map(\.integer) == [1, 1])
        #expect(try query(database, "SELECT DISTINCT origin FROM workouts") == [[.integer(0)]])
    }

    /// docs/feed.md lists every name of the metric table.
    @Test func feedDocumentationListsEveryMetric() throws {
        let text = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/feed.md", encoding: .utf8)
        for metric in HealthAutoExportMetrics.all { #expect(text.contains("`\(metric.name)`"), "\(metric.name)") }
    }

    // MARK: - Real payloads (../shared)

    static let dailyPayload = Fixtures.real("hae/HealthAutoExport-2022-12-25-2023-03-25.json")
    static let perMinutePayload = Fixtures.real("hae/HealthAutoExport-2023-01-20.json")

    @Test(.enabled(if: dailyPayload != nil, "../shared/fixtures/real/hae is not present"))
    func realDailyPayloadImportsWithItsTotals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let file = try #require(Self.dailyPayload)
        let result = run(["import", file, "--db", database, "--timezone", "Australia/Sydney"])
        #expect(result.code == 0, "\(result.err)")
        func total(_ type: String) throws -> Double {
            try double(
                database, "SELECT sum(value) FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifier\(type)'")
        }
        // The sums of the file's own qty fields (python3 -c 'json.load…').
        #expect(abs(try total("StepCount") - 1_411_765.951) < 0.01)
        #expect(abs(try total("ActiveEnergyBurned") - 62_628.526) < 0.01)
        #expect(try total("AppleExerciseTime") == 5_675)
        #expect(abs(try total("DietaryProtein") - 14_164.912) < 0.01)
        let steps = try daily(database, "StepCount")
        #expect(steps.count == 91)
        #expect(steps["2022-12-25"] == 15_291)
        #expect(try double(database, "SELECT count(*) FROM workouts") == 7)
        #expect(try daily(database, "AppleStandHour_Stood_hours").values.reduce(0, +).rounded() == 1_366)
        #expect(abs(try daily(database, "SleepAnalysis_AsleepCore_hours")["2022-12-25"]! - 3.983) < 0.001)
    }

    @Test(.enabled(if: perMinutePayload != nil, "../shared/fixtures/real/hae is not present"))
    func realPerMinutePayloadImportsWithItsTotals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let file = try #require(Self.perMinutePayload)
        let result = run(["import", file, "--db", database, "--timezone", "Australia/Sydney"])
        #expect(result.code == 0, "\(result.err)")
        let active = try daily(database, "ActiveEnergyBurned")["2023-01-20"] ?? 0
        let basal = try daily(database, "BasalEnergyBurned")["2023-01-20"] ?? 0
        #expect(abs(active - 801.266) < 0.01)  // kcal as written
        #expect(abs(basal - 7_479.296 / 4.184) < 0.01)  // kJ as written, converted
        #expect(
            try double(
                database, "SELECT count(*) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate'")
                == 636)
        #expect(
            try query(
                database,
                "SELECT DISTINCT raw_unit FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierBasalEnergyBurned'"
            ).first?[0].text == "kJ")
        // The same file again: nothing changes.
        let again = run(["import", file, "--db", database, "--rescan"])
        #expect(again.code == 0)
        #expect(
            try query(database, "SELECT added, replaced FROM import_runs ORDER BY id DESC LIMIT 1").first?.map {
                $0.integer
            } == [0, 0])
    }
}
