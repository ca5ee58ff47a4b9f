import Foundation
import HealthTestSupport
import Testing

@testable import HealthPipelines

/// The workouts sink: a folder and the options of `export --workouts`, checked like the other sinks.
@Suite struct WorkoutFilesSinkTests {
    @Test func aWorkoutsSinkBecomesAnOutputOfThePlan() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = directory.write("export.zip", "")
        let json = """
            {"version": 1, "input": {"export": "export.zip"},
             "sinks": [{"sqlite": "p.sqlite"},
                       {"workouts": "files", "format": "tcx", "start": "2025-01-01", "activity": "running",
                        "position": false}]}
            """
        let definition = try PipelineValidationTests.parse(json, base: directory.path)
        let plan = try definition.plan()
        let output = try #require(plan.outputs.first as? WorkoutFilesOutput)
        #expect(output.folder == directory.path + "/files")
        #expect(output.key == "workouts")
        #expect(
            definition.describe().contains(
                "workouts: \(directory.path)/files/ (one TCX file per workout, from 2025-01-01, running only, "
                    + "without positions)"))
    }

    @Test func aWorkoutsSinksFieldsAreChecked() {
        let base = #""version": 1, "input": {"export": "e.zip"}"#
        let problems = PipelineValidationTests.problems(
            "{\(base), \"sinks\": [{\"workouts\": \"/tmp/w\", \"format\": \"kml\", \"laps\": true}]}")
        #expect(
            problems.contains(
                "sinks[0].laps: unknown field 'laps' (allowed in a workouts sink: workouts, format, start, end, "
                    + "activity, position)"))
        #expect(problems.contains { $0.contains("The value 'kml' is invalid for '--format <fit|tcx|gpx>'") })
        let dates = PipelineValidationTests.problems(
            "{\(base), \"sinks\": [{\"workouts\": \"/tmp/w\", \"start\": \"2025-02-01\", \"end\": \"2025-01-01\"}]}")
        #expect(dates.contains { $0.contains("'--start 2025-02-01' is after '--end 2025-01-01'") })
    }
}
