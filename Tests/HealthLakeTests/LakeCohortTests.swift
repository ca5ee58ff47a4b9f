import Foundation
import HealthTestSupport
import Testing

@testable import HealthLake
@testable import SampleExports

/// A cohort's lake: persons published by separate processes into one folder, each into its own partition.
@Suite(.needsHealthetlExecutable, .serialized) struct LakeCohortTests {
    /// Three persons published at once; each partition equals its database (every value, through pyarrow,
    /// DuckDB and polars) and DuckDB's per-person counts over the Hive-partitioned lake equal each database's.
    /// Re-publishing one person leaves the others' files byte-identical.
    @Test(.needsLakeReaders) func threePersonsPublishedConcurrently() throws {
        let folder = TemporaryDirectory("healthetl-cohort")
        defer { folder.remove() }
        let persons = ["P1": (4, UInt64(21)), "P2": (6, UInt64(22)), "P3": (5, UInt64(23))]
        var databases: [String: String] = [:]
        for (person, (days, seed)) in persons {
            databases[person] = try LakeFixtures.database(at: folder.file("\(person).sqlite"), days: days, seed: seed)
        }
        let lake = folder.file("lake")
        let healthetl = try #require(Fixtures.healthetl)
        let runs = try databases.map { person, database in
            try ProcessRunner.start(
                healthetl, ["export", "--db", database, "--parquet", lake, "--person", person, "--quiet"])
        }
        for run in runs {
            run.waitUntilExit()
            #expect(run.terminationStatus == 0)
        }
        for (person, database) in databases {
            _ = try LakeFixtures.check(database: database, lake: lake, person: person)
        }
        let counts = try ProcessRunner.run(
            LakeFixtures.python,
            [
                "-c",
                """
                import duckdb, json, sqlite3, sys
                lake, persons = sys.argv[1], json.loads(sys.argv[2])
                out = {}
                for table in ["cumulative_samples", "workouts", "daily_rollups", "route_points"]:
                    rows = duckdb.sql(f"SELECT person, count(*) FROM read_parquet('{lake}/{table}/*/*.parquet', "
                                      "hive_partitioning = true) GROUP BY person").fetchall()
                    lake_counts = dict(rows)
                    for person, db in persons.items():
                        expected = sqlite3.connect(db).execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
                        if lake_counts.get(person) != expected:
                            sys.exit(f"{table} {person}: lake {lake_counts.get(person)}, database {expected}")
                    out[table] = lake_counts
                print(json.dumps(out))
                """, lake, String(decoding: try JSONSerialization.data(withJSONObject: databases), as: UTF8.self),
            ])
        #expect(counts.status == 0, "\(counts.error)")

        // P2's export changes: only P2's files change.
        func othersFiles() -> [String: Data] {
            LakeFixtures.snapshot(lake).filter { !$0.key.contains("person=P2") }
        }
        let before = othersFiles()
        let changed = try LakeFixtures.database(at: folder.file("P2-later.sqlite"), days: 7, seed: 24)
        let republish = try LakeFixtures.healthetl(["export", "--db", changed, "--parquet", lake, "--person", "P2"])
        #expect(republish.status == 0, "\(republish.error)")
        #expect(othersFiles() == before)
        _ = try LakeFixtures.check(database: changed, lake: lake, person: "P2")
    }

    /// SIGKILL at random moments of a publish: afterwards every relation's partition holds exactly one whole
    /// file (DuckDB reads each), the previous generation's or the new one's, never both; the next publish
    /// completes and leaves no staging folder behind.
    @Test(.needsLakeReaders) func aKilledPublishLeavesThePreviousOrTheNewFiles() throws {
        let folder = TemporaryDirectory("healthetl-cohort")
        defer { folder.remove() }
        let first = try LakeFixtures.database(at: folder.file("first.sqlite"), days: 6, seed: 31)
        let second = try LakeFixtures.database(at: folder.file("second.sqlite"), days: 8, seed: 32)
        let lake = folder.file("lake")
        #expect(try LakeFixtures.healthetl(["export", "--db", first, "--parquet", lake, "--person", "K"]).status == 0)
        let healthetl = try #require(Fixtures.healthetl)
        // Seeded, and the seed printed, so a failing round can be run again as it was.
        let seed = UInt64(Date().timeIntervalSince1970)
        print("aKilledPublishLeavesThePreviousOrTheNewFiles: kill times from seed \(seed)")
        var random = SampleExports.SeededRandom(seed: seed, stream: "lake-publish-kills")
        for round in 0..<8 {
            let database = round % 2 == 0 ? second : first
            let run = try ProcessRunner.start(
                healthetl, ["export", "--db", database, "--parquet", lake, "--person", "K", "--quiet"])
            usleep(UInt32(20_000 + random.next() % 880_001))
            ProcessRunner.stop(run)
            let check = try ProcessRunner.run(
                LakeFixtures.python,
                [
                    "-c",
                    """
                    import duckdb, glob, os, sys
                    lake = sys.argv[1]
                    for table in sorted(os.listdir(lake)):
                        if table.startswith(".") or table.startswith("_"):
                            continue
                        files = glob.glob(f"{lake}/{table}/person=K/*")
                        if len(files) != 1:
                            sys.exit(f"{table}: {files}")
                        duckdb.sql(f"SELECT count(*) FROM read_parquet('{files[0]}')").fetchall()
                    """, lake,
                ])
            #expect(check.status == 0, "round \(round): \(check.error)")
        }
        let last = try LakeFixtures.healthetl(["export", "--db", second, "--parquet", lake, "--person", "K"])
        #expect(last.status == 0, "\(last.error)")
        _ = try LakeFixtures.check(database: second, lake: lake, person: "K")
        #expect(try FileManager.default.contentsOfDirectory(atPath: lake).filter { $0.hasPrefix(".") }.isEmpty)
    }
}
