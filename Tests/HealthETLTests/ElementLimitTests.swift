import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL
@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite

/// What one element may hold (docs/security.md): past a limit the import is refused with one line naming the
/// file, entry, line:column and the limit (exit 65), and the database is left as it was; at the limit, and
/// for route locations past any limit of memory, it is imported.
struct ElementLimitTests {
    static let record =
        #"<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="72.5">"#
    static let hrvRecord =
        #"<Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" unit="ms" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:01:00 +0100" value="48">"#
    static let workout =
        #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100">"#

    static func metadata(_ count: Int) -> String {
        (0..<count).map { "  <MetadataEntry key=\"com.example.key\($0)\" value=\"\($0)\"/>" }.joined(separator: "\n")
    }

    /// An export folder whose export.xml holds `body` (its first line is line 4 of the file).
    func exportFolder(_ body: String, in directory: TemporaryDirectory) throws -> String {
        let folder = directory.file("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            atPath: folder + "/apple_health_export", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: folder + "/apple_health_export/export.xml", contents: Data(exportXML(body).utf8))
        return folder
    }

    /// `healthetl import` of `input` into `database`: the exit code and what went to stderr.
    func runImport(_ input: String, into database: String) -> (code: Int32, error: String) {
        final class Output: @unchecked Sendable { var err = "" }
        let output = Output()
        let tool = Tool(standardOutput: { _ in }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(["import", input, "--db", database, "--quiet"])
        return (code, output.err)
    }

    /// Refused into a new database (none is left behind) and into an existing one (its rows are unchanged).
    func expectRefused(
        _ body: String, message: String, line: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let input = try exportFolder(body, in: directory)
        let fresh = directory.file("new.sqlite")
        let (code, error) = runImport(input, into: fresh)
        #expect(code == 65, "\(error)", sourceLocation: sourceLocation)
        #expect(error.hasPrefix("healthetl: \(input): export.xml:\(line):"), "\(error)", sourceLocation: sourceLocation)
        #expect(error.contains("error: " + message), "\(error)", sourceLocation: sourceLocation)
        #expect(error.contains("docs/security.md"), "\(error)", sourceLocation: sourceLocation)
        #expect(error.split(separator: "\n").count == 1, "one line: \(error)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: fresh), sourceLocation: sourceLocation)

        let existing = directory.file("existing.sqlite")
        let valid = try exportFolder(" " + HostileInputTests.record, in: directory)
        #expect(runImport(valid, into: existing).code == 0, sourceLocation: sourceLocation)
        let before = try dataContent(of: existing)
        #expect(runImport(input, into: existing).code == 65, sourceLocation: sourceLocation)
        #expect(try dataContent(of: existing) == before, "the database is as it was", sourceLocation: sourceLocation)
    }

    @Test func metadataEntriesPastTheLimitAreRefused() throws {
        try expectRefused(
            " \(Self.record)\n\(Self.metadata(10_001))\n </Record>",
            message: "more than 10,000 MetadataEntry elements in one Record (the limit)", line: 4 + 10_001)
    }

    @Test func metadataEntriesAtTheLimitAreImported() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let input = try exportFolder(" \(Self.record)\n\(Self.metadata(10_000))\n </Record>", in: directory)
        let database = directory.file("db.sqlite")
        let (code, error) = runImport(input, into: database)
        #expect(code == 0, "\(error)")
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM metadata") == .integer(10_000))
    }

    @Test func beatsPastTheLimitAreRefused() throws {
        let beats = (0...100_000).map { index in
            let second = 8 * 3600 + index % 3000
            return
                "   <InstantaneousBeatsPerMinute bpm=\"60\" time=\"\(second / 3600):\(String(format: "%02d:%02d", second / 60 % 60, second % 60)).00\"/>"
        }
        try expectRefused(
            " \(Self.hrvRecord)\n  <HeartRateVariabilityMetadataList>\n\(beats.joined(separator: "\n"))\n"
                + "  </HeartRateVariabilityMetadataList>\n </Record>",
            message: "more than 100,000 InstantaneousBeatsPerMinute elements in one HRV record (the limit)",
            line: 5 + 100_001)
    }

    @Test func otherChildrenPastTheLimitAreRefused() throws {
        let child =
            #"  <Record type="HKQuantityTypeIdentifierDietaryProtein" sourceName="Food" unit="g" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="1"/>"#
        try expectRefused(
            #" <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Food" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100">"#
                + "\n" + Array(repeating: child, count: 10_001).joined(separator: "\n") + "\n </Correlation>",
            message: "more than 10,000 Record elements in one Correlation (the limit)", line: 4 + 10_001)
        let event = #"  <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-02-01 08:10:00 +0100"/>"#
        try expectRefused(
            " \(Self.workout)\n" + Array(repeating: event, count: 10_001).joined(separator: "\n") + "\n </Workout>",
            message: "more than 10,000 WorkoutEvent elements in one Workout (the limit)", line: 4 + 10_001)
    }

    @Test("The limits do not multiply: everything nested in one element counts")
    func nestedElementsPastTheLimitAreRefused() throws {
        // 21 events of 10,000 metadata entries each: every list is within its limit, together they are not.
        let event =
            "  <WorkoutEvent type=\"HKWorkoutEventTypeLap\" date=\"2024-02-01 08:10:00 +0100\">\n"
            + Self.metadata(10_000) + "\n  </WorkoutEvent>"
        // Each event and its entries are 10,001 nested elements on 10,002 lines: the 200,001st nested element
        // is the 9,981st entry of the 20th event.
        try expectRefused(
            " \(Self.workout)\n" + Array(repeating: event, count: 21).joined(separator: "\n") + "\n </Workout>",
            message: "more than 200,000 elements nested in one Workout (the limit; route locations aside)",
            line: 5 + 19 * 10_002 + 9_981)
    }
}
