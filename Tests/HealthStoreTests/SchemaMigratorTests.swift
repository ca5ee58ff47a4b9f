import Foundation
import HealthModel
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore

/// The one loop that runs migrations (`SchemaMigrator`): which steps it runs from each version, what it
/// records after each, and the databases it refuses before touching them.
struct SchemaMigratorTests {
    /// A database that only remembers what was done to it.
    final class Log {
        var entries: [String] = []
    }

    /// Steps 1 → 2, 2 → 4 (jumping over 3) and 3 → 4, ending at 4, as version 4's step jumps over 5 in SQLite's list.
    static var migrator: SchemaMigrator<Log> {
        SchemaMigrator<Log>(
            subject: "the log",
            steps: [
                MigrationStep(from: 3, to: 4) { $0.entries.append("3") },
                MigrationStep(from: 1, to: 2) { $0.entries.append("1") },
                MigrationStep(from: 2, to: 4, aftermath: .computesBaselines) { $0.entries.append("2") },
            ], startAfresh: "start a new log", target: 4
        ) { log, version in log.entries.append("version \(version)") }
    }

    @Test(
        arguments: [
            (1, ["1", "version 2", "2", "version 4"], .computesBaselines), (2, ["2", "version 4"], .computesBaselines),
            (3, ["3", "version 4"], []), (4, [], []),
        ] as [(Int, [String], MigrationAftermath)])
    func runsEachStepFromWhereTheOneBeforeLanded(from version: Int, runs: [String], leaves: MigrationAftermath) throws {
        let log = Log()
        #expect(try Self.migrator.migrate(log, from: version, file: "log") == leaves)
        #expect(log.entries == runs)
    }

    @Test func refusesALaterVersionOrOneNoStepStartsFromBeforeRunningAnyStep() {
        let log = Log()
        #expect {
            _ = try Self.migrator.migrate(log, from: 5, file: "the.log")
        } throws: { error in
            "\(error)" == "the.log: error: the log was written by a later healthetl (schema version 5, expected 4) "
                + "(hint: use the healthetl version that wrote it, or start a new log)"
        }
        #expect {
            _ = try Self.migrator.migrate(log, from: 0, file: "the.log")
        } throws: { error in
            "\(error)" == "the.log: error: the log was written by a healthetl this one cannot upgrade (schema "
                + "version 0, expected 4) (hint: start a new log)"
        }
        #expect(log.entries.isEmpty)
    }

    /// An import into a database of a later healthetl is refused in one line naming the file, and the file is
    /// left as it was.
    @Test func anImportRefusesADatabaseOfALaterVersion() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let export = directory.write("export.xml", exportXML(SQLiteSinkTests.body))
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        let later = Schema.userVersion + 1
        try SQLiteConnection(path: database, create: false).execute("PRAGMA user_version = \(later)")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        #expect {
            _ = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        } throws: { error in
            "\(error)"
                == "\(database): error: the database was written by a later healthetl (schema version \(later), "
                + "expected \(Schema.userVersion)) (hint: use the healthetl version that wrote it, or import into a "
                + "new file)"
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }
}
