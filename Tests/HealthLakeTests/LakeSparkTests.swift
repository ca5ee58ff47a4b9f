import Foundation
import HealthSQLite
import HealthTestSupport
import Testing

/// pipelines/spark/cohort.py in Spark's `local[2]`: the executors import three persons' exports concurrently
/// and publish them into one lake, then Spark SQL answers over it; its per-person counts equal each database.
@Suite(.needsHealthetlExecutable, .serialized, .tags(.fullSuite), .fastLoopSelection) struct LakeSparkTests {
    static let venv = Fixtures.repositoryRoot + "/.build/spark-venv"
    static var sparkInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: venv + "/bin/python3"),
            Fixtures.executable("java") != nil
        else { return false }
        return (try? ProcessRunner.run(venv + "/bin/python3", ["-c", "import pyspark"], timeout: 120))?.status == 0
    }

    @Test(
        .enabled(
            if: sparkInstalled,
            "pyspark is not in .build/spark-venv or java is missing (the full scripts/test installs them)"
        ))
    func sparkImportsAndAnswersPerPerson() throws {
        let folder = TemporaryDirectory("healthetl-spark")
        defer { folder.remove() }
        let persons = [
            "S1": try GeneratedExport.days(3, seed: 51), "S2": try GeneratedExport.days(5, seed: 52),
            "S3": try GeneratedExport.days(4, seed: 53),
        ]
        let manifest = folder.write(
            "cohort.csv", "person,export\n" + persons.map { "\($0.key),\($0.value.path)\n" }.joined())
        let lake = folder.file("lake")
        let work = folder.file("work")
        let healthetl = try #require(Fixtures.healthetl)
        let run = try ProcessRunner.run(
            Self.venv + "/bin/python3",
            [
                Fixtures.repositoryRoot + "/pipelines/spark/cohort.py", "--manifest", manifest, "--lake", lake,
                "--work", work, "--healthetl", healthetl, "--master", "local[2]",
            ], timeout: 900)
        try #require(run.status == 0, "cohort.py: \(run.error.suffix(2000))")
        let line = try #require(run.output.split(separator: "\n").last)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let counts = try #require(result["counts"] as? [String: [String: Int]])
        let steps = try #require(result["steps"] as? [String: Double])
        #expect(Set(counts.keys) == Set(persons.keys))
        for person in persons.keys {
            let database = try SQLiteConnection(path: work + "/\(person).sqlite", create: false, readOnly: true)
            for relation in ["cumulative_samples", "discrete_samples", "workouts"] {
                let expected = try database.scalar("SELECT count(*) FROM \(relation)").integer
                #expect(counts[person]?[relation].map(Int64.init) == expected, "\(person) \(relation)")
            }
            let days = try database.scalar("SELECT count(*) FROM daily_rollups WHERE column_name = 'StepCount'")
            #expect(counts[person]?["daily_steps_days"].map(Int64.init) == days.integer)
            let total = try database.scalar("SELECT sum(value) FROM daily_rollups WHERE column_name = 'StepCount'")
            if case .real(let sum) = total { #expect(abs((steps[person] ?? 0) - sum) < 1e-6 * max(1, sum)) }
        }
    }
}
