import Foundation
import HealthTestSupport
import Testing

@testable import HealthPipelines

/// The parquet sink: a lake folder and an optional partition, checked like the other sinks, and published from
/// whichever database the run writes (the sqlite sink's here).
@Suite struct ParquetSinkValidationTests {
    @Test func aParquetSinkBecomesThePlansLake() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = directory.write("export.zip", "")
        let json = """
            {"version": 1, "input": {"export": "export.zip"},
             "sinks": [{"sqlite": "p.sqlite"}, {"parquet": "lake", "person": "P123"}]}
            """
        let definition = try PipelineValidationTests.parse(json, base: directory.path)
        #expect(
            definition.outputs.first(ParquetLakeOutput.self)
                == ParquetLakeOutput(folder: directory.path + "/lake", person: "P123"))
        let plan = try definition.plan()
        #expect(plan.outputs.count == 1)
        #expect(
            plan.outputs.first as? ParquetLakeOutput
                == ParquetLakeOutput(folder: directory.path + "/lake", person: "P123"))
        #expect(plan.databasePath == directory.path + "/p.sqlite")
        #expect(definition.describe().contains("parquet: \(directory.path)/lake/ (partition person=P123)"))
    }

    @Test func aParquetSinksFieldsAreChecked() {
        let base = #""version": 1, "input": {"export": "e.zip"}"#
        let problems = PipelineValidationTests.problems(
            "{\(base), \"sinks\": [{\"parquet\": \"/tmp/lake\", \"person\": \"../P1\", \"zstd\": true}]}")
        #expect(problems.contains("sinks[0].zstd: unknown field 'zstd' (allowed in a parquet sink: parquet, person)"))
        #expect(problems.contains { $0.hasPrefix("sinks[0].person: a folder name") })
    }

    @Test func theStudyLakeExampleParses() throws {
        let definition = try PipelineDefinition.load(path: PipelineExampleTests.example("study-lake.json"))
        #expect(definition.outputs.first(ParquetLakeOutput.self)?.person == "P017")
        #expect(definition.outputs.first(ParquetLakeOutput.self)?.folder.hasSuffix("/lake") == true)
        #expect(definition.sqlite?.path.hasSuffix("/P017.sqlite") == true)
        #expect(definition.describe().contains("(partition person=P017)"))
    }
}
