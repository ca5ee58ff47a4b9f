import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite

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
            try db.query(
                "SELECT kind, round(valence_percent, 6), labels_json, associations_json, metadata_json FROM state_of_mind"
            )
                == [
                    [
                        .text("dailyMood"), .real(30), .text(#"["Stressed","Tired"]"#), .text(#"["Work"]"#),
                        .text(#"{"HKTimeZone":"Europe/Berlin"}"#),
                    ]
                ])
    }
}
