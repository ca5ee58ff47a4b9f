import Foundation
import HealthModel
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthPostgres
@testable import HealthSQLite

/// SQLite's and PostgreSQL's migrations are two lists of the same shape (`SQLiteMigrations.steps`,
/// `PostgresMigrations.steps`): a schema version gets its step in both, with the same key and landing.
struct MigrationListTests {
    /// Each step's `from` and `to`, in the list's order.
    static let sqlite = SQLiteMigrations.steps.map { [$0.from, $0.to] }
    static let postgres = PostgresMigrations.steps.map { [$0.from, $0.to] }

    @Test(arguments: [("SQLite", sqlite), ("PostgreSQL", postgres)])
    func theStepsAreOrderedContiguousAndEndAtTheCurrentVersion(backEnd: String, steps: [[Int]]) throws {
        let first = try #require(steps.first?[0], "\(backEnd)")
        // One step from every version between the first and the current one, in order.
        #expect(steps.map { $0[0] } == Array(first..<Schema.userVersion), "\(backEnd)")
        for step in steps {
            #expect(step[0] < step[1] && step[1] <= Schema.userVersion, "\(backEnd): \(step)")
        }
        #expect(steps.last?[1] == Schema.userVersion, "\(backEnd)")
    }

    @Test func bothMigratorsReachTheCurrentVersionFromEveryVersionTheyKnow() throws {
        for version in 1...Schema.userVersion {
            #expect(SchemaMigrator.sqlite.path(from: version) != nil, "SQLite from \(version)")
        }
        let earliest = try #require(Self.postgres.first?[0])
        for version in earliest...Schema.userVersion {
            #expect(SchemaMigrator.postgres.path(from: version) != nil, "PostgreSQL from \(version)")
        }
        #expect(SchemaMigrator.sqlite.path(from: Schema.userVersion)?.isEmpty == true)
        #expect(SchemaMigrator.postgres.path(from: Schema.userVersion)?.isEmpty == true)
    }

    /// From the earliest version the server supports (it began later than SQLite), the same versions have a
    /// step, and each lands on the same version.
    @Test func bothListsAgreeOnTheVersionsFromTheServersEarliest() throws {
        let earliest = try #require(Self.postgres.first?[0])
        #expect(Self.sqlite.filter { $0[0] >= earliest } == Self.postgres)
    }

    @Test func sqliteRefusesADatabaseOfALaterVersionBeforeAnyStep() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE import_runs (id INTEGER); PRAGMA user_version = \(Schema.userVersion + 1)")
        #expect {
            _ = try SchemaMigrator.sqlite.migrate(connection, file: "health.sqlite")
        } throws: { error in
            (error as? ImportError)?.message
                == "the database was written by a later healthetl (schema version \(Schema.userVersion + 1), "
                + "expected \(Schema.userVersion))"
        }
        #expect(try connection.scalar("PRAGMA user_version") == .integer(Int64(Schema.userVersion + 1)))
    }
}

/// The server refuses a schema of a later healthetl as SQLite refuses such a file: in one line, naming what it
/// refuses, with nothing changed.
@Suite(.needsPostgres)
struct PostgresMigrationRefusalTests {
    @Test func aSchemaOfALaterVersionIsRefusedAsItIs() throws {
        let database = try TestPostgres.makeDatabase("later schema")
        defer { database.drop() }
        let connection = try database.connect()
        try PostgresSession.ensureSchema(connection)
        let later = String(Schema.userVersion + 1)
        try connection.execute("UPDATE healthetl.schema_info SET value = '\(later)' WHERE key = 'schema_version'")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try PostgresImportTests.export(days: 1, into: directory)
        #expect {
            try PostgresImportTests.importIntoPostgres(export, person: "ida", database)
        } throws: { error in
            "\(error)"
                == "PostgreSQL person ida: error: the PostgreSQL schema healthetl was written by a later healthetl "
                + "(schema version \(later), expected \(Schema.userVersion)) (hint: use the healthetl version that "
                + "wrote it)"
        }
        #expect(try connection.scalar("SELECT value FROM healthetl.schema_info WHERE key = 'schema_version'") == later)
        #expect(try connection.scalar("SELECT count(*) FROM healthetl.import_runs") == "0")
    }
}
