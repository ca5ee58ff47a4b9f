import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import SampleExports

/// iOS 8/9 exports wrote category values as HealthKit's enum numbers (`value="1"`); they are stored as the
/// names later exports write, so the rollups count a 2015 night. Expected hours are computed here from the
/// XML (Foundation's date formatter), not by the decoder or the rollup engine.
@Suite("iOS 8/9 legacy category values")
struct LegacyCategoryValueTests {
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// HealthKit's `HKCategoryValueSleepAnalysis` as the SDK defines it and pre-iOS 16 exports named it.
    static let sleepCases = ["0": "InBed", "1": "Asleep"]

    static func date(_ compact: String) throws -> Date {
        let reader = DateFormatter()
        reader.locale = Locale(identifier: "en_US_POSIX")
        reader.dateFormat = "yyyyMMddHHmmssZ"
        return try #require(reader.date(from: compact), "\(compact)")
    }

    static func day(_ date: Date, in zone: TimeZone) -> String {
        let writer = DateFormatter()
        writer.locale = Locale(identifier: "en_US_POSIX")
        writer.timeZone = zone
        writer.dateFormat = "yyyy-MM-dd"
        return writer.string(from: date)
    }

    /// `daily_rollups` of sleep: date → statistic → hours.
    static func dailySleep(_ db: SQLiteConnection) throws -> [String: [String: Double]] {
        var hours: [String: [String: Double]] = [:]
        for row in try db.query(
            "SELECT date, statistic, value FROM daily_rollups WHERE type = '\(sleepType)'")
        {
            guard case .text(let date) = row[0], case .text(let statistic) = row[1], case .real(let value) = row[2]
            else { continue }
            hours[date, default: [:]][statistic] = value
        }
        return hours
    }

    static func expectClose(_ actual: [String: [String: Double]], _ expected: [String: [String: Double]]) {
        #expect(Set(actual.keys) == Set(expected.keys))
        for (day, values) in expected {
            #expect(Set(actual[day].map { Array($0.keys) } ?? []) == Set(values.keys), "\(day)")
            for (statistic, hours) in values {
                #expect(abs((actual[day]?[statistic] ?? -1) - hours) < 1e-9, "\(day) \(statistic)")
            }
        }
    }

    // MARK: - The hand-written fixture

    @Test("the fixture's sleep is stored by name, its number kept, and the rollups hold the hours of each night")
    func fixtureSleepRollups() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let zone = TimeZone(identifier: "Europe/London")!
        let sleep = try LegacyFormatTests.records(in: LegacyFormatTests.fixture)
            .filter { $0.attributes["type"] == Self.sleepType }
        try #require(Set(sleep.map { $0.attributes["value"] }) == ["0", "1"])

        // Hours per night (the day the record ends, in the import's zone) and value, from the XML.
        var expected: [String: [String: Double]] = [:]
        var spans: [(source: String, start: Date, end: Date)] = []
        for record in sleep {
            let start = try Self.date(record.attributes["startDate"]!)
            let end = try Self.date(record.attributes["endDate"]!)
            let statistic = try #require(Self.sleepCases[record.attributes["value"]!]) + "_hours"
            expected[Self.day(end, in: zone), default: [:]][statistic, default: 0] +=
                end.timeIntervalSince(start) / 3_600
            spans.append((record.attributes["source"]!, start, end))
        }
        // Records of different sources never overlap here, so the rollups' source resolution keeps them all.
        for a in spans {
            for b in spans where a.source != b.source { try #require(a.end <= b.start || b.end <= a.start) }
        }
        try #require(expected.values.contains { $0.count == 2 }, "a night with InBed and Asleep")

        let database = directory.file("health.sqlite")
        let summary = try LegacyFormatTests.importFile(LegacyFormatTests.fixture, into: database)
        #expect(!summary.warnings.keys.contains { $0.contains("no name in the catalog") })
        let db = try SQLiteConnection(path: database, create: false)
        let rows = try LegacyFormatTests.rowsByLine(db)
        for record in sleep {
            let row = try #require(rows[record.line])
            let exported = record.attributes["value"]!
            #expect(LegacyFormatTests.text(row["value"]) == "HKCategoryValueSleepAnalysis" + Self.sleepCases[exported]!)
            #expect(LegacyFormatTests.text(row["raw_value"]) == exported)
        }
        Self.expectClose(try Self.dailySleep(db), expected)
        #expect(
            try db.scalar("SELECT count(*) FROM daily_rollups WHERE column_name = 'SleepAnalysis_Asleep_hours'")
                == .integer(Int64(expected.values.filter { $0["Asleep_hours"] != nil }.count)))
        // The month holds every night (all of them end in April 2015).
        for statistic in ["InBed_hours", "Asleep_hours"] {
            let total = expected.values.compactMap { $0[statistic] }.reduce(0, +)
            guard
                case .real(let month) = try db.scalar(
                    "SELECT value FROM rollups WHERE period = 'month' AND label = '2015-04' AND type = '\(Self.sleepType)' "
                        + "AND statistic = '\(statistic)'")
            else {
                Issue.record("no month row for \(statistic)")
                continue
            }
            #expect(abs(month - total) < 1e-9, "\(statistic)")
        }
        // The `sleep` view names the stage.
        #expect(try db.scalar("SELECT count(*) FROM sleep WHERE stage NOT IN ('InBed', 'Asleep')") == .integer(0))

        // The identity is of the value as exported: the same file again changes nothing.
        let again = try LegacyFormatTests.importFile(LegacyFormatTests.fixture, into: database, rescan: true)
        let changes = try #require(again.changes[Self.sleepType])
        #expect(changes.added == 0 && changes.deleted == 0 && changes.unchanged == sleep.count)
    }

    // MARK: - The generator's ios8 profile

    @Test("a generated iOS 8 export's sleep rollups are the generator's hours per night")
    func generatedSleepMatchesTally() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 5, days: 14, profile: .ios8)
        options.exportOffset = "+0100"
        let xml = directory.file("export.xml")
        let tally = try ExportGenerator(options: options).write(to: .bareXML(xml))
        try #require(tally.sleepHoursPerNight.count == 13)

        // The generator's days are in the export offset; importing in that zone files each night alike.
        let database = directory.file("health.sqlite")
        let job = ImportJob(inputPath: xml, databasePath: database, timeZone: TimeZone(secondsFromGMT: 3_600)!)
        let summary = try job.run()
        #expect(!summary.warnings.keys.contains { $0.contains("no name in the catalog") })
        let db = try SQLiteConnection(path: database, create: false)
        let prefix = "HKCategoryValueSleepAnalysis"
        let expected = tally.sleepHoursPerNight.mapValues { values in
            Dictionary(
                uniqueKeysWithValues: values.map { (String($0.key.dropFirst(prefix.count)) + "_hours", $0.value) })
        }
        Self.expectClose(try Self.dailySleep(db), expected)
        #expect(try db.scalar("SELECT count(*) FROM category_samples WHERE value GLOB '[0-9]*'") == .integer(0))
    }

    // MARK: - The decoder

    static func decode(_ records: String) throws -> (samples: [Sample], warnings: [String: Int]) {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write(
            "export.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_GB\">\n\(records)</HealthData>\n")
        let (items, reader) = try readAllItems(path)
        return (items.samples, reader.warnings)
    }

    static func legacy(_ type: String, _ value: String) -> String {
        " <Record type=\"\(type)\" source=\"Health\" unit=\"\" startDate=\"20150413225012+0100\" "
            + "endDate=\"20150414070530+0100\" value=\"\(value)\"/>\n"
    }

    @Test("legacy numbers become names; NotApplicable 0 no value; an unnamed number stays and is counted")
    func decoderNamesLegacyNumbers() throws {
        let records = [
            Self.legacy(Self.sleepType, "0"), Self.legacy(Self.sleepType, "1"),
            Self.legacy("HKCategoryTypeIdentifierMenstrualFlow", "2"),
            Self.legacy("HKCategoryTypeIdentifierOvulationTestResult", "2"),
            Self.legacy("HKCategoryTypeIdentifierAppleStandHour", "0"),
            Self.legacy("HKCategoryTypeIdentifierSexualActivity", "0"),
            Self.legacy(Self.sleepType, "7"), Self.legacy(Self.sleepType, "7"),
            Self.legacy(Self.sleepType, "HKCategoryValueSleepAnalysisAsleep"),
            Self.legacy("HKCategoryTypeIdentifierNewInIOS30", "1"),
        ]
        let (samples, warnings) = try Self.decode(records.joined())
        try #require(samples.count == records.count)
        let stored = samples.map { [$0.textValue, $0.rawTextValue] }
        #expect(stored[0] == ["HKCategoryValueSleepAnalysisInBed", "0"])
        #expect(stored[1] == ["HKCategoryValueSleepAnalysisAsleep", "1"])
        // Named as exports wrote them then: the MenstrualFlow prefix, the pre-iOS 13 `Positive`.
        #expect(stored[2] == ["HKCategoryValueMenstrualFlowLight", "2"])
        #expect(stored[3] == ["HKCategoryValueOvulationTestResultPositive", "2"])
        #expect(stored[4] == ["HKCategoryValueAppleStandHourStood", "0"])
        #expect(stored[5] == [nil, "0"])
        #expect(stored[6] == ["7", nil] && stored[7] == ["7", nil])
        #expect(stored[8] == ["HKCategoryValueSleepAnalysisAsleep", nil])
        #expect(stored[9] == ["1", nil])
        let unnamed = warnings.filter { $0.key.contains("no name in the catalog") }
        #expect(unnamed.count == 2)
        #expect(unnamed.first { $0.key.contains("value 7 of \(Self.sleepType)") }?.value == 2)
        #expect(unnamed.first { $0.key.contains("HKCategoryTypeIdentifierNewInIOS30") }?.value == 1)
        // The identity is of the exported number, not of the name.
        var exported = samples[1]
        (exported.textValue, exported.rawTextValue) = ("1", nil)
        #expect(SampleIdentity.fingerprint(samples[1]) == SampleIdentity.fingerprint(exported))
    }

    @Test("modern records keep their value as written, numbers included")
    func modernRecordsUntouched() throws {
        let modern =
            " <Record type=\"\(Self.sleepType)\" sourceName=\"Clock\" startDate=\"2020-01-01 23:00:00 +0100\" "
            + "endDate=\"2020-01-02 07:00:00 +0100\" value=\"1\"/>\n"
        let (samples, warnings) = try Self.decode(modern)
        let sample = try #require(samples.first)
        #expect(sample.textValue == "1" && sample.rawTextValue == nil)
        #expect(warnings.isEmpty)
    }

    // MARK: - The generated catalog

    @Test(
        "the catalog's value names are what scripts/generate-type-catalog.py makes of the reference TSVs",
        .enabled(if: Fixtures.sharedIsPresent && Fixtures.executable("python3") != nil))
    func generatedCatalogIsCurrent() throws {
        let python = try #require(Fixtures.executable("python3"))
        let script = Fixtures.repositoryRoot + "/scripts/generate-type-catalog.py"
        let result = try ProcessRunner.run(python, [script, Fixtures.sharedRoot + "/reference"])
        #expect(result.status == 0, "\(result.error)")
        let committed = try String(
            contentsOfFile: Fixtures.repositoryRoot + "/Sources/HealthModel/TypeCatalog+Generated.swift",
            encoding: .utf8)
        #expect(
            result.output == committed,
            "run: scripts/generate-type-catalog.py ../shared/reference > Sources/HealthModel/TypeCatalog+Generated.swift"
        )
    }
}
