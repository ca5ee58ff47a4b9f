import Foundation
import HealthTestSupport
import SampleExports
import Testing

/// What the lake tests share: the venv with the real readers, databases imported by the real executable, and
/// runs of `healthetl export --parquet`.
enum LakeFixtures {
    /// The venv scripts/test makes (`scripts/python-venv .build/lake-venv pyarrow==… duckdb==… polars==…`).
    static let venv = Fixtures.repositoryRoot + "/.build/lake-venv"
    static let python = venv + "/bin/python3"
    static let checker = Fixtures.repositoryRoot + "/Tests/HealthLakeTests/lake_check.py"

    static var readersInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let probe = try? ProcessRunner.run(python, ["-c", "import pyarrow, duckdb, polars"], timeout: 60)
        return probe?.status == 0
    }

    static func healthetl(_ arguments: [String], timeout: Double = 300) throws -> ProcessRunner.Result {
        try ProcessRunner.run(try #require(Fixtures.healthetl), arguments, timeout: timeout)
    }

    /// A database imported from a generated export of `days` days with `seed`, at `path`.
    static func database(at path: String, days: Int = 8, seed: UInt64 = 5) throws -> String {
        let export = try GeneratedExport.days(days, seed: seed)
        let run = try healthetl(["import", export.path, "--db", path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        return path
    }

    /// Runs lake_check.py: every relation's values against the database, through pyarrow, DuckDB and polars.
    static func check(database: String, lake: String, person: String? = nil) throws -> [String: Any] {
        let run = try ProcessRunner.run(python, [checker, database, lake] + (person.map { [$0] } ?? []), timeout: 600)
        try #require(run.status == 0, "lake_check.py: \(run.error)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
        return try #require(object as? [String: Any])
    }

    /// The bytes of every file under `folder`, by relative path.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        for case let relative as String in walker {
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }
}

extension Trait where Self == ConditionTrait {
    static var needsLakeReaders: Self {
        .enabled(
            if: LakeFixtures.readersInstalled,
            "pyarrow, DuckDB and polars are not in .build/lake-venv (scripts/test installs them)")
    }
}
