import Foundation
import HealthPipelines
import HealthTestSupport
import Testing

@testable import HealthCSV
@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStages

/// Re-import cases found in review: each compared with what a fresh import of the same export gives.
struct ReimportEdgeCaseTests {
    let helper = IncrementalTests()

    func fresh(_ body: String, exportDate: String = "2024-03-01 10:00:00 +0100", in directory: TemporaryDirectory)
        throws -> SQLiteConnection
    {
        let path = directory.file("fresh-\(UUID().uuidString).sqlite")
        _ = try helper.importXML(body, exportDate: exportDate, into: path)
        return try SQLiteConnection(path: path, create: false)
    }

    static let mass = """
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" sourceVersion="1.0" unit="lb" startDate="2024-02-01 07:00:00 +0100" endDate="2024-02-01 07:00:00 +0100" value="154">
          <MetadataEntry key="HKMetadataKeySyncIdentifier" value="w-1"/>
          <MetadataEntry key="HKMetadataKeySyncVersion" value="1"/>
         </Record>
        """

    @Test func switchingTheUnitStageOnAnExistingDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try helper.importXML(Self.mass, into: database)
        let before = try dataContent(of: database)
        let error = #expect(throws: ImportError.self) {
            _ = try helper.importXML(Self.mass, into: database) { $0.stages.removeAll { $0 is UnitStage } }
        }
        #expect(error?.kind == .refused)
        #expect(error?.description.contains("mixing both in one column") == true)
        #expect(try dataContent(of: database) == before)
    }

    /// The same sync version saying something else (here: a new app version) replaces the earlier run's row
    /// instead of being dropped, so the sample is not lost when the old row turns out to be gone.
    @Test func anEqualSyncVersionWithOtherContentReplacesTheOldRow() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try helper.importXML(Self.mass, into: database)
        let edited = Self.mass.replacingOccurrences(of: "sourceVersion=\"1.0\"", with: "sourceVersion=\"1.1\"")
        let summary = try helper.importXML(edited, exportDate: "2024-03-02 10:00:00 +0100", into: database)
        #expect(summary.changeTotals.replaced == 1)
        #expect(summary.changeTotals.deleted == 0)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.query("SELECT value, unit FROM discrete_samples") == [[.real(154 * 0.45359237), .text("kg")]])
        #expect(try db.scalar("SELECT reason FROM deleted_samples") == .text("replaced"))
        let reference = try fresh(edited, in: directory)
        #expect(
            try db.scalar("SELECT identity FROM discrete_samples")
                == reference.scalar("SELECT identity FROM discrete_samples"))
    }

    /// Correlation children that the export does not repeat at top level (against the format's rule) are
    /// met with their unchanged correlation, not deleted.
    @Test func childrenOnlyInsideACorrelationSurviveAReimport() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let body = """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
              <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="80"/>
             </Correlation>
            """
        _ = try helper.importXML(body, into: database)
        let before = try dataContent(of: database)
        let again = try helper.importXML(body, into: database)
        #expect(again.changeTotals.deleted == 0)
        #expect(again.changeTotals.unchanged == 3)
        let after = try dataContent(of: database)
        #expect(after["discrete_samples"] == before["discrete_samples"])
        #expect(after["correlation_samples"] == before["correlation_samples"])
        let anchors = "SELECT type, row_count, fingerprint FROM anchors ORDER BY type"
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.query(anchors) == fresh(body, in: directory).query(anchors))
    }

    /// Records without a readable start are never anyone's duplicate (issue 14): both copies are stored, and a
    /// re-import meets each of them once.
    @Test func recordsWithoutAStartAreNeverDuplicates() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let record = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="garbage" endDate="2024-02-01 08:10:00 +0100" value="5"/>
            """
        _ = try helper.importXML(record + "\n" + record, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM cumulative_samples") == .integer(2))
        let again = try helper.importXML(record + "\n" + record, into: database)
        #expect(again.changeTotals.deleted == 0)
        #expect(again.changeTotals.unchanged == 2)
        #expect(try db.scalar("SELECT count(*) FROM deleted_samples") == .integer(0))
    }

    /// Category rollups rebuilt only from the changes on equal a full rebuild, also when a better source's
    /// long sample starting before the rebuilt window competes for the same hours.
    @Test func partialCategoryRollupsEqualAFullRebuild() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let sleep = """
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" device="&lt;&lt;HKDevice: 0x1&gt;, model:Watch&gt;" startDate="2024-02-06 12:00:00 +0100" endDate="2024-02-07 12:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="AutoSleep" startDate="2024-02-07 01:00:00 +0100" endDate="2024-02-08 01:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
            """
        let later = """

             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="AutoSleep" startDate="2024-03-10 14:00:00 +0100" endDate="2024-03-10 15:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
            """
        _ = try helper.importXML(sleep, into: database)
        _ = try helper.importXML(sleep + later, exportDate: "2024-03-11 10:00:00 +0100", into: database)
        let rollups = "SELECT period, label, type, statistic, value, sources FROM rollups ORDER BY 1, 2, 3, 4"
        let db = try SQLiteConnection(path: database, create: false)
        #expect(
            try db.query(rollups)
                == fresh(sleep + later, exportDate: "2024-03-11 10:00:00 +0100", in: directory).query(rollups))
    }

    /// A CSV-only run never takes over a scratch file left at its own path (containers reuse pids).
    @Test func aLeftoverScratchFileAtOurOwnPathIsNotUsed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ours = folder + "/\(CSVOutput.scratchPrefix)\(getpid()).sqlite"
        #expect(FileManager.default.createFile(atPath: ours, contents: Data("not a database".utf8)))
        let export = directory.write("export.xml", exportXML(IncrementalTests.steps))
        var output = CSVOutput(directory: folder)
        output.tables = false
        let job = ImportJob(inputPath: export, databasePath: "", timeZone: TimeZone(identifier: "Europe/Berlin"))
        let result = try PipelinePlan(job: job, databasePath: nil, csv: output).run()
        #expect(result.summary.changeTotals.added == 2)
        #expect(result.csv?.files.count == DailyCSV.fileNames.count)
        #expect(!FileManager.default.fileExists(atPath: ours))
    }
}
