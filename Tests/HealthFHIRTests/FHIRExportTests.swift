import Foundation
import HealthImport
import HealthSQLite
import HealthTestSupport
import SampleExports
import Testing

@testable import HealthETL
@testable import HealthFHIR

/// The venv scripts/test makes (`scripts/python-venv .build/fhir-venv fhir.resources==… jsonschema==…`).
enum FHIRValidator {
    static let venv = Fixtures.repositoryRoot + "/.build/fhir-venv"
    static let python = venv + "/bin/python3"

    static var isInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: python),
            let lib = try? FileManager.default.contentsOfDirectory(atPath: venv + "/lib")
        else { return false }
        return lib.contains {
            FileManager.default.fileExists(atPath: "\(venv)/lib/\($0)/site-packages/fhir/resources/R4B/__init__.py")
        }
    }

    /// fhir_check.py's answer for a folder: counts per resource type and the first errors.
    static func check(_ folder: String) throws -> [String: Any] {
        let result = try ProcessRunner.run(
            python, [Fixtures.repositoryRoot + "/Tests/HealthFHIRTests/fhir_check.py", folder], timeout: 600)
        guard result.status == 0,
            let answer = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        else { throw Failure(description: "fhir_check.py failed: \(result.error)") }
        return answer
    }

    struct Failure: Error, CustomStringConvertible { var description: String }
}

/// The repository's sample export (14 days), or a generated year (seed 42, scale 0.05, no side files),
/// imported once per test process.
enum SampleDatabase {
    static let cache = OnceCache<String, String>()

    static func path(_ name: String = "sample") throws -> String {
        try cache.value(name) {
            let folder = TemporaryDirectory.removedAtExit("fhir-\(name)")
            let database = folder.file("health.sqlite")
            var input = Fixtures.repositoryRoot + "/sample-exports/export.zip"
            if name == "year" {
                var options = GeneratorOptions(seed: 42, days: 365, profile: .ios18)
                options.scale = 0.05
                options.includeSideFiles = false
                input = try GeneratedExport.zip(options).path
            }
            _ = try ImportJob(
                inputPath: input, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")!
            ).run()
            return database
        }
    }
}

@discardableResult
func runTool(_ arguments: [String]) throws -> CapturedOutput {
    let output = CapturedOutput()
    let tool = Tool(standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
    let code = tool.run(arguments)
    guard code == 0 else { throw FHIRValidator.Failure(description: "\(arguments) → \(code): \(output.err)") }
    return output
}

/// Each line of an NDJSON file as a JSON object.
func ndjson(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

/// A number column (REAL or INTEGER) as a Double.
func real(_ value: SQLiteValue) -> Double {
    switch value {
    case .real(let number): number
    case .integer(let number): Double(number)
    default: .nan
    }
}

func coding(_ resource: [String: Any]) -> (system: String, code: String) {
    let code = resource["code"] as? [String: Any]
    let first = (code?["coding"] as? [[String: Any]])?.first
    return (first?["system"] as? String ?? "", first?["code"] as? String ?? "")
}

func quantity(_ object: [String: Any]?) -> (value: Double, unit: String) {
    let quantity = object?["valueQuantity"] as? [String: Any]
    return ((quantity?["value"] as? NSNumber)?.doubleValue ?? .nan, quantity?["code"] as? String ?? "")
}

@Suite struct FHIRExportTests {
    /// Every resource parses with fhir.resources' R4B models, at both levels and as a Bundle.
    @Test(
        .enabled(if: FHIRValidator.isInstalled, "fhir.resources is not in .build/fhir-venv: run scripts/test once"),
        arguments: [[], ["--level", "samples"], ["--bundle"], ["--no-patient", "--level", "samples", "--bundle"]])
    func everyResourceParsesWithFHIRResources(flags: [String]) throws {
        let folder = TemporaryDirectory("fhir-valid")
        defer { folder.remove() }
        let out = folder.file("fhir")
        let summary = try runTool(["export", "--db", try SampleDatabase.path(), "--fhir", out, "--json"] + flags)
        let answer = try FHIRValidator.check(out)
        #expect(answer["error_count"] as? Int == 0, "\(answer["errors"] ?? "")")
        let counts = answer["counts"] as? [String: Int] ?? [:]
        let prefix = flags.contains("--bundle") ? "entry:" : ""
        #expect((counts[prefix + "Observation"] ?? 0) > 100)
        #expect((counts[prefix + "Device"] ?? 0) > 3)
        #expect(counts[prefix + "Patient"] == (flags.contains("--no-patient") ? nil : 1))
        if flags.contains("--bundle") { #expect(counts["Bundle"] == 1) }
        #expect(summary.out.contains("\"fhir\""))
    }

    /// Steps, active energy, exercise minutes and sleep per day equal `daily_rollups` for every day the
    /// rollups hold, in the sample export and a generated year; every blood-pressure Observation equals its
    /// correlation's two readings.
    @Test(arguments: [("sample", 14), ("year", 365)])
    func theNumbersEqualTheDatabase(database name: String, days: Int) throws {
        let database = try SampleDatabase.path(name)
        let folder = TemporaryDirectory("fhir-numbers")
        defer { folder.remove() }
        try runTool(["export", "--db", database, "--fhir", folder.path, "--quiet"])
        let observations = try ndjson(folder.file("Observation.ndjson"))
        let connection = try SQLiteConnection(path: database, create: false)
        func daily(_ code: String) -> [String: Double] {
            var values: [String: Double] = [:]
            for observation in observations where coding(observation).code == code {
                let period = observation["effectivePeriod"] as? [String: Any]
                values[period?["start"] as? String ?? ""] = quantity(observation).value
            }
            return values
        }
        for (type, code) in [
            ("HKQuantityTypeIdentifierStepCount", "41950-7"), ("HKQuantityTypeIdentifierActiveEnergyBurned", "41981-2"),
            ("HKQuantityTypeIdentifierAppleExerciseTime", "55411-3"),
        ] {
            let expected = try connection.query(
                "SELECT date, value FROM daily_rollups WHERE type = ?1 AND statistic = 'sum'", [.text(type)])
            let written = daily(code)
            // Every day of the sample export has steps; the other metrics most days.
            #expect(expected.count >= (type.hasSuffix("StepCount") ? days : days / 2), "\(type)")
            #expect(written.count == expected.count, "\(type)")
            for row in expected {
                let value = written[row[0].text ?? ""] ?? .nan
                #expect(abs(value - real(row[1])) <= 1e-6 * max(1, abs(real(row[1]))), "\(type) \(row[0])")
            }
        }
        // Sleep: each night's total asleep and its stages, against the daily sleep rollups.
        let nights = try connection.query(
            """
            SELECT date, sum(CASE WHEN statistic LIKE 'Asleep%' THEN value ELSE 0 END), count(*)
            FROM daily_rollups WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis' GROUP BY date
            """)
        let sleep = observations.filter { coding($0).code == "93832-4" }
        #expect(!nights.isEmpty && sleep.count == nights.count)
        for night in nights {
            let observation = sleep.first {
                ($0["effectivePeriod"] as? [String: Any])?["start"] as? String == night[0].text
            }
            let total = quantity(observation).value
            #expect(abs(total - real(night[1])) < 1e-6, "\(night[0])")
            #expect((observation?["component"] as? [Any])?.count == Int(night[2].integer ?? -1))
        }
        // Blood pressure: every correlation with both readings, the same two numbers.
        let pairs = try connection.query(
            """
            SELECT c.identity,
                (SELECT d.value FROM correlation_samples s JOIN discrete_samples d ON d.id = s.sample_id
                 WHERE s.correlation_id = c.id AND d.type = 'HKQuantityTypeIdentifierBloodPressureSystolic'),
                (SELECT d.value FROM correlation_samples s JOIN discrete_samples d ON d.id = s.sample_id
                 WHERE s.correlation_id = c.id AND d.type = 'HKQuantityTypeIdentifierBloodPressureDiastolic')
            FROM correlations c WHERE c.type = 'HKCorrelationTypeIdentifierBloodPressure'
            """)
        let panels = observations.filter { coding($0).code == "85354-9" }
        #expect(!pairs.isEmpty && panels.count == pairs.count)
        for pair in pairs {
            let id = FHIRResources.id(
                ["Observation", "HKCorrelationTypeIdentifierBloodPressure"], identity: pair[0].integer!)
            let panel = try #require(panels.first { $0["id"] as? String == id })
            let components = panel["component"] as? [[String: Any]] ?? []
            #expect(components.map { coding($0).code } == ["8480-6", "8462-4"])
            #expect(components.map { quantity($0).value } == [real(pair[1]), real(pair[2])])
            #expect(components.allSatisfy { quantity($0).unit == "mm[Hg]" })
        }
    }

    /// At `--level samples`, every usable heart-rate sample is one Observation, with its value.
    @Test func samplesLevelWritesEverySample() throws {
        let database = try SampleDatabase.path()
        let folder = TemporaryDirectory("fhir-samples")
        defer { folder.remove() }
        try runTool(["export", "--db", database, "--fhir", folder.path, "--level", "samples", "--quiet"])
        let observations = try ndjson(folder.file("Observation.ndjson"))
        let connection = try SQLiteConnection(path: database, create: false)
        let expected = try connection.scalar(
            "SELECT count(*), total(value) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate' "
                + "AND value IS NOT NULL AND flags & 320 = 0")
        let heart = observations.filter { coding($0).code == "8867-4" }
        #expect(heart.count == Int(expected.integer ?? -1) && heart.count > 100)
        let sum = try connection.scalar(
            "SELECT total(value) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate' "
                + "AND value IS NOT NULL AND flags & 320 = 0")
        #expect(abs(heart.reduce(0) { $0 + quantity($1).value } - real(sum)) < 1e-6)
        // Ids are unique across the file: a server's upsert needs it.
        #expect(Set(observations.compactMap { $0["id"] as? String }).count == observations.count)
    }

    /// Every Observation's code and unit is a row of docs/fhir.md's table, and the table is the code's.
    @Test func codesAndUnitsFollowTheMappingTable() throws {
        let page = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/fhir.md", encoding: .utf8)
        // | HealthKit type | level | system | code | display | unit |
        var table = Set<String>()
        for line in page.split(separator: "\n") where line.hasPrefix("| `HK") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6 else { continue }
            table.insert(
                [cells[0], cells[2], cells[3], cells[5]].joined(separator: " ").replacingOccurrences(of: "`", with: ""))
        }
        #expect(
            table.contains(
                "HKCorrelationTypeIdentifierBloodPressure LOINC \(FHIRMapping.bloodPressurePanel.code) mm[Hg]"))
        #expect(table.contains("\(FHIRMapping.sleepType) LOINC \(FHIRMapping.sleepDuration.code) h"))
        for mapping in FHIRMapping.quantities {
            let system = mapping.system == FHIRMapping.healthKitSystem ? "HealthKit" : "LOINC"
            #expect(table.contains("\(mapping.type) \(system) \(mapping.code) \(mapping.unit)"), "\(mapping.type)")
            if let daily = mapping.dailyCode {
                #expect(table.contains("\(mapping.type) \(system) \(daily.code) \(daily.unit)"), "\(mapping.type)")
            }
        }
        let folder = TemporaryDirectory("fhir-codes")
        defer { folder.remove() }
        try runTool(["export", "--db", try SampleDatabase.path(), "--fhir", folder.path, "--quiet"])
        let codesInTable = Set(table.map { $0.split(separator: " ")[2] })
        for observation in try ndjson(folder.file("Observation.ndjson")) {
            let (system, code) = coding(observation)
            #expect(codesInTable.contains(Substring(code)), "\(code)")
            #expect(system == "http://loinc.org" || system == FHIRMapping.healthKitSystem)
            if let value = observation["valueQuantity"] as? [String: Any] {
                #expect(value["system"] as? String == "http://unitsofmeasure.org")
            }
        }
    }

    /// Owner-only files; a second run over the same database rewrites nothing; stale files are removed.
    @Test func unchangedFilesAreNotRewritten() throws {
        let database = try SampleDatabase.path()
        let folder = TemporaryDirectory("fhir-unchanged")
        defer { folder.remove() }
        var first = FHIRExport.Options()
        first.level = .daily
        let report = try FHIRExport.write(databasePath: database, to: folder.path, options: first)
        #expect(report.written.sorted() == ["Device.ndjson", "Observation.ndjson", "Patient.ndjson"])
        var inodes: [String: UInt64] = [:]
        for name in report.written {
            var status = stat()
            #expect(stat(folder.file(name), &status) == 0 && status.st_mode & 0o777 == 0o600)
            inodes[name] = UInt64(status.st_ino)
        }
        let again = try FHIRExport.write(databasePath: database, to: folder.path, options: first)
        #expect(again.written == [] && again.unchanged.count == 3)
        for (name, inode) in inodes {
            var status = stat()
            #expect(stat(folder.file(name), &status) == 0 && UInt64(status.st_ino) == inode, "\(name) was rewritten")
        }
        var bundle = first
        bundle.bundle = true
        let switched = try FHIRExport.write(databasePath: database, to: folder.path, options: bundle)
        #expect(switched.written == ["bundle.json"])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["bundle.json"])
        // Types the mapping does not cover are counted, never silently dropped.
        #expect((report.typesLeftOut["HKQuantityTypeIdentifierBasalEnergyBurned"] ?? 0) > 0)
    }

    @Test func aBadLevelIsAUsageError() throws {
        let output = CapturedOutput()
        let tool = Tool(standardOutput: { _ in }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(["export", "--db", try SampleDatabase.path(), "--fhir", "/tmp/x", "--level", "hourly"])
        #expect(code != 0)
        #expect(output.err.contains("'--level'"))
    }
}

/// IEEE 1752.1 data points: validated with jsonschema against the published schemas (ieee1752-schemas/), and
/// the same numbers as the database.
@Suite struct IEEE1752ExportTests {
    static func check(_ folder: String) throws -> [String: Any] {
        let result = try ProcessRunner.run(
            FHIRValidator.python, [Fixtures.repositoryRoot + "/Tests/HealthFHIRTests/ieee_check.py", folder],
            timeout: 600)
        guard result.status == 0,
            let answer = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        else { throw FHIRValidator.Failure(description: "ieee_check.py failed: \(result.error)") }
        return answer
    }

    @Test(
        .enabled(if: FHIRValidator.isInstalled, "jsonschema is not in .build/fhir-venv: run scripts/test once"),
        arguments: [ExportLevel.daily, .samples])
    func everyDataPointValidatesAgainstThePublishedSchemas(level: ExportLevel) throws {
        let folder = TemporaryDirectory("ieee-valid")
        defer { folder.remove() }
        let out = folder.file("ieee")
        let report = try IEEE1752Export.write(databasePath: try SampleDatabase.path(), to: out, level: level)
        let answer = try Self.check(out)
        #expect(answer["error_count"] as? Int == 0, "\(answer["errors"] ?? "")")
        #expect(answer["counts"] as? [String: Int] == report.counts)
        #expect(Set(report.counts.keys) == Set(IEEE1752DataPoints.schemas.map(\.name)))
        // The check can fail: a unit the step-count schema does not allow is reported.
        let broken = folder.file("broken")
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        let steps = try String(contentsOfFile: out + "/step-count.ndjson", encoding: .utf8)
        try steps.replacingOccurrences(of: #""unit":"steps""#, with: #""unit":"paces""#)
            .write(toFile: broken + "/step-count.ndjson", atomically: true, encoding: .utf8)
        #expect((try Self.check(broken))["error_count"] as? Int == report.counts["step-count"])
    }

    /// Steps per day and each night's sleep equal `daily_rollups`; every blood-pressure pair is a correlation's.
    @Test func theNumbersEqualTheDatabase() throws {
        let database = try SampleDatabase.path()
        let folder = TemporaryDirectory("ieee-numbers")
        defer { folder.remove() }
        try runTool(["export", "--db", database, "--ieee1752", folder.path, "--quiet"])
        let connection = try SQLiteConnection(path: database, create: false)
        let steps = try ndjson(folder.file("step-count.ndjson")).map {
            (($0["body"] as? [String: Any])?["step_count"] as? [String: Any])?["value"] as? Double ?? .nan
        }
        let expectedSteps = try connection.query(
            "SELECT value FROM daily_rollups WHERE type = 'HKQuantityTypeIdentifierStepCount' AND statistic = 'sum' "
                + "ORDER BY date"
        ).map { real($0[0]) }
        #expect(steps.count == 14 && steps.count == expectedSteps.count)
        for (written, expected) in zip(steps, expectedSteps) { #expect(abs(written - expected) < 1e-6) }
        let nights = try ndjson(folder.file("sleep-episode.ndjson")).map { point -> (String, Double) in
            let body = point["body"] as? [String: Any]
            let interval = (body?["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: Any]
            let total = (body?["total_sleep_time"] as? [String: Any])?["value"] as? Double ?? .nan
            return (interval?["date"] as? String ?? "", total)
        }
        let expectedNights = try connection.query(
            """
            SELECT date, sum(value) FROM daily_rollups WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
            AND statistic LIKE 'Asleep%' GROUP BY date ORDER BY date
            """)
        #expect(!nights.isEmpty && nights.map(\.0) == expectedNights.map { $0[0].text ?? "" })
        for (night, expected) in zip(nights, expectedNights) { #expect(abs(night.1 - real(expected[1])) < 1e-6) }
        let pairs = try ndjson(folder.file("blood-pressure.ndjson")).map { point -> [Double] in
            let body = point["body"] as? [String: Any]
            return ["systolic_blood_pressure", "diastolic_blood_pressure"].map {
                (body?[$0] as? [String: Any])?["value"] as? Double ?? .nan
            }
        }
        let expectedPairs = try connection.query(
            """
            SELECT (SELECT d.value FROM correlation_samples s JOIN discrete_samples d ON d.id = s.sample_id
                    WHERE s.correlation_id = c.id AND d.type = 'HKQuantityTypeIdentifierBloodPressureSystolic'),
                   (SELECT d.value FROM correlation_samples s JOIN discrete_samples d ON d.id = s.sample_id
                    WHERE s.correlation_id = c.id AND d.type = 'HKQuantityTypeIdentifierBloodPressureDiastolic')
            FROM correlations c WHERE c.type = 'HKCorrelationTypeIdentifierBloodPressure'
            ORDER BY c.start_date, c.identity
            """
        ).map { [real($0[0]), real($0[1])] }
        #expect(!pairs.isEmpty && pairs == expectedPairs)
    }
}
