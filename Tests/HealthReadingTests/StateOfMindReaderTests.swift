import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite

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
        let output = try ProcessRunner.run(
            "python3", ["-c", "import json,sys; print(len(json.load(open(sys.argv[1]))['data']['stateOfMind']))", path]
        ).output
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
            inputPath: export, databasePath: directory.file("h.sqlite"),
            timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        job.stateOfMindPath = json
        let summary = try job.run()
        let db = try SQLiteConnection(path: directory.file("h.sqlite"), create: false)
        #expect(
            try db.query(
                "SELECT identifier, round(valence_shifted, 9), round(valence_percent, 6), local_date FROM state_of_mind ORDER BY id"
            )
                == [
                    [.text("A1"), .real(1.8), .real(90), .text("2024-06-01")],
                    [.text("A2"), .real(0.2), .real(10), .text("2024-06-02")],
                ])
        #expect(summary.stages["valence"]?["state of mind entries with a valence outside [-1, 1] (not stored)"] == 1)
    }
}
