import Foundation
import HealthTestSupport
import Testing

/// What the workout-file tests share: the venv with the real readers, a database imported by the real
/// executable, and runs of `healthetl export --workouts` checked by workout_files_check.py.
enum WorkoutFilesFixtures {
    /// The venv scripts/test makes (`scripts/python-venv .build/workout-files-venv garmin-fit-sdk==… …`).
    static let venv = Fixtures.repositoryRoot + "/.build/workout-files-venv"
    static let python = venv + "/bin/python3"
    static let checker = Fixtures.repositoryRoot + "/Tests/HealthWorkoutFilesTests/workout_files_check.py"
    static let sampleExport = Fixtures.repositoryRoot + "/sample-exports/export.zip"

    static var readersInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let probe = try? ProcessRunner.run(
            python, ["-c", "import garmin_fit_sdk, fitdecode, tcxreader, gpxpy, lxml"], timeout: 60)
        return probe?.status == 0
    }

    static func healthetl(_ arguments: [String], timeout: Double = 300) throws -> ProcessRunner.Result {
        try ProcessRunner.run(try #require(Fixtures.healthetl), arguments, timeout: timeout)
    }

    /// A database imported from `export` (the sample export by default) at `path`.
    static func database(at path: String, from export: String = sampleExport) throws -> String {
        let run = try healthetl(["import", export, "--db", path, "--quiet"])
        try #require(run.status == 0, "\(run.error)")
        return path
    }

    /// Runs workout_files_check.py over `folder`: every file read back and compared with the database.
    static func check(database: String, folder: String, format: String, noPosition: Bool = false) throws
        -> [String: Any]
    {
        let run = try ProcessRunner.run(
            python, [checker, database, folder, format] + (noPosition ? ["--no-position"] : []), timeout: 600)
        #expect(run.status == 0, "workout_files_check.py: \(run.error)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
        return try #require(object as? [String: Any])
    }
}

extension Trait where Self == ConditionTrait {
    static var needsWorkoutReaders: Self {
        .enabled(
            if: WorkoutFilesFixtures.readersInstalled,
            "garmin-fit-sdk, fitdecode, tcxreader, gpxpy and lxml are not in .build/workout-files-venv (scripts/test installs them)"
        )
    }
}
