import Foundation
import HealthTestSupport
import Testing

/// Every file `healthetl export --workouts` writes, read back by the real readers (Garmin's FIT SDK with its
/// integrity check, fitdecode, tcxreader, gpxpy; lxml against the TCX v2, GPX 1.1 and TrackPointExtension v1
/// schemas) and compared with the database: start, duration, distance (±0.5 %), heart rate on every point, laps.
@Suite(.needsHealthetlExecutable, .needsWorkoutReaders)
struct WorkoutFileReaderTests {
    @Test(arguments: ["fit", "tcx", "gpx"])
    func theSampleExportsWorkoutsReadBackAsTheDatabaseHasThem(format: String) throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let database = try WorkoutFilesFixtures.database(at: folder.path + "/health.sqlite")
        let out = folder.path + "/workouts"
        let run = try WorkoutFilesFixtures.healthetl([
            "export", "--db", database, "--workouts", out, "--format", format,
        ])
        #expect(run.status == 0, "\(run.error)")
        let summary = try WorkoutFilesFixtures.check(database: database, folder: out, format: format)
        // The sample export: 16 workouts, 10 with a usable route (one route file is missing from it).
        #expect(summary["checked"] as? Int == (format == "gpx" ? 10 : 16))
        #expect((summary["points_with_heart_rate"] as? Int ?? 0) > 1000)
        if format == "gpx" {
            #expect(run.error.contains("2024-03-27_1920_swimming.gpx: skipped (the workout has no route"))
        }
        #expect(run.error.contains("is not in the export"))
    }

    @Test(arguments: ["fit", "tcx"])
    func withoutPositionTheFilesHaveNoCoordinates(format: String) throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let database = try WorkoutFilesFixtures.database(at: folder.path + "/health.sqlite")
        let out = folder.path + "/workouts"
        let run = try WorkoutFilesFixtures.healthetl([
            "export", "--db", database, "--workouts", out, "--format", format, "--no-position",
        ])
        #expect(run.status == 0, "\(run.error)")
        let summary = try WorkoutFilesFixtures.check(database: database, folder: out, format: format, noPosition: true)
        #expect(summary["checked"] as? Int == 16)
    }

    @Test func aWorkoutWithARouteOfOnePointIsReportedAndTheOthersWritten() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let database = try WorkoutFilesFixtures.database(at: folder.path + "/health.sqlite")
        // The 2024-04-06 ride's route cut to its first point, as a broken GPX file leaves it.
        let cut = try ProcessRunner.run(
            WorkoutFilesFixtures.python,
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                route = db.execute("SELECT r.id FROM workout_routes r JOIN workouts w ON w.id = r.workout_id "
                                   "WHERE w.start_date = '2024-04-06T15:25:08Z'").fetchone()[0]
                db.execute("DELETE FROM route_point_rows WHERE route_id = ? AND seq > 0", (route,))
                db.execute("UPDATE workout_routes SET point_count = 1 WHERE id = ?", (route,))
                db.commit()
                """,
                database,
            ])
        try #require(cut.status == 0, "\(cut.error)")
        for format in ["fit", "gpx"] {
            let out = folder.path + "/" + format
            let run = try WorkoutFilesFixtures.healthetl([
                "export", "--db", database, "--workouts", out, "--format", format,
            ])
            #expect(run.status == 0, "\(run.error)")
            let line =
                format == "gpx"
                ? "2024-04-06_1725_cycling.gpx: skipped (its route is unusable: a route of one point;"
                : "2024-04-06_1725_cycling.fit: written without its route (a route of one point)"
            #expect(run.error.contains(line), "\(run.error)")
            let summary = try WorkoutFilesFixtures.check(database: database, folder: out, format: format)
            #expect(summary["checked"] as? Int == (format == "gpx" ? 9 : 16))
        }
    }

    @Test(.enabled(if: Fixtures.real("dogsheep-excerpt/zip_contents/export.xml") != nil, "../shared is not present"))
    func aRealExportsWorkoutReadsBack() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let export = try #require(Fixtures.real("dogsheep-excerpt/zip_contents"))
        let database = try WorkoutFilesFixtures.database(at: folder.path + "/health.sqlite", from: export)
        for format in ["fit", "tcx", "gpx"] {
            let out = folder.path + "/" + format
            let run = try WorkoutFilesFixtures.healthetl([
                "export", "--db", database, "--workouts", out, "--format", format,
            ])
            #expect(run.status == 0, "\(run.error)")
            // Its route file is of another day (2019, the workout 2016): not the workout's, said in one line.
            #expect(run.error.contains("fewer than two of its route's points are within the workout's time"))
            let summary = try WorkoutFilesFixtures.check(database: database, folder: out, format: format)
            #expect(summary["checked"] as? Int == (format == "gpx" ? 0 : 1))
        }
    }
}

/// The files as files: owner-only, not rewritten when unchanged, named by local start and activity, the
/// options' refusals as usage errors.
@Suite(.needsHealthetlExecutable)
struct WorkoutFileFolderTests {
    @Test func anUnchangedWorkoutIsNotRewrittenAndAChangedFileIs() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let database = try WorkoutFilesFixtures.database(at: folder.path + "/health.sqlite")
        let out = folder.path + "/workouts"
        let first = try WorkoutFilesFixtures.healthetl(["export", "--db", database, "--workouts", out, "--json"])
        #expect(first.status == 0, "\(first.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names.count == 16)
        #expect(names.contains("2024-03-31_1858_cycling.fit"))
        #expect(names.contains("2024-03-27_1920_swimming.fit"))
        for name in names {
            let mode = try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let cycling = out + "/2024-03-31_1858_cycling.fit"
        let swimming = out + "/2024-03-27_1920_swimming.fit"
        let before = try Data(contentsOf: URL(fileURLWithPath: cycling))
        // An old time on both: a rewrite would change it.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: cycling)
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: swimming))
        let second = try WorkoutFilesFixtures.healthetl(["export", "--db", database, "--workouts", out, "--json"])
        #expect(second.status == 0, "\(second.error)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(second.output.utf8)) as? [String: Any])
        let workouts = try #require(summary["workouts"] as? [String: Any], "\(second.output)")
        #expect(workouts["unchanged"] as? Int == 15)
        #expect(workouts["written"] as? [String] == ["2024-03-27_1920_swimming.fit"])
        let modified = try FileManager.default.attributesOfItem(atPath: cycling)[.modificationDate] as? Date
        #expect(modified == old)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cycling)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: swimming)).count > 100)
    }

    @Test func aPipelinesWorkoutsSinkWritesAfterTheImport() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let pipeline = folder.write(
            "nightly.json",
            """
            {"version": 1, "input": {"export": "\(WorkoutFilesFixtures.sampleExport)"},
             "sinks": [{"sqlite": "health.sqlite"}, {"workouts": "workouts", "format": "gpx"}]}
            """)
        let first = try WorkoutFilesFixtures.healthetl(["run", pipeline])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.error.contains("Wrote 10 GPX workout files to \(folder.path)/workouts"), "\(first.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/workouts").count == 10)
        // The next night, the same export: the database is unchanged, and so is every file.
        let second = try WorkoutFilesFixtures.healthetl(["run", pipeline])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.error.contains("(10 unchanged, not rewritten)"), "\(second.error)")
    }

    @Test func theOptionsSelectAndRefuse() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let database = try WorkoutFilesFixtures.database(at: folder.path + "/health.sqlite")
        let out = folder.path + "/workouts"
        let run = try WorkoutFilesFixtures.healthetl([
            "export", "--db", database, "--workouts", out, "--format", "tcx", "--activity", "cycling",
            "--start", "2024-04-01", "--end", "2024-04-03",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
                "2024-04-01_1724_cycling.tcx", "2024-04-02_1700_cycling.tcx", "2024-04-03_1805_cycling.tcx",
            ])
        for (arguments, message) in [
            (["--format", "kml"], "The value 'kml' is invalid for '--format <fit|tcx|gpx>'"),
            (["--start", "2024-13-01"], "The value '2024-13-01' is invalid for '--start <YYYY-MM-DD>'"),
            (["--start", "2024-04-02", "--end", "2024-04-01"], "'--start 2024-04-02' is after '--end 2024-04-01'"),
        ] {
            let refused = try WorkoutFilesFixtures.healthetl(
                ["export", "--db", database, "--workouts", out] + arguments)
            #expect(refused.status == 64)
            #expect(refused.error.contains(message), "\(refused.error)")
        }
        let alone = try WorkoutFilesFixtures.healthetl([
            "export", "--db", database, "--csv", out + "-csv", "--format", "gpx",
        ])
        #expect(alone.status == 64)
        #expect(alone.error.contains("'--format' on export goes with '--workouts <folder>'"), "\(alone.error)")
    }
}
