import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL
@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import SampleExports

/// The corpus of broken and hostile inputs: each is made here, in code, and each has an expected outcome —
/// a clear error naming what and where, or an import with a counted warning. Never a crash, a hang, a file
/// read from outside the export, or a database left behind.
struct HostileInputTests {
    static let record =
        #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="5"/>"#

    enum Outcome {
        case error(contains: String)
        case imported(warning: String?)
    }

    /// Runs the CLI on `input`; checks the outcome, the single-line message, and that a failed run leaves no
    /// database.
    func check(
        _ input: String, _ expected: Outcome, in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let database = directory.file("out-\(UUID().uuidString).sqlite")
        final class Output { var err = "" }
        let output = Output()
        let tool = Tool(standardOutput: { _ in }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(["import", input, "--db", database, "--json"])
        switch expected {
        case .error(let fragment):
            #expect(code == 65, "exit code for \(input): \(output.err)", sourceLocation: sourceLocation)
            #expect(output.err.contains(fragment), "\(output.err)", sourceLocation: sourceLocation)
            #expect(
                output.err.hasPrefix("healthetl: \(input)"), "names the file: \(output.err)",
                sourceLocation: sourceLocation)
            #expect(
                output.err.split(separator: "\n").count == 1, "one line: \(output.err)", sourceLocation: sourceLocation)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasPrefix("out-")
            }
            #expect(leftovers.isEmpty, "no database left: \(leftovers)", sourceLocation: sourceLocation)
        case .imported(let warning):
            #expect(code == 0, "\(output.err)", sourceLocation: sourceLocation)
            if let warning {
                let db = try SQLiteConnection(path: database, create: false)
                let messages = try db.query("SELECT message FROM import_warnings").compactMap { row -> String? in
                    if case .text(let text) = row[0] { return text } else { return nil }
                }
                #expect(messages.contains { $0.contains(warning) }, "\(messages)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func emptyNotAZipAndNoExportInside() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try check(directory.write("empty.zip", ""), .error(contains: "the file is empty"), in: directory)
        try check(
            directory.write("noise.zip", String(repeating: "not a zip ", count: 100)),
            .error(contains: "not a zip file"), in: directory)
        let zip = directory.file("other.zip")
        let writer = try ZipWriter(path: zip)
        try writer.addEntry(name: "apple_health_export/notes.xml", data: Array("<notes/>".utf8))
        try writer.finish()
        try check(zip, .error(contains: "no Apple Health export XML"), in: directory)
    }

    /// The committed sample export cut at ten points: every cut is a one-line error, never a crash.
    @Test func truncatedZipsAreReported() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let whole = try Data(
            contentsOf: URL(
                fileURLWithPath: (Fixtures.repositoryRoot as NSString).appendingPathComponent(
                    "sample-exports/export.zip")))
        for tenth in 1...10 {
            let cut = directory.file("cut\(tenth).zip")
            let length = tenth == 10 ? whole.count - 1 : whole.count * tenth / 10
            FileManager.default.createFile(atPath: cut, contents: whole.prefix(length))
            try check(cut, .error(contains: "cut short"), in: directory)
        }
    }

    @Test func truncatedXMLNamesTheLineAndByte() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let full = exportXML(
            " " + Self.record.replacingOccurrences(of: "sourceName=\"P\"", with: "sourceName=\"Jonathan’s iPhone\""))
        let bytes = Array(full.utf8)
        let midTag = bytes.firstIndex(of: UInt8(ascii: "R"))! + 3
        let midAttribute = Array(full.utf8).indices.first { bytes[$0...].starts(with: Array("Jonathan".utf8)) }! + 3
        let midUTF8 = bytes.firstIndex(of: 0xE2)! + 1  // inside the three bytes of ’
        for (label, cut) in [("tag", midTag), ("attribute", midAttribute), ("utf8", midUTF8)] {
            let path = directory.file("cut-\(label).xml")
            FileManager.default.createFile(atPath: path, contents: Data(bytes[..<cut]))
            try check(path, .error(contains: "the XML ends at byte \(cut)"), in: directory)
        }
    }

    @Test func damagedButRecoverableTextImportsWithWarnings() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let control = directory.write(
            "control.xml", exportXML(" " + Self.record.replacingOccurrences(of: "\"P\"", with: "\"P\u{0B}\u{01}\"")))
        try check(control, .imported(warning: "control characters removed"), in: directory)
        var invalid = Array(exportXML(" " + Self.record).utf8)
        let index = invalid.firstIndex(of: UInt8(ascii: "P"))!
        invalid.insert(contentsOf: [0xFF, 0xC3], at: index)  // a stray byte and a cut sequence
        let path = directory.file("invalid-utf8.xml")
        FileManager.default.createFile(atPath: path, contents: Data(invalid))
        try check(path, .imported(warning: "not valid UTF-8"), in: directory)
        let malformedDTD = directory.write(
            "ios16.xml",
            exportXML(
                " " + Self.record,
                doctype:
                    "<!DOCTYPE HealthData [\n<!ATTLIST VisionPrescription\n  brand CDATA #IMPLIED\n<!ELEMENT RightEye EMPTY>\n>\n>\n]>\n"
            ))
        try check(malformedDTD, .imported(warning: nil), in: directory)
    }

    /// Found by fuzzing: a declared non-UTF-8 encoding was reported as a file cut short.
    @Test func aDocumentInAnotherEncodingIsNotCalledTruncated() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let text = exportXML(" " + Self.record).replacingOccurrences(
            of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-7\"")
        let path = directory.write("utf7.xml", text)
        try check(path, .error(contains: "not in UTF-8"), in: directory)
    }

    @Test func limitsOfTheParserHold() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // libxml2 refuses values over 10 MB without XML_PARSE_HUGE, which is never set; the decoder refuses
        // nesting deeper than any real export.
        let huge = directory.write(
            "huge.xml", exportXML(" <Record type=\"\(String(repeating: "A", count: 11_000_000))\"/>"))
        try check(huge, .error(contains: "longer than libxml2's 10 MB limit"), in: directory)
        let deep = directory.write(
            "deep.xml",
            exportXML(String(repeating: "<a>", count: 1_000_000) + String(repeating: "</a>", count: 1_000_000)))
        try check(deep, .error(contains: "nested more than 64 levels"), in: directory)
    }

    @Test func entitiesAreNeverExpandedNorLoaded() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let secret = directory.write("secret.txt", "root:x:0:0:SECRET")
        let laughs = (1...9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }.joined(separator: "\n")
        let billion = directory.write(
            "laughs.xml",
            exportXML(
                " <Record type=\"&lol9;\" sourceName=\"P\" startDate=\"2024-02-01 08:00:00 +0100\" endDate=\"2024-02-01 08:00:00 +0100\"/>",
                doctype: "<!DOCTYPE HealthData [\n<!ENTITY lol0 \"lol\">\n\(laughs)\n]>\n"))
        try check(billion, .error(contains: "lol9"), in: directory)
        for systemID in ["file://\(secret)", "http://127.0.0.1:9/x.dtd"] {
            let xxe = directory.write(
                "xxe-\(systemID.hasPrefix("file") ? "file" : "url").xml",
                exportXML(
                    " <Record type=\"&xxe;\" sourceName=\"P\" startDate=\"2024-02-01 08:00:00 +0100\" endDate=\"2024-02-01 08:00:00 +0100\"/>",
                    doctype: "<!DOCTYPE HealthData [\n<!ENTITY xxe SYSTEM \"\(systemID)\">\n]>\n"))
            try check(xxe, .error(contains: "xxe"), in: directory)
        }
        let external = directory.write(
            "external-dtd.xml",
            exportXML(" " + Self.record, doctype: "<!DOCTYPE HealthData SYSTEM \"file://\(secret)\">\n"))
        try check(external, .imported(warning: nil), in: directory)
    }

    /// A route or clinical record pointing outside the export is not read; the import goes on with a warning.
    @Test func sideFilePathsCannotLeaveTheExport() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("apple_health_export")
        try FileManager.default.createDirectory(atPath: folder + "/workout-routes", withIntermediateDirectories: true)
        _ = directory.write("outside.gpx", "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>")
        let workout = """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="W" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100">
              <WorkoutRoute sourceName="W" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100"><FileReference path="/../outside.gpx"/></WorkoutRoute>
              <WorkoutRoute sourceName="W" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100"><FileReference path="\(directory.file("outside.gpx"))/../outside.gpx"/></WorkoutRoute>
             </Workout>
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="x" sourceName="H" sourceURL="u" fhirVersion="4.0.1" receivedDate="2024-02-01 08:00:00 +0100" resourceFilePath="/clinical-records/../../outside.gpx"/>
            """
        FileManager.default.createFile(atPath: folder + "/export.xml", contents: Data(exportXML(workout).utf8))
        try check(directory.path, .imported(warning: "leads outside the export"), in: directory)
        let database = directory.file("check.sqlite")
        _ = try ImportJob(inputPath: directory.path, databasePath: database, timeZone: TimeZone(identifier: "UTC")!)
            .run()
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM route_points") == .integer(0))
        #expect(
            try db.scalar("SELECT count(*) FROM workout_routes WHERE problem LIKE '%outside the export%'")
                == .integer(2))
        #expect(try db.scalar("SELECT resource_json FROM clinical_records") == .null)
    }

    @Test func zipBombsAndDuplicateNamesAreHandled() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // 200 MB of one repeated byte deflates about 1000:1, beyond the ratio limit.
        let bomb = directory.file("bomb.zip")
        let writer = try ZipWriter(
            path: bomb,
            options: {
                var o = ZipWriter.Options(); o.compressionLevel = 9; return o
            }())
        try writer.beginEntry(name: "apple_health_export/export.xml")
        try writer.write(Array(exportXML("").utf8.dropLast(14)))  // up to the root's end tag
        let filler = [UInt8](repeating: 0x20, count: 1 << 20)
        for _ in 0..<200 { try writer.write(filler) }
        try writer.write(Array("</HealthData>\n".utf8))
        try writer.endEntry()
        try writer.finish()
        try check(bomb, .error(contains: "possible zip bomb"), in: directory)

        let twice = directory.file("twice.zip")
        let duplicate = try ZipWriter(path: twice)
        try duplicate.addEntry(name: "apple_health_export/export.xml", data: Array(exportXML(" " + Self.record).utf8))
        try duplicate.addEntry(name: "apple_health_export/export.xml", data: Array(exportXML("").utf8))
        try duplicate.finish()
        try check(twice, .imported(warning: "appears more than once"), in: directory)
    }

    @Test func brokenGPXAndFHIRFilesAreWarningsNotFailures() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("apple_health_export")
        try FileManager.default.createDirectory(atPath: folder + "/workout-routes", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/clinical-records", withIntermediateDirectories: true)
        FileManager.default.createFile(
            atPath: folder + "/workout-routes/r.gpx", contents: Data("<gpx><trk><trkseg><trkpt lat=".utf8))
        FileManager.default.createFile(
            atPath: folder + "/clinical-records/o.json", contents: Data("{\"resourceType\": ".utf8))
        let body = """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="W" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100">
              <WorkoutRoute sourceName="W" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100"><FileReference path="/workout-routes/r.gpx"/></WorkoutRoute>
             </Workout>
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="x" sourceName="H" sourceURL="u" fhirVersion="4.0.1" receivedDate="2024-02-01 08:00:00 +0100" resourceFilePath="/clinical-records/o.json"/>
            """
        FileManager.default.createFile(atPath: folder + "/export.xml", contents: Data(exportXML(body).utf8))
        try check(directory.path, .imported(warning: "route file unreadable"), in: directory)
        try check(directory.path, .imported(warning: "not valid JSON"), in: directory)

        // A FHIR file in UTF-16 is valid JSON, but read as UTF-8 it is full of NULs: stored re-encoded.
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("{\"resourceType\": \"Observation\", \"id\": \"é1\"}".data(using: .utf16LittleEndian)!)
        FileManager.default.createFile(atPath: folder + "/clinical-records/o.json", contents: utf16)
        try check(directory.path, .imported(warning: "not in UTF-8 (stored re-encoded"), in: directory)
        let database = directory.file("fhir.sqlite")
        _ = try ImportJob(inputPath: directory.path, databasePath: database, timeZone: nil).run()
        let stored = try SQLiteConnection(path: database, create: false).scalar(
            "SELECT resource_json FROM clinical_records")
        let text = try #require(stored.text)
        #expect(!text.contains("\u{0}"))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(object == ["resourceType": "Observation", "id": "é1"])
    }
}
