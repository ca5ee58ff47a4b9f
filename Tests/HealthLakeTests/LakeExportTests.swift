import Foundation
import HealthSQLite
import HealthTestSupport
import Testing

@testable import HealthLake
@testable import HealthParquet

/// `healthetl export --parquet` on a database the real importer made, read back by the real readers.
@Suite(.needsHealthetlExecutable, .serialized) struct LakeExportTests {
    static let shared = TemporaryDirectory.removedAtExit("healthetl-lake")

    /// Every column's Parquet type against the storage classes SQLite holds in it: a view column the schema
    /// does not type (a new computed one) fails here rather than being written as text.
    @Test func everyColumnTypeFitsTheValuesTheDatabaseHolds() throws {
        let database = try LakeFixtures.database(at: Self.shared.file("types.sqlite"))
        let connection = try SQLiteConnection(path: database, create: false, readOnly: true)
        for relation in LakeRelation.all {
            for column in relation.columns {
                let classes = try connection.query(
                    "SELECT DISTINCT typeof(\"\(column.name)\") FROM \"\(relation.name)\""
                )
                .compactMap { $0.first?.text }.filter { $0 != "null" }
                let allowed: Set<String> =
                    switch column.kind {
                    case .integer: ["integer"]
                    case .double: ["real", "integer"]
                    case .string, .date, .timestampMicrosUTC: ["text"]
                    case .binary: ["blob"]
                    }
                #expect(Set(classes).isSubset(of: allowed), "\(relation.name).\(column.name): \(classes)")
            }
        }
    }

    @Test(.needsLakeReaders) func everyRelationEqualsTheDatabaseInEveryReader() throws {
        let folder = TemporaryDirectory("healthetl-lake")
        defer { folder.remove() }
        let database = try LakeFixtures.database(at: folder.file("health.sqlite"))
        let lake = folder.file("lake")
        let run = try LakeFixtures.healthetl(["export", "--db", database, "--parquet", lake])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("Published \(LakeRelation.all.count) Parquet files"), "\(run.error)")
        let summary = try LakeFixtures.check(database: database, lake: lake)
        let relations = try #require(summary["relations"] as? [String: Int])
        #expect(Set(relations.keys) == Set(LakeRelation.all.map(\.name)))
        #expect((relations["cumulative_samples"] ?? 0) > 1000)
        #expect((summary["daily_steps_days"] as? Int ?? 0) >= 8)
        let types = try #require(summary["types"] as? [String: [String: String]])
        #expect(types["cumulative_samples"]?["start_date"] == "timestamp[us, tz=UTC]")
        #expect(types["cumulative_samples"]?["local_date"] == "date32[day]")
        #expect(types["cumulative_samples"]?["value"] == "double")
        #expect(types["cumulative_samples"]?["id"] == "int64")
        #expect(types["cumulative_samples"]?["type"] == "string")
        // Owner-only files.
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: lake + "/sleep").first)
        let attributes = try FileManager.default.attributesOfItem(atPath: lake + "/sleep/" + file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anUnchangedDatabaseRewritesNothing() throws {
        let folder = TemporaryDirectory("healthetl-lake")
        defer { folder.remove() }
        let database = try LakeFixtures.database(at: folder.file("health.sqlite"))
        let lake = folder.file("lake")
        #expect(try LakeFixtures.healthetl(["export", "--db", database, "--parquet", lake]).status == 0)
        let before = try FileManager.default.attributesOfItem(atPath: lake + "/sleep")
        let again = try LakeFixtures.healthetl(["export", "--db", database, "--parquet", lake])
        #expect(again.status == 0)
        #expect(again.error.contains("unchanged"), "\(again.error)")
        let after = try FileManager.default.attributesOfItem(atPath: lake + "/sleep")
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
    }

    @Test func badLakesAreOneLineAndAnExitCode() throws {
        let folder = TemporaryDirectory("healthetl-lake")
        defer { folder.remove() }
        let database = try LakeFixtures.database(at: folder.file("health.sqlite"))
        // The lake path is a file.
        let file = folder.write("lake-file", "not a folder")
        let onFile = try LakeFixtures.healthetl(["export", "--db", database, "--parquet", file])
        #expect(onFile.status == 73)
        #expect(onFile.error == "healthetl: \(file): error: the lake path is a file, not a folder\n")
        // A foreign file in a person's folder: refused before anything changes.
        let lake = folder.file("lake")
        #expect(
            try LakeFixtures.healthetl(["export", "--db", database, "--parquet", lake, "--person", "P1"]).status == 0)
        let foreign = lake + "/sleep/person=P1/notes.txt"
        FileManager.default.createFile(atPath: foreign, contents: Data("mine".utf8))
        let before = LakeFixtures.snapshot(lake)
        let changed = try LakeFixtures.database(at: folder.file("other.sqlite"), days: 5, seed: 9)
        let refused = try LakeFixtures.healthetl(["export", "--db", changed, "--parquet", lake, "--person", "P1"])
        #expect(refused.status == 73)
        #expect(
            refused.error.hasPrefix("healthetl: \(foreign): error: a file healthetl did not write"), "\(refused.error)")
        #expect(refused.error.split(separator: "\n").count == 1)
        #expect(LakeFixtures.snapshot(lake) == before)
        // A person id that cannot name a folder.
        let badID = try LakeFixtures.healthetl(["export", "--db", database, "--parquet", lake, "--person", "../x"])
        #expect(badID.status == 64)
    }

    /// The disk filling up mid-publish (a file size limit makes writes fail the same way): the previous files
    /// stay, whole, and nothing staged is left behind.
    @Test func aWriteFailingMidPublishLeavesThePreviousFiles() throws {
        let folder = TemporaryDirectory("healthetl-lake")
        defer { folder.remove() }
        let first = try LakeFixtures.database(at: folder.file("first.sqlite"), days: 3, seed: 2)
        let second = try LakeFixtures.database(at: folder.file("second.sqlite"), days: 9, seed: 4)
        let lake = folder.file("lake")
        #expect(try LakeFixtures.healthetl(["export", "--db", first, "--parquet", lake]).status == 0)
        let before = LakeFixtures.snapshot(lake)
        let healthetl = try #require(Fixtures.healthetl)
        // 64 blocks of 512 bytes: enough for small files, not for the samples; SIGXFSZ ignored, write fails.
        let run = try ProcessRunner.run(
            "/bin/bash",
            [
                "-c", "trap '' XFSZ; ulimit -f 64; exec \"$0\" export --db \"$1\" --parquet \"$2\"",
                healthetl, second, lake,
            ])
        #expect(run.status == 73, "\(run.error)")
        #expect(run.error.contains("cannot write"), "\(run.error)")
        #expect(run.error.split(separator: "\n").count == 1)
        #expect(LakeFixtures.snapshot(lake) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: lake).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    /// `import --db --person --parquet`: the id names the partition and PostgreSQL is not used, even with the
    /// PG* environment naming a server (one that does not exist here).
    @Test func importPublishesThePersonsPartitionWithoutPostgres() throws {
        let folder = TemporaryDirectory("healthetl-lake")
        defer { folder.remove() }
        let export = try GeneratedExport.days(3, seed: 41)
        let lake = folder.file("lake")
        let healthetl = try #require(Fixtures.healthetl)
        var environment = ProcessInfo.processInfo.environment
        environment["PGHOST"] = folder.file("no-server")
        environment["PGDATABASE"] = "study"
        let run = try ProcessRunner.run(
            healthetl,
            ["import", export.path, "--db", folder.file("p7.sqlite"), "--person", "P7", "--parquet", lake],
            environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("Published \(LakeRelation.all.count) Parquet files to \(lake) (person=P7)"))
        #expect(FileManager.default.fileExists(atPath: lake + "/_healthetl/person=P7.json"))
        let files = try FileManager.default.contentsOfDirectory(atPath: lake + "/daily_rollups/person=P7")
        #expect(files.count == 1 && LakeLayout.isDataFile(files[0]))
        // --working-copy is PostgreSQL's: refused with --parquet unless --postgres names the server.
        let mixed = try LakeFixtures.healthetl([
            "import", export.path, "--person", "P7", "--parquet", lake, "--working-copy", folder.path,
        ])
        #expect(mixed.status == 64)
    }
}
