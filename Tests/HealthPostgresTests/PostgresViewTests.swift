import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthPipelines
@testable import HealthPostgres
@testable import HealthSQLite
@testable import HealthStages
@testable import HealthStore

/// The server stores the compact tables (schema 4) and shows them through views written once for both
/// dialects: for each person, every public table and view holds exactly the rows, value for value, that the
/// same relation holds in the person's SQLite working copy.
@Suite(.needsPostgres)
struct PostgresViewTests {
    /// Two people whose dictionaries number the same names differently (a view joining without the person
    /// would show one person's names on the other's rows), on exports with HRV beats, routes, metadata and
    /// correlations.
    @Test func theViewsShowWhatTheWorkingCopyShows() throws {
        let database = try TestPostgres.makeDatabase("views equal the working copy")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try PostgresImportTests.importIntoPostgres(
            try PostgresImportTests.export(seed: 11, days: 20, into: directory), person: "ana", database)
        // Ben's first export holds two types only, so his ids start with them.
        var job = ImportJob(
            inputPath: try PostgresImportTests.export(seed: 12, days: 4, offset: "-0430", into: directory),
            databasePath: "", timeZone: TimeZone(identifier: "America/Caracas"))
        let few = SampleFilter(types: ["HKQuantityTypeIdentifierHeartRate", "HKCategoryTypeIdentifierSleepAnalysis"])
        job.stages = [FilterStage(few), UnitStage(), ValenceStage()]
        job.storeOptions.scope = few
        _ = try PipelinePlan(
            job: job, databasePath: nil, csv: nil,
            postgres: PostgresDestination(connection: database.url, person: "ben")
        ).run()
        try PostgresImportTests.importIntoPostgres(
            try PostgresImportTests.export(seed: 12, days: 16, offset: "+0530", into: directory), person: "ben",
            database)

        let connection = try database.connect()
        let ids = try ["ana", "ben"].map { person in
            try connection.query("SELECT type, id FROM healthetl.type_names WHERE person = $1 ORDER BY type", [person])
        }
        #expect(ids[0].count > 20)
        #expect(ids[0] != ids[1])
        for person in ["ana", "ben"] {
            let copy = directory.file("\(person).sqlite")
            try database.checkout(person: person, into: copy)
            for (name, columns) in PublicRows.relations {
                let local = try PublicRows.sqlite(copy, name, columns)
                let server = try PublicRows.postgres(connection, person: person, name, columns)
                #expect(PublicRows.difference(name, columns, local, server) == nil, "\(person)")
                // Every relation the generator fills is compared on real rows, not on two empty sets.
                let empty: Set = [
                    "ecg_recordings", "clinical_records", "audiograms", "audiogram_points",
                    "vision_prescriptions", "state_of_mind", "documents", "deleted_samples", "workout_duplicates",
                ]
                if !empty.contains(name) { #expect(!local.isEmpty, "\(person): \(name) is empty") }
            }
        }
    }

    /// The expressions that turn integers back into text, on values beyond what an export usually holds:
    /// before 1970, hundredths of 0, 1 and 99, offsets of half hours and beyond ±14 h, NULL.
    @Test func instantsOffsetsAndHundredthsReadAsInSQLite() throws {
        let database = try TestPostgres.makeDatabase("dialect expressions")
        defer { database.drop() }
        let seconds: [Int64?] = [
            0, 1, -1, 59, 86_399, 951_782_400, 1_560_820_031, 4_102_444_800, -86_401, -62_135_596_800,
            253_402_300_799, nil,
        ]
        let centis: [Int64?] = [
            0, 1, 99, 100, 101, -1, -99, -100, -101, 156_082_003_194, 156_082_003_100, 156_082_003_109, nil,
        ]
        let offsets: [Int64?] = [0, 45, -45, 3_600, -14_400, 19_800, -34_200, 50_400, -43_200, 360_000, nil]
        let sqlite = try SQLiteConnection(path: ":memory:")
        let server = try database.connect()
        for (values, sqliteSQL, postgresSQL) in [
            (seconds, ViewDialect.sqlite.instantText("x"), ViewDialect.postgres.instantText("x")),
            (centis, ViewDialect.sqlite.centisecondText("x"), ViewDialect.postgres.centisecondText("x")),
            (offsets, ViewDialect.sqlite.offsetText("x"), ViewDialect.postgres.offsetText("x")),
        ] {
            let list = values.map { $0.map(String.init) ?? "NULL" }.joined(separator: "), (")
            let expected = try sqlite.query("SELECT \(sqliteSQL) FROM (SELECT column1 AS x FROM (VALUES (\(list))))")
                .map { $0[0].text }
            let shown = try server.query(
                "SELECT \(postgresSQL) FROM (VALUES (\(list.replacingOccurrences(of: "NULL", with: "NULL::bigint")))) AS v (x)"
            ).map { $0[0] }
            #expect(shown == expected)
            #expect(
                expected.contains("1970-01-01T00:00:01Z") || expected.contains("1970-01-01T00:00:00.01Z")
                    || expected.contains("+01:00"))
        }
    }
}
