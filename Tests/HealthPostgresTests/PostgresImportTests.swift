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

/// Imports into a real PostgreSQL server (see `TestPostgres`): a person's rows equal those of an import into
/// SQLite, people are kept apart, the same person's importers take turns, and a failed or killed run leaves
/// the server as it was.
@Suite(.needsPostgres, .tags(.fullSuite), .fastLoopSelection)
struct PostgresImportTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")

    static func export(seed: UInt64 = 7, days: Int, offset: String = "+0100", into directory: TemporaryDirectory)
        throws -> String
    {
        var options = GeneratorOptions(seed: seed, days: days, profile: .ios18)
        options.scale = 0.3
        options.exportOffset = offset
        let path = directory.file("export-\(seed)-\(days)\(offset).zip")
        _ = try GeneratedExport.zip(options).copy(to: path)
        return path
    }

    @discardableResult
    static func importIntoPostgres(
        _ export: String, person: String, _ database: TestDatabase, lockTimeout: Double = 10
    ) throws -> ImportSummary {
        var job = ImportJob(inputPath: export, databasePath: "", timeZone: berlin)
        job.lockTimeoutSeconds = lockTimeout
        let destination = PostgresDestination(connection: database.url, person: person)
        return try PipelinePlan(job: job, databasePath: nil, csv: nil, postgres: destination).run().summary
    }

    static func personContent(_ database: TestDatabase, _ person: String, in directory: TemporaryDirectory) throws
        -> [String: [[SQLiteValue]]]
    {
        let path = directory.file("checkout-\(UUID().uuidString).sqlite")
        try database.checkout(person: person, into: path)
        return try dataContent(of: path)
    }

    /// Two exports in a row, into SQLite and into PostgreSQL: the person's rows (read back through a
    /// checkout) equal the SQLite database's, and counts and sums computed by the server agree with SQLite's.
    @Test func aPersonsRowsEqualAnImportIntoSQLite() throws {
        let database = try TestPostgres.makeDatabase("rows equal SQLite's")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let earlier = try Self.export(days: 40, into: directory)
        let later = try Self.export(days: 44, offset: "+0200", into: directory)

        let sqlite = directory.file("direct.sqlite")
        for export in [earlier, later] {
            _ = try ImportJob(inputPath: export, databasePath: sqlite, timeZone: Self.berlin).run()
        }
        let first = try Self.importIntoPostgres(earlier, person: "p1", database)
        #expect(first.postgres?.rowsDeleted == 0)
        let second = try Self.importIntoPostgres(later, person: "p1", database)
        #expect(second.changeTotals.added > 0)
        // Only what changed travels: far fewer rows than the first import sent.
        let sentFirst = try #require(first.postgres?.rowsSent)
        let sentSecond = try #require(second.postgres?.rowsSent)
        #expect(sentSecond < sentFirst / 4)

        let direct = try dataContent(of: sqlite)
        let published = try Self.personContent(database, "p1", in: directory)
        let differing = direct.keys.filter { direct[$0] != published[$0] }.sorted()
        #expect(differing == [])

        // Independently of the checkout: the server's own counts and sums.
        let db = try SQLiteConnection(path: sqlite, create: false)
        for table in Schema.tables {
            let expected = try db.scalar("SELECT count(*) FROM \"\(table.name)\"")
            let counted = try database.count(
                "SELECT count(*) FROM healthetl.\"\(table.name)\" WHERE person = $1", ["p1"])
            #expect(expected == .integer(Int64(counted)), "\(table.name)")
        }
        let sums = try db.query("SELECT type, sum(value) FROM cumulative_samples GROUP BY type ORDER BY type")
        let serverSums = try database.connect().query(
            "SELECT type, sum(value) FROM healthetl.cumulative_samples WHERE person = 'p1' GROUP BY type ORDER BY type")
        #expect(sums.count == serverSums.count && !sums.isEmpty)
        for (local, server) in zip(sums, serverSums) {
            guard case .text(let type) = local[0], case .real(let sum) = local[1] else { continue }
            #expect(type == server[0])
            let serverSum = Double(server[1] ?? "") ?? .nan
            #expect(abs(serverSum - sum) <= 1e-9 * max(1, abs(sum)), "\(type)")
        }
        #expect(
            try database.count(
                "SELECT count(*) FROM healthetl.import_runs WHERE person = 'p1' AND outcome = 'ok'") == 2)

        // `status --person` reports what `status --db` reports for the SQLite database.
        let serverStatus = try PostgresStatus.read(PostgresDestination(connection: database.url, person: "p1"))
        let fileStatus = try DatabaseStatus.read(path: sqlite)
        #expect(serverStatus.totals == fileStatus.totals)
        #expect(serverStatus.lastRuns.map(\.outcome) == fileStatus.lastRuns.map(\.outcome))
        #expect(serverStatus.anchors.map(\.rows) == fileStatus.anchors.map(\.rows))
        #expect(serverStatus.path == "PostgreSQL person p1")
        #expect(throws: ImportError.self) {
            try PostgresStatus.read(PostgresDestination(connection: database.url, person: "nobody"))
        }
    }

    /// The same zip again checks out only the run bookkeeping; the same zip in another time zone cannot take
    /// that shortcut (the rollups move), and both end exactly where a SQLite database that saw the same runs
    /// ends.
    @Test func theSameZipAgainIsQuickAndStillExact() throws {
        let database = try TestPostgres.makeDatabase("same zip again")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 6, into: directory)
        let sqlite = directory.file("direct.sqlite")
        var outcomes: [String] = []
        for zone in ["Europe/Berlin", "Europe/Berlin", "America/New_York"] {
            _ = try ImportJob(inputPath: export, databasePath: sqlite, timeZone: TimeZone(identifier: zone)).run()
            var job = ImportJob(inputPath: export, databasePath: "", timeZone: TimeZone(identifier: zone))
            job.lockTimeoutSeconds = 10
            let destination = PostgresDestination(connection: database.url, person: "gina")
            let summary = try PipelinePlan(job: job, databasePath: nil, csv: nil, postgres: destination).run().summary
            outcomes.append(summary.outcome + " \((summary.postgres?.rowsCheckedOut ?? -1) < 100 ? "quick" : "full")")
            #expect(try Self.personContent(database, "gina", in: directory) == (try dataContent(of: sqlite)), "\(zone)")
        }
        // The first run has nothing to check out; the third re-reads nothing either (same zip) but rebuilds
        // the rollups in the new zone, which needs the samples.
        #expect(outcomes == ["ok quick", "unchanged quick", "unchanged full"])
        let runs = try database.connect().query(
            "SELECT outcome FROM healthetl.import_runs WHERE person = 'gina' ORDER BY id")
        #expect(runs == [["ok"], ["unchanged"], ["unchanged"]])
    }

    /// With `--working-copy`, the next run on the same machine skips the check-out; once another machine has
    /// imported the person, the kept copy is stale and is checked out again. Every state equals a SQLite
    /// database that saw the same imports.
    @Test func aKeptWorkingCopyIsUsedOnlyWhileItIsCurrent() throws {
        let database = try TestPostgres.makeDatabase("kept working copy")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let exports = try [3, 5, 7, 9].map { try Self.export(days: $0, into: directory) }
        let sqlite = directory.file("direct.sqlite")
        let machineA = directory.file("machine-a")
        func run(_ export: String, keptIn folder: String?) throws -> ImportSummary.PostgresReport {
            _ = try ImportJob(inputPath: export, databasePath: sqlite, timeZone: Self.berlin).run()
            let job = ImportJob(inputPath: export, databasePath: "", timeZone: Self.berlin)
            let destination = PostgresDestination(connection: database.url, person: "hana", workingCopies: folder)
            let summary = try PipelinePlan(job: job, databasePath: nil, csv: nil, postgres: destination).run().summary
            #expect(try Self.personContent(database, "hana", in: directory) == (try dataContent(of: sqlite)))
            return try #require(summary.postgres)
        }
        let first = try run(exports[0], keptIn: machineA)
        #expect(!first.keptWorkingCopy && first.rowsCheckedOut == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: machineA).filter { $0.hasSuffix(".sqlite") }
        #expect(kept.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: machineA + "/" + kept[0])[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = try run(exports[1], keptIn: machineA)
        #expect(second.keptWorkingCopy && second.rowsCheckedOut == 0)
        let elsewhere = try run(exports[2], keptIn: nil)  // another machine, without a kept copy
        #expect(!elsewhere.keptWorkingCopy && elsewhere.rowsCheckedOut > 0)
        let stale = try run(exports[3], keptIn: machineA)
        #expect(!stale.keptWorkingCopy && stale.rowsCheckedOut > 0)
        let again = try run(exports[3], keptIn: machineA)
        #expect(again.keptWorkingCopy)

        // A damaged kept copy is not trusted: checked out again, and the run succeeds.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: machineA + "/" + kept[0]))
        let damaged = try run(exports[3], keptIn: machineA)
        #expect(!damaged.keptWorkingCopy && damaged.rowsCheckedOut > 0)
    }

    /// Text with U+0000 (which PostgreSQL text cannot hold; the readers remove it) is named by table and
    /// column if it ever reaches the publish, instead of the server's encoding error.
    @Test func textWithNULIsNamedNotSentToTheServer() throws {
        let database = try TestPostgres.makeDatabase("NUL in text")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let sqlite = directory.file("copy.sqlite")
        _ = try ImportJob(inputPath: try Self.export(days: 1, into: directory), databasePath: sqlite, timeZone: nil)
            .run()
        try SQLiteConnection(path: sqlite, create: false).execute("UPDATE sources SET version = 'a' || char(0) || 'b'")
        let connection = try database.connect()
        try PostgresSession.ensureSchema(connection)
        try connection.execute("BEGIN")
        #expect {
            _ = try PostgresPublish.publish(from: sqlite, to: connection, person: "nul", onlyChanges: false)
        } throws: { error in
            "\(error)".contains("sources.version holds text with a U+0000 character")
        }
        try connection.execute("ROLLBACK")
    }

    /// Three people in one database: re-importing one changes nothing of the others, and a person id with a
    /// quote in it is taken literally.
    @Test func peopleAreKeptApart() throws {
        let database = try TestPostgres.makeDatabase("people kept apart")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let alice = try Self.export(seed: 7, days: 5, into: directory)
        let aliceLater = try Self.export(seed: 7, days: 3, into: directory)  // fewer days: rows deleted
        let bob = try Self.export(seed: 8, days: 5, into: directory)

        try Self.importIntoPostgres(alice, person: "alice", database)
        try Self.importIntoPostgres(bob, person: "o'brien", database)
        try Self.importIntoPostgres(alice, person: "alice's twin", database)
        let bobBefore = try Self.personContent(database, "o'brien", in: directory)
        let twinBefore = try Self.personContent(database, "alice's twin", in: directory)

        var job = ImportJob(inputPath: aliceLater, databasePath: "", timeZone: Self.berlin)
        job.allowOlderExport = true
        let destination = PostgresDestination(connection: database.url, person: "alice")
        let summary = try PipelinePlan(job: job, databasePath: nil, csv: nil, postgres: destination).run().summary
        #expect(summary.changeTotals.deleted > 0)

        #expect(try Self.personContent(database, "o'brien", in: directory) == bobBefore)
        #expect(try Self.personContent(database, "alice's twin", in: directory) == twinBefore)
        #expect(
            try database.count("SELECT count(DISTINCT person) FROM healthetl.cumulative_samples") == 3)
        #expect(
            try database.count("SELECT count(*) FROM healthetl.deleted_samples WHERE person <> 'alice'") == 0)
        // Alice's database now equals a SQLite database that saw the same two exports.
        let sqlite = directory.file("alice.sqlite")
        _ = try ImportJob(inputPath: alice, databasePath: sqlite, timeZone: Self.berlin).run()
        var direct = ImportJob(inputPath: aliceLater, databasePath: sqlite, timeZone: Self.berlin)
        direct.allowOlderExport = true
        _ = try direct.run()
        #expect(try Self.personContent(database, "alice", in: directory) == (try dataContent(of: sqlite)))
    }

    /// While one importer holds a person, another of the same person waits, then fails naming the holder;
    /// other people are not held up meanwhile.
    @Test func theSamePersonTakesTurnsWithAClearMessage() throws {
        let database = try TestPostgres.makeDatabase("same person takes turns")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 2, into: directory)
        try Self.importIntoPostgres(export, person: "first run", database)  // creates the schema

        let holder = try database.connect()
        try holder.execute("BEGIN")
        let key = try PostgresSession(
            PostgresDestination(connection: database.url, person: "carol"), lockTimeoutSeconds: 0)
        let personKey = key.personKey
        key.rollback()
        try holder.query("SELECT pg_advisory_xact_lock($1)", [String(personKey)])

        let started = Date()
        #expect {
            try Self.importIntoPostgres(export, person: "carol", database, lockTimeout: 1)
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .locked && error.message.contains("being imported by healthetl tests")
                && error.description.contains("PostgreSQL person carol")
        }
        #expect(Date().timeIntervalSince(started) >= 0.9)
        let other = try Self.importIntoPostgres(export, person: "dave", database, lockTimeout: 0)
        #expect(other.outcome == "ok")

        try holder.execute("ROLLBACK")
        #expect(try Self.importIntoPostgres(export, person: "carol", database, lockTimeout: 1).outcome == "ok")

        // A table lock held elsewhere (an analyst's open transaction) is waited for at most --wait, too.
        try holder.execute("BEGIN; LOCK TABLE healthetl.import_runs IN ACCESS EXCLUSIVE MODE")
        let blocked = Date()
        #expect {
            try Self.importIntoPostgres(export, person: "erika", database, lockTimeout: 1)
        } throws: { error in
            (error as? ImportError)?.kind == .locked && "\(error)".contains("longer than --wait")
        }
        #expect(Date().timeIntervalSince(blocked) < 10)
        try holder.execute("ROLLBACK")
    }

    /// A run that fails on bad input is rolled back and recorded as failed; the person's data is untouched.
    @Test func aFailedRunLeavesThePersonAsItWas() throws {
        let database = try TestPostgres.makeDatabase("failed run")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 3, into: directory)
        try Self.importIntoPostgres(export, person: "erin", database)
        let before = try Self.personContent(database, "erin", in: directory)

        let broken = directory.write(
            "export.xml",
            "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n<ExportDate value=\"2030-01-01 10:00:00 +0100\"/>\n"
                + "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"x\" unit=\"count\" value=\"3\"\n")
        #expect(throws: ImportError.self) { try Self.importIntoPostgres(broken, person: "erin", database) }
        #expect(try Self.personContent(database, "erin", in: directory) == before)
        #expect(
            try database.count(
                "SELECT count(*) FROM healthetl.import_runs WHERE person = 'erin' AND outcome = 'failed'") == 1)

        // An older export is refused, and the message (also in import_runs) names the person, not the
        // working copy, whose path means nothing after the run.
        let older = try Self.export(days: 2, into: directory)
        #expect {
            try Self.importIntoPostgres(older, person: "erin", database)
        } throws: { error in
            let text = "\(error)"
            return (error as? ImportError)?.kind == .refused && text.hasPrefix("PostgreSQL person erin: error:")
                && !text.contains("working.sqlite")
        }
        let stored = try database.connect().scalar(
            "SELECT error FROM healthetl.import_runs WHERE person = 'erin' AND outcome = 'refused'")
        #expect(stored?.hasPrefix("PostgreSQL person erin: error:") == true)

        // A failed first import leaves no trace of the person at all.
        #expect(throws: ImportError.self) { try Self.importIntoPostgres(broken, person: "frank", database) }
        #expect(try database.count("SELECT count(*) FROM healthetl.import_runs WHERE person = 'frank'") == 0)
    }
}
