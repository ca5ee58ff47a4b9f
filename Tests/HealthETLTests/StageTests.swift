import Foundation
import Testing
@testable import HealthETL
@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import HealthStages

struct ValenceStageTests {
    func run(_ valences: [Double?]) throws -> ([StateOfMindEntry], [String: Int]) {
        var stage = ValenceStage()
        var out: [StateOfMindEntry] = []
        for valence in valences {
            var entry = StateOfMindEntry(source: "test", origin: "test")
            entry.valence = valence
            try stage.process(.stateOfMind(entry)) { item in
                if case .stateOfMind(let kept) = item { out.append(kept) }
            }
        }
        return (out, stage.report)
    }

    @Test func shiftsValenceAndReportsPercent() throws {
        let (entries, report) = try run([-1, -0.8, 0, 0.8, 1])
        let shifted = entries.compactMap(\.valenceShifted)
        let percent = entries.compactMap(\.valencePercent)
        #expect(zip(shifted, [0, 0.2, 1, 1.8, 2]).allSatisfy { abs($0 - $1) < 1e-12 } && shifted.count == 5)
        #expect(zip(percent, [0, 10, 50, 90, 100]).allSatisfy { abs($0 - $1) < 1e-9 } && percent.count == 5)
        #expect(report.isEmpty)
    }

    /// One very pleasant and one very unpleasant day: the mean of the percents says where each day was
    /// relative to the scale; averaging raw valence would land on "neutral" 0 and lose the sign of both.
    @Test func averagesAreTakenOnTheShiftedScale() throws {
        let (entries, _) = try run([0.8, -0.8])
        let percents = entries.compactMap(\.valencePercent)
        #expect(percents.count == 2 && abs(percents[0] - 90) < 1e-9 && abs(percents[1] - 10) < 1e-9)
        #expect(entries.compactMap(\.valenceShifted).allSatisfy { $0 >= 0 && $0 <= 2 })
    }

    @Test func outOfRangeValenceIsDroppedAndCountedNotClamped() throws {
        let (entries, report) = try run([1.5, -1.01, .nan, 0.5, nil])
        #expect(entries.count == 2)
        #expect(entries.first?.valence == 0.5)
        #expect(entries.last?.valencePercent == nil)
        #expect(report["state of mind entries with a valence outside [-1, 1] (not stored)"] == 3)
        #expect(report["state of mind entries without a valence (kept, no percent)"] == 1)
    }

    @Test func otherItemsPassThrough() throws {
        var stage = ValenceStage()
        var passed = 0
        try stage.process(.header(locale: "en_US", exportDate: nil)) { _ in passed += 1 }
        #expect(passed == 1)
    }
}

struct StateOfMindReaderTests {
    static let file = """
        {"data": {"metrics": [{"name": "step_count", "data": [{"qty": 10, "date": "2024-06-01 08:00:00 -0700"}]}],
          "stateOfMind": [
            {"id": "A1", "start": "2024-06-01 08:00:00 -0700", "end": "2024-06-01 08:00:00 -0700", "kind": "momentaryEmotion",
             "labels": ["Happy", "Calm"], "associations": ["Family"], "valence": 0.8, "valenceClassification": "pleasant",
             "metadata": {"note": "a \\"quoted\\" ] note, with } braces"}},
            {"id": "A2", "start": "2024-06-02 21:00:00 -0700", "end": "2024-06-02 21:00:00 -0700", "kind": "dailyMood",
             "labels": [], "associations": ["Work"], "valence": -0.8, "valenceClassification": "unpleasant", "metadata": {}},
            {"id": "A3", "start": "2024-06-03 21:00:00 -0700", "end": "2024-06-03 21:00:00 -0700", "kind": "dailyMood",
             "valence": 3}
          ]}}
        """

    @Test func readsEntriesFromAHealthAutoExportFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("hae.json", Self.file)
        var warnings: [String: Int] = [:]
        var entries: [StateOfMindEntry] = []
        try StateOfMindReader.read(path: path, warnings: &warnings) { entries.append($0) }
        #expect(entries.map(\.identifier) == ["A1", "A2", "A3"])
        #expect(entries[0].labels == ["Happy", "Calm"])
        #expect(entries[0].associations == ["Family"])
        #expect(entries[0].valence == 0.8)
        #expect(entries[0].metadataJSON == #"{"note":"a \"quoted\" ] note, with } braces"}"#)
        #expect(entries[1].kind == "dailyMood")
        #expect(entries[1].startDate.map { TimestampFormatting.utcString($0.seconds) } == "2024-06-03T04:00:00Z")
        #expect(warnings.isEmpty)
    }

    /// `\u0000` decodes to U+0000, which no text column should hold (PostgreSQL refuses it): removed, counted.
    @Test func nulCharactersAreRemovedAndCounted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write(
            "hae.json",
            #"{"data": {"stateOfMind": [{"id": "A\u00001", "start": "2024-06-01 08:00:00 -0700", "labels": ["Ha\u0000ppy"], "#
                + #""metadata": {"k\u0000": "v"}, "valence": 0.1}]}}"#)
        var warnings: [String: Int] = [:]
        var entries: [StateOfMindEntry] = []
        try StateOfMindReader.read(path: path, warnings: &warnings) { entries.append($0) }
        #expect(entries.map(\.identifier) == ["A1"])
        #expect(entries.first?.labels == ["Happy"])
        #expect(entries.first?.metadataJSON == #"{"k":"v"}"#)
        #expect(warnings == ["NUL characters removed from State of Mind text": 3])
    }

    /// Independent check: Python's json module sees the same entries.
    @Test func agreesWithPythonsJSONParser() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("hae.json", Self.file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import json,sys; print(len(json.load(open(sys.argv[1]))['data']['stateOfMind']))", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var warnings: [String: Int] = [:]
        var count = 0
        try StateOfMindReader.read(path: path, warnings: &warnings) { _ in count += 1 }
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == String(count))
    }

    @Test(arguments: [
        "", "{", "{\"data\": {\"stateOfMind\": [", "[1, 2", "{\"data\": {\"stateOfMind\": [{\"id\": \"x\"}, ]}}x",
        String(repeating: "[", count: 10_000),
    ])
    func brokenJSONIsAnErrorNotACrash(_ text: String) {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("broken.json", text)
        var warnings: [String: Int] = [:]
        #expect(throws: ImportError.self) {
            try StateOfMindReader.read(path: path, warnings: &warnings) { _ in }
        }
    }

    @Test func aFileWithoutTheArrayIsAnError() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("other.json", "{\"data\": {\"metrics\": []}}")
        var warnings: [String: Int] = [:]
        #expect(throws: ImportError.self) { try StateOfMindReader.read(path: path, warnings: &warnings) { _ in } }
    }

    @Test func importStoresShiftedValence() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let json = directory.write("hae.json", Self.file)
        let export = directory.write(
            "export.xml",
            exportXML(
                """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-06-01 08:00:00 -0700" endDate="2024-06-01 08:05:00 -0700" value="5"/>
                """))
        var job = ImportJob(
            inputPath: export, databasePath: directory.file("h.sqlite"), timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        job.stateOfMindPath = json
        let summary = try job.run()
        let db = try SQLiteConnection(path: directory.file("h.sqlite"), create: false)
        #expect(
            try db.query(
                "SELECT identifier, round(valence_shifted, 9), round(valence_percent, 6), local_date FROM state_of_mind ORDER BY id")
                == [
                    [.text("A1"), .real(1.8), .real(90), .text("2024-06-01")],
                    [.text("A2"), .real(0.2), .real(10), .text("2024-06-02")],
                ])
        #expect(summary.stages["valence"]?["state of mind entries with a valence outside [-1, 1] (not stored)"] == 1)
    }
}

struct SampleIdentityTests {
    func sample(value: Double = 5, address: String = "0x1", metadata: [MetadataEntry] = []) -> Sample {
        let device = Device(description: "<<HKDevice: \(address)>, name:iPhone, model:iPhone>")
        var sample = Sample(
            type: "HKQuantityTypeIdentifierStepCount",
            source: SampleSource(id: 1, name: "Phone", version: "17.1", device: device), line: 1)
        sample.value = value
        sample.unit = "count"
        sample.startDate = Timestamp.parse("2024-02-01 08:00:00 +0100")
        sample.endDate = Timestamp.parse("2024-02-01 08:05:00 +0100")
        sample.metadata = metadata
        return sample
    }

    @Test func isTheSameForTheSameSampleWhateverTheDeviceAddressAndMetadataOrder() {
        let a = sample(address: "0x1", metadata: [.init(key: "a", value: "1"), .init(key: "b", value: "2")])
        let b = sample(address: "0xffff", metadata: [.init(key: "b", value: "2"), .init(key: "a", value: "1")])
        #expect(SampleIdentity.fingerprint(a) == SampleIdentity.fingerprint(b))
        #expect(SampleIdentity.fingerprint(a) != SampleIdentity.fingerprint(sample(value: 6)))
    }

    /// The same instant written in another offset (a re-export in another season) has the same identity.
    @Test func survivesAReexportInAnotherOffset() {
        var winter = sample()
        var summer = sample()
        summer.startDate = Timestamp.parse("2024-02-01 09:00:00 +0200")
        summer.endDate = Timestamp.parse("2024-02-01 09:05:00 +0200")
        #expect(SampleIdentity.fingerprint(winter) == SampleIdentity.fingerprint(summer))
        winter.startDate = Timestamp.parse("2024-02-01 08:00:01 +0100")
        #expect(SampleIdentity.fingerprint(winter) != SampleIdentity.fingerprint(summer))
    }

    /// Pinned so a change of the hash (which would break incremental imports of existing databases) is noticed.
    @Test func isStableAcrossRunsAndMachines() {
        var hasher = StableHasher()
        hasher.combine("HKQuantityTypeIdentifierStepCount")
        hasher.combine(Int64(1_706_770_800))
        #expect(hasher.finish() == hasher.finish())
        var again = StableHasher()
        again.combine("HKQuantityTypeIdentifierStepCount")
        again.combine(Int64(1_706_770_800))
        #expect(again.finish() == hasher.finish())
        #expect(SampleIdentity.fingerprint(sample()) == Self.pinnedFingerprint)
    }

    static let pinnedFingerprint: Int64 = 2_779_325_208_050_142_997
}

struct StateOfMindInExportTests {
    /// No exporter writes State of Mind yet; if one does, the element is read into the same table.
    @Test func aFutureStateOfMindElementIsImported() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write(
            "export.xml",
            exportXML(
                """
                 <StateOfMind sourceName="Health" kind="dailyMood" valence="-0.4" labels="Stressed, Tired" associations="Work" startDate="2024-02-01 21:00:00 +0100" endDate="2024-02-01 21:00:00 +0100">
                  <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>
                 </StateOfMind>
                """))
        let database = directory.file("h.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "UTC")!).run()
        let db = try SQLiteConnection(path: database, create: false)
        #expect(
            try db.query("SELECT kind, round(valence_percent, 6), labels_json, associations_json, metadata_json FROM state_of_mind")
                == [[.text("dailyMood"), .real(30), .text(#"["Stressed","Tired"]"#), .text(#"["Work"]"#),
                     .text(#"{"HKTimeZone":"Europe/Berlin"}"#)]])
    }
}

struct StageSwitchTests {
    @Test func rawUnitsAndKeepDuplicatesSwitchTheStagesOff() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let record = #"<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="150"/>"#
        let export = directory.write("export.xml", exportXML(" " + record + "\n " + record))
        let tool = Tool(standardOutput: { _ in }, standardError: { _ in }, errorIsTerminal: false)
        #expect(tool.run(["import", export, "--db", directory.file("a.sqlite"), "--quiet"]) == 0)
        #expect(tool.run(["import", export, "--db", directory.file("b.sqlite"), "--quiet", "--raw-units", "--keep-duplicates"]) == 0)
        let normal = try SQLiteConnection(path: directory.file("a.sqlite"), create: false)
        let raw = try SQLiteConnection(path: directory.file("b.sqlite"), create: false)
        #expect(try normal.query("SELECT unit, count(*) FROM discrete_samples GROUP BY 1") == [[.text("kg"), .integer(1)]])
        #expect(try raw.query("SELECT unit, count(*) FROM discrete_samples GROUP BY 1") == [[.text("lb"), .integer(2)]])
    }
}
