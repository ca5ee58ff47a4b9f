import Foundation
import HealthCSV
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthPipelines

/// The example files in pipelines/ are documentation; they must stay valid against the parser.
@Suite struct PipelineExampleTests {
    static let folder = (Fixtures.repositoryRoot as NSString).appendingPathComponent("pipelines")
    static func example(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
    static let root = (Fixtures.repositoryRoot as NSString).standardizingPath
    static let sampleExport = (root as NSString).appendingPathComponent("sample-exports/export.zip")

    @Test func fullSQLiteParsesWithEveryStageAndResolvesTheSampleExport() throws {
        let definition = try PipelineDefinition.load(path: Self.example("full-sqlite.json"))
        #expect(definition.inputExport == Self.sampleExport)
        #expect(try definition.resolveInput() == Self.sampleExport)
        #expect(definition.timeZone?.identifier == "Europe/Berlin")
        #expect(
            definition.unitsEnabled && definition.valenceEnabled && definition.dedupEnabled && definition.rollupsEnabled
        )
        #expect(definition.rollups.periods == [.day, .week, .month])
        #expect(definition.sqlite == .init(path: Self.root + "/health.sqlite", wait: 60, force: false))
        #expect(definition.outputs.first(CSVOutput.self) == nil)
    }

    @Test func spreadsheetWritesOnlyTheExcelDailyCSV() throws {
        let definition = try PipelineDefinition.load(path: Self.example("spreadsheet.json"))
        #expect(try definition.resolveInput() == Self.sampleExport)
        #expect(definition.sqlite == nil)
        var spreadsheet = CSVOutput(directory: Self.root + "/out-spreadsheet")
        spreadsheet.dialect = .excel
        spreadsheet.tables = false
        #expect(definition.outputs.first(CSVOutput.self) == spreadsheet)
        #expect(definition.rollups.periods == [.day])
    }

    @Test func nightlyIncrementalParsesAndReportsAMissingDropFolderClearly() throws {
        let definition = try PipelineDefinition.load(path: Self.example("nightly-incremental.json"))
        let pattern = NSHomeDirectory() + "/HealthDrop/export*.zip"
        #expect(definition.inputExport == pattern)
        #expect(definition.inputIsGlob)
        #expect(definition.sqlite?.wait == 600)
        #expect(definition.outputs.first(CSVOutput.self)?.tables == false)
        #expect(definition.outputs.first(HTMLReportOutput.self)?.options.lastDays == 365)
        #expect(definition.outputs.first(HTMLReportOutput.self)?.path.hasSuffix("/health-report.html") == true)
        #expect(
            definition.rollups.priorityByType["HKQuantityTypeIdentifierStepCount"]?.rules
                == [.watch, .source("Oura"), .iPhone, .apps, .manual])
        guard !FileManager.default.fileExists(atPath: NSHomeDirectory() + "/HealthDrop") else { return }
        let error = try #require(throws: PipelineError.self) { try definition.resolveInput() }
        #expect(error.problems == [.init(path: "input.export", message: "no export matches '\(pattern)'")])
        #expect(definition.describe().contains("  no export matches this pattern"))
    }

    @Test func researchSubsetFiltersThreeTypesOverOneWeek() throws {
        let definition = try PipelineDefinition.load(path: Self.example("research-subset.json"))
        #expect(try definition.resolveInput() == Self.sampleExport)
        #expect(
            definition.filters.types == [
                "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate",
                "HKCategoryTypeIdentifierSleepAnalysis",
            ])
        #expect(definition.filters.fromDay == Timestamp.daysFromCivil(2024, 3, 25))
        #expect(definition.filters.toDay == Timestamp.daysFromCivil(2024, 4, 1))
        #expect(definition.rollups.periods == [.hour, .day, .week])
        #expect(definition.sqlite != nil && definition.outputs.first(CSVOutput.self) != nil)
    }

    @Test func studyPostgresImportsOneParticipantWithoutAPasswordInTheFile() throws {
        let definition = try PipelineDefinition.load(path: Self.example("study-postgres.json"))
        #expect(definition.inputIsGlob)
        #expect(definition.sqlite == nil && definition.outputs.first(CSVOutput.self) == nil)
        #expect(
            definition.postgres
                == .init(
                    connection: "", person: "P017", wait: 600, force: false,
                    workingCopies: "/var/lib/healthetl/working-copies"))
        #expect(definition.describe().contains("  postgres: person P017 on the PG* environment (wait 600 s)"))
    }

    @Test func describeListsInputStagesAndSinks() throws {
        let definition = try PipelineDefinition.load(path: Self.example("research-subset.json"))
        let text = definition.describe()
        #expect(text.contains("input:   \(Self.sampleExport)\n"))
        #expect(text.contains("  dates:   from 2024-03-25 (inclusive) to 2024-04-01 (exclusive)\n"))
        #expect(text.contains("  dedup:   on (exact duplicates: on, sync versions: on)\n"))
        #expect(text.contains("  rollups: on (periods: hour, day, week; priority: watch, iphone, apps, manual)\n"))
        #expect(
            text.contains(
                "  csv:    \(Self.root)/out-research/ (one CSV per table; daily.csv, daily_long.csv; RFC 4180 dialect)\n"
            ))
    }
}
