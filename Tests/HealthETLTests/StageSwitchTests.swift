import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL
@testable import HealthSQLite

struct StageSwitchTests {
    @Test func rawUnitsAndKeepDuplicatesSwitchTheStagesOff() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let record =
            #"<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="150"/>"#
        let export = directory.write("export.xml", exportXML(" " + record + "\n " + record))
        let tool = Tool(standardOutput: { _ in }, standardError: { _ in }, errorIsTerminal: false)
        #expect(tool.run(["import", export, "--db", directory.file("a.sqlite"), "--quiet"]) == 0)
        #expect(
            tool.run([
                "import", export, "--db", directory.file("b.sqlite"), "--quiet", "--raw-units", "--keep-duplicates",
            ]) == 0)
        let normal = try SQLiteConnection(path: directory.file("a.sqlite"), create: false)
        let raw = try SQLiteConnection(path: directory.file("b.sqlite"), create: false)
        #expect(
            try normal.query("SELECT unit, count(*) FROM discrete_samples GROUP BY 1") == [[.text("kg"), .integer(1)]])
        #expect(
            try raw.query("SELECT unit, count(*) FROM discrete_samples GROUP BY 1") == [[.text("lb"), .integer(2)]])
    }
}
