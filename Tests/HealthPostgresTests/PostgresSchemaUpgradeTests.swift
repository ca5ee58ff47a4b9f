import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthPipelines
@testable import HealthPostgres
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// A server that holds people imported by schema 3 is upgraded to schema 4 by the first importer of this
/// version, in one transaction under the schema lock: every person's public rows are the same afterwards, the
/// schema is what a new one would be, the next imports go on as into a server that was always version 4, and
/// an upgrade that fails or is killed leaves version 3 exactly as it was.
@Suite(.needsPostgres)
struct PostgresSchemaUpgradeTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")

    /// People imported into SQLite databases of their own (the reference) and into a version 3 server.
    static func version3Server(
        _ database: TestDatabase, _ people: [(person: String, seed: UInt64, days: Int, offset: String)],
        in directory: TemporaryDirectory
    ) throws -> [String: String] {
        var direct: [String: String] = [:]
        var old: [(person: String, path: String)] = []
        for (index, (person, seed, days, offset)) in people.enumerated() {
            let export = try PostgresImportTests.export(seed: seed, days: days, offset: offset, into: directory)
            direct[person] = directory.file("direct-\(index).sqlite")
            _ = try ImportJob(inputPath: export, databasePath: direct[person]!, timeZone: Self.berlin).run()
            old.append((person, directory.file("v3-\(index).sqlite")))
            try PostgresVersion3.makeSQLite(from: direct[person]!, at: old[index].path)
        }
        try PostgresVersion3.makeServer(database, people: old)
        return direct
    }

    static func version(_ connection: PostgresConnection) throws -> String? {
        try connection.scalar("SELECT value FROM healthetl.schema_info WHERE key = 'schema_version'")
    }

    @Test func everyPersonsRowsAreTheSameAfterTheUpgrade() throws {
        let database = try TestPostgres.makeDatabase("upgrade from version 3")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let direct = try Self.version3Server(
            database, [("ana", 21, 14, "+0100"), ("o'brien", 22, 9, "-0500"), ("cy", 23, 5, "+0530")], in: directory)
        let connection = try database.connect()
        #expect(try Self.version(connection) == "3")
        var before: [String: [String: [[Cell]]]] = [:]
        for person in direct.keys {
            before[person] = try PostgresVersion3.publicRows(connection, person: person)
            // The version 3 server holds what the person's own import holds.
            for (name, columns) in PostgresVersion3.relations where !PublicRows.runTables.contains(name) {
                let expected = try PublicRows.sqlite(direct[person]!, name, columns)
                #expect(PublicRows.difference(name, columns, expected, before[person]![name]!) == nil, "\(person)")
            }
        }
        let rows = try connection.scalar(
            "SELECT (SELECT count(*) FROM healthetl.cumulative_samples) + (SELECT count(*) FROM healthetl.discrete_samples) "
                + "+ (SELECT count(*) FROM healthetl.category_samples) + (SELECT count(*) FROM healthetl.metadata) "
                + "+ (SELECT count(*) FROM healthetl.hrv_beats) + (SELECT count(*) FROM healthetl.route_points)")

        let clock = ContinuousClock()
        let started = clock.now
        try PostgresSession.ensureSchema(connection)
        print(
            "PostgreSQL upgrade 3 → 4: \(direct.count) people, \(rows ?? "?") rows of the six tables in \(clock.now - started)"
        )

        #expect(try Self.version(connection) == String(Schema.userVersion))
        for person in direct.keys {
            let after = try PostgresVersion3.publicRows(connection, person: person)
            for (name, columns) in PostgresVersion3.relations {
                let columns = columns.filter { $0 != FeedSchema.originColumn.name }  // not in version 3
                #expect(
                    PublicRows.difference(name, columns, before[person]![name]!, after[name]!) == nil, "\(person)")
            }
            for table in FeedSchema.tables {
                #expect(
                    try database.count(
                        "SELECT count(*) FROM healthetl.\(table) WHERE person = $1 AND origin <> 0", [person])
                        == 0, "\(table): every upgraded row is an export's")
            }
            // Each person's dictionaries are numbered from 1 in byte order, as SQLite's upgrade numbers them.
            let types = try connection.query(
                "SELECT type FROM healthetl.type_names WHERE person = $1 ORDER BY id", [person]
            ).map { $0[0] ?? "" }
            #expect(
                !types.isEmpty && types == types.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
            #expect(
                try connection.scalar("SELECT max(id) FROM healthetl.type_names WHERE person = $1", [person])
                    == String(types.count))
            #expect(
                try database.count("SELECT count(*) FROM healthetl.parent_tables WHERE person = $1", [person])
                    == Schema.metadataParents.count)
        }
        // The schema is what a new one is: the old tables gone, the compact ones, the views and the indexes there.
        let fresh = try TestPostgres.makeDatabase("a new version 4 schema")
        defer { fresh.drop() }
        let new = try fresh.connect()
        try PostgresSession.ensureSchema(new)
        #expect(try PostgresVersion3.shape(connection) == PostgresVersion3.shape(new))

        // The next export goes in as into a server that was always version 4.
        let later = try PostgresImportTests.export(seed: 21, days: 17, offset: "+0200", into: directory)
        _ = try ImportJob(inputPath: later, databasePath: direct["ana"]!, timeZone: nil).run()
        let summary = try PostgresImportTests.importIntoPostgres(later, person: "ana", database)
        #expect(summary.changeTotals.added > 0 && (summary.postgres?.rowsCheckedOut ?? 0) > 0)
        for (name, columns) in PublicRows.relations where !PublicRows.runTables.contains(name) {
            let expected = try PublicRows.sqlite(direct["ana"]!, name, columns)
            let server = try PublicRows.postgres(connection, person: "ana", name, columns)
            #expect(PublicRows.difference(name, columns, expected, server) == nil, "after the next export")
        }
    }

    /// Version 2 (before `workouts.local_start`, `data_types` and the workout overview) goes through version 3
    /// to 4; the person's next import fills what version 3 added, as it always did.
    @Test func aVersion2ServerIsUpgradedThroughVersion3() throws {
        let database = try TestPostgres.makeDatabase("upgrade from version 2")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let direct = try Self.version3Server(database, [("dee", 24, 6, "+0100")], in: directory)
        let connection = try database.connect()
        try connection.execute(
            """
            DROP VIEW healthetl.workout_overview; DROP TABLE healthetl.data_types;
            DROP INDEX healthetl.workout_statistics_workout, healthetl.workout_routes_workout;
            ALTER TABLE healthetl.workouts DROP COLUMN local_start;
            UPDATE healthetl.schema_info SET value = '2'
            """)
        // (Without the feed's `origin`, which version 3 predates.)
        let unchanged = PostgresVersion3.relations.filter {
            !["workouts", "data_types", "workout_overview"].contains($0.name)
        }
        .map { (name: $0.name, columns: $0.columns.filter { $0 != FeedSchema.originColumn.name }) }
        let before = try unchanged.map { try PublicRows.postgres(connection, person: "dee", $0.name, $0.columns) }

        try PostgresSession.ensureSchema(connection)
        #expect(try Self.version(connection) == String(Schema.userVersion))
        for ((name, columns), rows) in zip(unchanged, before) {
            let after = try PublicRows.postgres(connection, person: "dee", name, columns)
            #expect(PublicRows.difference(name, columns, rows, after) == nil)
        }
        #expect(try database.count("SELECT count(*) FROM healthetl.workouts WHERE local_start IS NOT NULL") == 0)
        #expect(try database.count("SELECT count(*) FROM healthetl.workouts") > 0)

        let later = try PostgresImportTests.export(seed: 24, days: 8, offset: "+0100", into: directory)
        _ = try ImportJob(inputPath: later, databasePath: direct["dee"]!, timeZone: nil).run()
        try PostgresImportTests.importIntoPostgres(later, person: "dee", database)
        for (name, columns) in PublicRows.relations where !PublicRows.runTables.contains(name) {
            let expected = try PublicRows.sqlite(direct["dee"]!, name, columns)
            let server = try PublicRows.postgres(connection, person: "dee", name, columns)
            #expect(PublicRows.difference(name, columns, expected, server) == nil, "after the next export")
        }
        #expect(try database.count("SELECT count(*) FROM healthetl.workouts WHERE local_start IS NULL") == 0)
    }
}
