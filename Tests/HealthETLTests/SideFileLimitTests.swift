import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL
@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite

/// Side files read whole (FHIR JSON, ECG CSV) have a limit that keeps an import's memory flat; past it the
/// file is a counted warning, as a broken one is. FHIR JSON is checked without building its objects.
struct SideFileLimitTests {
    static func isJSON(_ text: String) -> Bool { FHIRText.utf8JSON(Array(text.utf8)) != nil }

    @Test func theJSONGrammarIsChecked() {
        for valid in [
            "{}", "[]", " {\"a\": 1} ", "{\"a\":[1,-2.5e+3,0.25,true,false,null,\"x\\u00e9\\n\\\"\"],\"b\":{}}",
            "\u{FEFF}{\"resourceType\":\"Observation\"}", "[[[[{\"deep\":[0]}]]]]", "{\"é\":\"ü\"}",
        ] {
            #expect(Self.isJSON(valid), "\(valid.debugDescription)")
        }
        for invalid in [
            "", " ", "42", "\"text\"", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]",
            "[-]", "[tru]", "[nul]", "[\"a\u{01}\"]", "[\"\\x\"]", "[\"\\u12g4\"]", "{\"a\":1}x", "[1 2]", "{\"a\":1}}",
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        ] {
            #expect(!Self.isJSON(invalid), "\(invalid.debugDescription)")
        }
        #expect(Self.isJSON(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
    }

    @Test(
        "UTF-16 and UTF-32 JSON is stored as the same text in UTF-8",
        arguments: [
            String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16, .utf32,
        ])
    func wideEncodingsAreReencoded(encoding: String.Encoding) throws {
        let text = "{\"resourceType\": \"Observation\", \"id\": \"é1\"}"
        let bytes = try #require(text.data(using: encoding))
        let json = try #require(FHIRText.utf8JSON(Array(bytes)))
        #expect(json.text == text)
        #expect(json.reencoded)
        #expect(FHIRText.utf8JSON(Array(text.utf8))?.reencoded == false)
    }

    @Test func largerSideFilesAreWarningsNotFailures() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("apple_health_export")
        try FileManager.default.createDirectory(
            atPath: folder + "/electrocardiograms", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/clinical-records", withIntermediateDirectories: true)
        let limit = ExportReader.maximumSideFileSize
        var ecg =
            "Name,x\nDate of Birth,\"Feb 2, 1990\"\nRecorded Date,2024-02-01 08:00:00 +0100\nClassification,Sinus Rhythm\n"
            + "Symptoms,\nSoftware Version,1.90\nDevice,\"Watch6,2\"\nSample Rate,512 hertz\n\n\nLead,Lead I\nUnit,µV\n\n"
        ecg += String(repeating: "-107.825\n", count: limit / 9 + 1)
        FileManager.default.createFile(
            atPath: folder + "/electrocardiograms/ecg_2024-02-01.csv", contents: Data(ecg.utf8))
        let note = "{\"text\":\"" + String(repeating: "x", count: 90) + "\"}"
        let fhir =
            "{\"resourceType\":\"Observation\",\"note\":["
            + Array(repeating: note, count: limit / 100).joined(separator: ",") + "]}"
        #expect(fhir.utf8.count > limit)
        FileManager.default.createFile(atPath: folder + "/clinical-records/o.json", contents: Data(fhir.utf8))
        let body =
            #" <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="x" sourceName="H" sourceURL="u" fhirVersion="4.0.1" receivedDate="2024-02-01 08:00:00 +0100" resourceFilePath="/clinical-records/o.json"/>"#
        FileManager.default.createFile(atPath: folder + "/export.xml", contents: Data(exportXML(body).utf8))

        let summary = try ImportJob(inputPath: directory.path, databasePath: directory.file("db.sqlite"), timeZone: nil)
            .run()
        let tooLarge = summary.warnings.filter { $0.key.contains("larger than the 4 MB allowed") }
        #expect(tooLarge.count == 2, "\(summary.warnings)")
        let db = try SQLiteConnection(path: directory.file("db.sqlite"), create: false)
        #expect(try db.scalar("SELECT count(*) FROM ecg_recordings") == .integer(0))
        #expect(
            try db.scalar("SELECT resource_json IS NULL AND problem LIKE '%4 MB%' FROM clinical_records") == .integer(1)
        )
    }
}
