import Foundation
import HealthCSV
import HealthImport
import HealthTestSupport
import Testing

@testable import HealthPipelines

/// The outputs of a run as one list of registered kinds: parsed in the order of the sinks, compared as values,
/// described by `--dry-run`, and written one after the other from the run's database.
@Suite struct PipelineOutputTests {
    static func parse(_ sinks: String) throws -> PipelineDefinition {
        let json = #"{"version": 1, "input": {"export": "/tmp/export.zip"}, "sinks": [\#(sinks)]}"#
        return try PipelineDefinition.parse(
            data: Data(json.utf8), baseDirectory: NSTemporaryDirectory(), fileName: "pipelines/x.json")
    }

    @Test func everyRegisteredKindHasItsOwnKeyAndAcceptsIt() {
        let keys = PipelineOutputKind.registered.map(\.key)
        #expect(Set(keys).count == keys.count)
        #expect(Set(keys).isDisjoint(with: PipelineParser.databaseKinds))
        for kind in PipelineOutputKind.registered { #expect(kind.fields.contains(kind.key)) }
    }

    @Test func outputsKeepTheOrderOfTheSinksAndCompareByTheirSettings() throws {
        let folder = NSTemporaryDirectory() + "healthetl-outputs"
        let sinks = #"{"sqlite": "/tmp/x.sqlite"}, {"report": "/tmp/r.html", "days": 30}, {"csv": "\#(folder)"}"#
        let definition = try Self.parse(sinks)
        #expect(definition.outputs.items.map(\.key) == ["report", "csv"])
        #expect(definition.outputs == (try Self.parse(sinks)).outputs)
        let excel = try Self.parse(
            sinks.replacingOccurrences(of: #""csv": "\#(folder)""#, with: #""csv": "\#(folder)", "excel": true"#))
        #expect(definition.outputs != excel.outputs)
        #expect(
            excel.outputs.first(CSVOutput.self)?.dialect == .excel
                && definition.outputs.first(CSVOutput.self)?.dialect == .standard)
        let described = definition.describe()
        #expect(described.contains("  report: /tmp/r.html (the last 30 days; "))
        #expect(
            described.contains("  csv:    \(folder)/ (one CSV per table; daily.csv, daily_long.csv; RFC 4180 dialect)"))
    }

    /// The FHIR sink (HealthFHIR): its fields parsed, described by `--dry-run`, a bad level refused by name.
    @Test func aFHIRSinkParsesAndIsDescribed() throws {
        let folder = NSTemporaryDirectory() + "healthetl-fhir"
        let definition = try Self.parse(
            #"{"sqlite": "/tmp/x.sqlite"}, {"fhir": "\#(folder)", "level": "samples", "patient": false, "bundle": true}"#
        )
        let fhir = try #require(definition.outputs.first(FHIROutput.self))
        #expect(fhir.folder == folder)
        #expect(fhir.plannedDescription == "\(folder)/ (FHIR R4, level samples, one transaction Bundle, no Patient)")
        #expect(definition.describe().contains("fhir:"))
        let ieee = try Self.parse(#"{"sqlite": "/tmp/x.sqlite"}, {"ieee1752": "\#(folder)", "level": "samples"}"#)
        #expect(
            ieee.outputs.first(IEEE1752Output.self)?.plannedDescription
                == "\(folder)/ (IEEE 1752.1 data points, level samples)")
        #expect(throws: (any Error).self) {
            try Self.parse(#"{"sqlite": "/tmp/x.sqlite"}, {"fhir": "\#(folder)", "level": "hourly"}"#)
        }
        do {
            _ = try Self.parse(#"{"sqlite": "/tmp/x.sqlite"}, {"fhir": "\#(folder)", "level": "hourly"}"#)
        } catch {
            #expect("\(error)".contains("'hourly' is not daily or samples"), "\(error)")
        }
    }

    @Test func anOutputDrawnFromAKeptDatabaseIsRefusedWithoutOne() throws {
        let plan = PipelinePlan(
            job: ImportJob(inputPath: "/tmp/none.zip", databasePath: "", timeZone: nil), databasePath: nil,
            outputs: [HTMLReportOutput(path: "/tmp/r.html")])
        #expect(throws: (any Error).self) { try plan.run() }
        do {
            _ = try plan.run()
        } catch {
            #expect("\(error)".contains("a report is drawn from a SQLite database"))
        }
    }
}
