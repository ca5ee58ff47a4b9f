import Foundation
import HealthSchema
import HealthTestSupport
import Synchronization
import Testing

@testable import HealthDatasette
@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// Readers of the database while `healthetl import` writes it (a real Datasette, sqlite3's C API from several
/// threads, `healthetl status`): never refused, and every read sees either the state before the run or the
/// state after it.
@Suite(.serialized)
struct ConcurrentReaderTests {
    /// What one read sees: the row count and a checksum of `discrete_samples`.
    struct Snapshot: Hashable, CustomStringConvertible {
        var rows: Int64
        var checksum: Int64
        var description: String { "\(rows) rows, checksum \(checksum)" }
    }

    /// Integers only: a sum of REALs may differ in its last bits between SQLite versions (Datasette's Python
    /// links another one than the tests), a sum of integers cannot.
    static let snapshotSQL =
        "SELECT count(*) AS row_count, "
        + "sum(CAST(round(value * 1000) AS INTEGER) * (id % 97 + 1) + length(start_date) * id) AS checksum "
        + "FROM discrete_samples"

    static func snapshot(_ connection: SQLiteConnection) throws -> Snapshot {
        let row = try #require(try connection.query(snapshotSQL).first)
        guard case .integer(let rows) = row[0], case .integer(let checksum) = row[1] else {
            throw SQLiteError(code: 0, message: "unexpected snapshot row \(row)")
        }
        return Snapshot(rows: rows, checksum: checksum)
    }

    static func snapshot(of database: String) throws -> Snapshot {
        try snapshot(try SQLiteConnection(path: database, create: false))
    }

    /// A real Datasette serving the database (not `--immutable`: the file changes under it), started on
    /// 127.0.0.1; nil when Datasette cannot be installed (the reason is printed; the readers run without it).
    struct DatasetteServer {
        let process: Process
        let port: Int
        let databaseName: String

        init?(database: String, directory: TemporaryDirectory) throws {
            guard let datasette = Fixtures.datasette else { return nil }
            port = try LocalHTTP.freePort()
            databaseName = DatasetteMetadata.databaseName(ofPath: database)
            process = try ProcessRunner.start(
                datasette, ["serve", database, "--host", "127.0.0.1", "--port", String(port)])
            let deadline = Date().addingTimeInterval(180)
            var ready = false
            while !ready && process.isRunning && Date() < deadline {
                ready = (try? LocalHTTP.fetch(port: port, "/-/versions.json"))?.status == 200
                if !ready { usleep(250_000) }
            }
            guard ready else {
                ProcessRunner.stop(process)
                throw SQLiteError(code: 0, message: "Datasette did not start on port \(port)")
            }
        }

        /// The snapshot through Datasette's JSON API, as a dashboard would ask for it.
        func snapshot() throws -> Snapshot {
            let sql =
                ConcurrentReaderTests.snapshotSQL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let (status, body) = try LocalHTTP.fetch(port: port, "/\(databaseName).json?sql=\(sql)&_shape=array")
            guard status == 200,
                let rows = try JSONSerialization.jsonObject(with: body) as? [[String: Any]],
                let count = (rows.first?["row_count"] as? NSNumber)?.int64Value,
                let checksum = (rows.first?["checksum"] as? NSNumber)?.int64Value
            else {
                throw SQLiteError(
                    code: 0,
                    message: "Datasette answered HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))")
            }
            return Snapshot(rows: count, checksum: checksum)
        }

        func stop() { ProcessRunner.stop(process) }
    }

    /// Readers on threads of their own, each with its own connection and a 100 ms busy timeout, querying
    /// about ten times a second until stopped; with a Datasette server, one more reader asks it.
    final class Readers: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [Snapshot: Int] = [:]
        private var failures: [String] = []
        /// Reads answered by Datasette.
        private var viaDatasette = 0
        private let stopped = Atomic<Bool>(false)
        private var threads: [Thread] = []
        private let finished = DispatchGroup()

        init(database: String, count: Int, datasette: DatasetteServer? = nil) {
            if let datasette {
                finished.enter()
                let thread = Thread { [self] in
                    defer { finished.leave() }
                    while !stopped.load(ordering: .relaxed) {
                        do {
                            let snapshot = try datasette.snapshot()
                            lock.withLock {
                                seen[snapshot, default: 0] += 1; viaDatasette += 1
                            }
                        } catch {
                            lock.withLock { failures.append("Datasette: \(error)") }
                        }
                        usleep(100_000)
                    }
                }
                threads.append(thread)
                thread.start()
            }
            for index in 0..<count {
                finished.enter()
                let thread = Thread { [self] in
                    defer { finished.leave() }
                    // Started apart, so the reads spread over each 100 ms.
                    usleep(useconds_t(index * 100_000 / count))
                    while !stopped.load(ordering: .relaxed) {
                        do {
                            // A fresh connection now and then too, as a web request or a cron'd sqlite3 makes.
                            let connection = try SQLiteConnection(path: database, create: false)
                            connection.setBusyTimeout(milliseconds: 100)
                            for _ in 0..<5 where !stopped.load(ordering: .relaxed) {
                                let snapshot = try ConcurrentReaderTests.snapshot(connection)
                                lock.withLock { seen[snapshot, default: 0] += 1 }
                                usleep(100_000)
                            }
                        } catch {
                            lock.withLock { failures.append("\(error)") }
                            usleep(100_000)
                        }
                    }
                }
                threads.append(thread)
                thread.start()
            }
        }

        /// What the readers have seen so far, while they go on reading.
        func seenSoFar() -> [Snapshot: Int] { lock.withLock { seen } }

        /// Stops the readers; returns what they saw, the errors they met and how many reads Datasette answered.
        func stop() -> (seen: [Snapshot: Int], failures: [String], viaDatasette: Int) {
            stopped.store(true, ordering: .relaxed)
            finished.wait()
            return lock.withLock { (seen, failures, viaDatasette) }
        }
    }

    /// The executable next to the tests, a base database of an earlier export, and the states before and
    /// after importing a later one (computed by an import in this process, without readers). The exports,
    /// the base database and the two states are made once per test process (`Prepared`); each test has a
    /// folder of its own for its copies of the base.
    struct Setup {
        let directory = TemporaryDirectory()
        let executable: String
        let base: String
        let later: String
        let before: Snapshot
        let after: Snapshot

        struct Prepared {
            let base: String
            let later: String
            let before: Snapshot
            let after: Snapshot
        }

        static let prepared = OnceCache<String, Prepared>()

        init() throws {
            executable = try #require(Fixtures.healthetl)
            let prepared = try Self.prepared.value("base") {
                let directory = TemporaryDirectory.removedAtExit("concurrent-readers")
                let earlier = try CrashSafetyTests.export(days: 14, into: directory)
                let later = try CrashSafetyTests.export(days: 24, into: directory)
                let base = directory.file("base.sqlite")
                let zone = TimeZone(identifier: "Europe/Berlin")
                _ = try ImportJob(inputPath: earlier, databasePath: base, timeZone: zone).run()
                let before = try snapshot(of: base)
                let reference = directory.file("reference.sqlite")
                try FileManager.default.copyItem(atPath: base, toPath: reference)
                _ = try ImportJob(inputPath: later, databasePath: reference, timeZone: zone).run()
                return Prepared(base: base, later: later, before: before, after: try snapshot(of: reference))
            }
            (base, later, before, after) = (prepared.base, prepared.later, prepared.before, prepared.after)
        }

        func copyOfBase(_ name: String) throws -> String {
            let path = directory.file(name)
            try FileManager.default.copyItem(atPath: base, toPath: path)
            return path
        }

        func startImport(into database: String, handshake: String? = nil) throws -> Process {
            var environment = ProcessInfo.processInfo.environment
            if let handshake { environment["HEALTHETL_TEST_HANDSHAKE"] = handshake }
            return try ProcessRunner.start(
                executable, ["import", later, "--db", database, "--quiet", "--timezone", "Europe/Berlin"],
                environment: environment)
        }

        /// A folder for the run's handshake (`RunHandshake`): the run says when it reached a point and waits there
        /// until the test lets it go, so the test acts at that moment instead of after a guessed sleep.
        func handshakeFolder(_ name: String) throws -> String {
            let folder = directory.file(name)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder
        }

        /// The files in the folder that belong to `database` besides itself (`-wal`, `-shm`, `.lock`, …).
        func filesBeside(_ database: String) throws -> [String] {
            let name = (database as NSString).lastPathComponent
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix(name) && $0 != name }.sorted()
        }
    }

    /// Polls `condition` every 10 ms until it holds (true) or `seconds` pass (false): every wait has a deadline.
    static func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    static func runStatus(_ executable: String, database: String) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(executable, ["status", "--db", database], mergeError: true)
        return (result.status, result.output)
    }

    @Test(.needsHealthetlExecutable, .tags(.fullSuite), .fastLoopSelection)
    func readersAreNeverRefusedDuringAReimport() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        #expect(setup.before != setup.after)
        let database = try setup.copyOfBase("health.sqlite")
        let datasette = try DatasetteServer(database: database, directory: setup.directory)
        defer { datasette?.stop() }
        let readers = Readers(database: database, count: 3, datasette: datasette)
        let handshake = try setup.handshakeFolder("handshake")
        let process = try setup.startImport(into: database, handshake: handshake)
        // The run holds its transaction with every row written, and waits: readers see the state before, and
        // `healthetl status` answers from it and names the run.
        let reached = Self.waitFor(seconds: 120) {
            FileManager.default.fileExists(atPath: handshake + "/before-commit.reached") || !process.isRunning
        }
        #expect(reached && process.isRunning, "the run did not reach its commit")
        #expect(Self.waitFor(seconds: 30) { readers.seenSoFar()[setup.before, default: 0] > 0 })
        let statusDuringRun = try Self.runStatus(setup.executable, database: database)
        FileManager.default.createFile(atPath: handshake + "/before-commit.go", contents: nil)
        process.waitUntilExit()
        // Once the import has committed, the readers see the new state.
        #expect(Self.waitFor(seconds: 30) { readers.seenSoFar()[setup.after, default: 0] > 0 })
        let result = readers.stop()

        #expect(process.terminationStatus == 0)
        #expect(result.failures == [], "refused reads")
        #expect(
            Set(result.seen.keys).isSubset(of: [setup.before, setup.after]), "reads of neither state: \(result.seen)")
        #expect(result.seen[setup.before, default: 0] > 0, "no read saw the state before the run: \(result.seen)")
        #expect(result.seen[setup.after, default: 0] > 0, "no read saw the state after the run: \(result.seen)")
        #expect(statusDuringRun.status == 0, "\(statusDuringRun.output)")
        #expect(
            statusDuringRun.output.contains("running now: healthetl import (pid \(process.processIdentifier)"),
            "\(statusDuringRun.output)")
        #expect(try Self.snapshot(of: database) == setup.after)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        if datasette != nil { #expect(result.viaDatasette > 0) }
        print(
            "reads during a re-import: \(result.seen.values.reduce(0, +)), \(result.viaDatasette) through Datasette "
                + "(\(result.seen.map { "\($0.key): \($0.value)" }))")
    }

    @Test(.needsHealthetlExecutable, .tags(.fullSuite), .fastLoopSelection)
    func readersAreNeverRefusedWhenTheImportIsKilled() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let database = try setup.copyOfBase("health.sqlite")
        let datasette = try DatasetteServer(database: database, directory: setup.directory)
        let readers = Readers(database: database, count: 3, datasette: datasette)
        // Killed at the latest moment that must still leave the state before: every row written, the
        // transaction open, the commit next (the run waits there for the test: `RunHandshake`).
        let handshake = try setup.handshakeFolder("handshake")
        let process = try setup.startImport(into: database, handshake: handshake)
        let reached = Self.waitFor(seconds: 120) {
            FileManager.default.fileExists(atPath: handshake + "/before-commit.reached") || !process.isRunning
        }
        #expect(reached && process.isRunning, "the run did not reach its commit")
        #expect(Self.waitFor(seconds: 30) { readers.seenSoFar().values.reduce(0, +) > 0 })
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Reads after the kill, against the database the killed run left.
        let readsAtKill = readers.seenSoFar().values.reduce(0, +)
        #expect(Self.waitFor(seconds: 30) { readers.seenSoFar().values.reduce(0, +) > readsAtKill })
        let result = readers.stop()
        datasette?.stop()

        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(result.failures == [], "refused reads")
        #expect(Set(result.seen.keys) == [setup.before], "a killed run showed readers its changes: \(result.seen)")
        if datasette != nil { #expect(result.viaDatasette > 0) }
        #expect(try Self.snapshot(of: database) == setup.before)
        // The next run completes and leaves nothing beside the database once every connection is closed.
        let again = try setup.startImport(into: database)
        again.waitUntilExit()
        #expect(again.terminationStatus == 0)
        #expect(try Self.snapshot(of: database) == setup.after)
        #expect(try setup.filesBeside(database) == [])
    }
}

extension ConcurrentReaderTests {
    /// Ctrl-C or SIGTERM: the run rolls back (or deletes its unfinished new file), records the failed run,
    /// removes its lock file and exits 128 + the signal; nothing is left beside the database.
    @Test(.needsHealthetlExecutable)
    func anInterruptedRunLeavesNothingBehind() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        for (signal, code) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let database = try setup.copyOfBase("health-\(signal).sqlite")
            let process = try setup.startImport(into: database)
            // Signalled once the run holds the database (its lock file names it).
            let deadline = Date(timeIntervalSinceNow: 30)
            while process.isRunning, Date() < deadline,
                DatabaseLock.currentHolder(ofDatabase: database)?.pid != process.processIdentifier
            {
                usleep(2_000)
            }
            guard process.isRunning else {
                Issue.record("the import ended before it could be interrupted")
                continue
            }
            usleep(300_000)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationStatus == code)
            #expect(try Self.snapshot(of: database) == setup.before)
            #expect(try setup.filesBeside(database) == [])
            let db = try SQLiteConnection(path: database, create: false)
            let last = try db.query("SELECT outcome, error FROM import_runs ORDER BY id DESC LIMIT 1").first
            #expect(last?[0] == .text("failed"))
            #expect(last?[1].text?.contains("interrupted by SIG") == true, "\(String(describing: last))")
        }
        // A first import interrupted: no database, no temporary file, no lock file.
        let fresh = setup.directory.file("fresh.sqlite")
        let process = try ProcessRunner.start(setup.executable, ["import", setup.later, "--db", fresh, "--quiet"])
        let deadline = Date(timeIntervalSinceNow: 30)
        while process.isRunning, Date() < deadline, DatabaseLock.currentHolder(ofDatabase: fresh) == nil {
            usleep(2_000)
        }
        usleep(300_000)
        let interrupted = process.isRunning
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        if interrupted {
            #expect(process.terminationStatus == 130)
            #expect(!FileManager.default.fileExists(atPath: fresh))
        }
        #expect(try setup.filesBeside(fresh) == [])
    }

    /// A first import stopped while its rollups are read by the extra connections (its temporary file then
    /// has a `-wal` and a `-shm` beside it): once, it rolls back; twice, the second signal exits at once. Either
    /// way no file is left: neither the database, nor the temporary file, its log files or the lock.
    @Test(.needsHealthetlExecutable, arguments: [1, 2])
    func aFirstImportStoppedDuringItsRollupsLeavesNothing(signals: Int) throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let fresh = setup.directory.file("fresh.sqlite")
        let process = try ProcessRunner.start(setup.executable, ["import", setup.later, "--db", fresh, "--quiet"])
        let log = fresh + ".healthetl-\(process.processIdentifier).tmp-wal"
        let deadline = Date(timeIntervalSinceNow: 60)
        while process.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: log) { usleep(200) }
        let stopped = process.isRunning
        for _ in 0..<signals {
            kill(process.processIdentifier, SIGTERM)
            usleep(1_000)
        }
        process.waitUntilExit()
        if stopped {
            #expect(process.terminationStatus == 143)
            #expect(!FileManager.default.fileExists(atPath: fresh))
        } else {
            print("the import finished before its rollup pass could be stopped; only the leftovers were checked")
        }
        #expect(try setup.filesBeside(fresh) == [])
    }

    /// A reader that keeps a read transaction open keeps the write-ahead log from being emptied: each run
    /// meanwhile appends its changes, the run says so, and the first run after the reader ends empties the
    /// log (truncated to 0 bytes while other readers are connected). The database file itself does not grow
    /// from it.
    @Test func aLongReaderDelaysTheCheckpointUntilItEnds() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let exports = try [6, 9, 12].map { try CrashSafetyTests.export(days: $0, into: directory) }
        let database = directory.file("health.sqlite")
        let zone = TimeZone(identifier: "Europe/Berlin")
        _ = try ImportJob(inputPath: exports[0], databasePath: database, timeZone: zone).run()
        let wal = database + "-wal"
        func walSize() -> Int64 {
            ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? NSNumber)?.int64Value ?? -1
        }

        // A notebook that began reading and never finished.
        let longReader = try SQLiteConnection(path: database, create: false)
        try longReader.execute("BEGIN")
        let seenByLongReader = try Self.snapshot(longReader)
        // Another reader, connected but idle, so closing the importer's connection does not remove the log.
        let idleReader = try SQLiteConnection(path: database, create: false)
        _ = try Self.snapshot(idleReader)

        let second = try ImportJob(inputPath: exports[1], databasePath: database, timeZone: zone).run()
        let afterSecond = walSize()
        #expect(afterSecond > 0)
        #expect(
            second.warnings.keys.contains { $0.contains("write-ahead log could not be emptied") }, "\(second.warnings)")
        var rescan = ImportJob(inputPath: exports[1], databasePath: database, timeZone: zone)
        rescan.rescan = true
        _ = try rescan.run()
        #expect(walSize() >= afterSecond)
        // The long reader still sees what it saw, whatever was committed since.
        #expect(try Self.snapshot(longReader) == seenByLongReader)
        let databaseSize = (try FileManager.default.attributesOfItem(atPath: database)[.size] as? NSNumber)?.int64Value

        try longReader.execute("COMMIT")
        let third = try ImportJob(inputPath: exports[2], databasePath: database, timeZone: zone).run()
        #expect(!third.warnings.keys.contains { $0.contains("write-ahead log") }, "\(third.warnings)")
        #expect(walSize() == 0)
        #expect(try Self.snapshot(idleReader) == Self.snapshot(of: database))
        let grown = (try FileManager.default.attributesOfItem(atPath: database)[.size] as? NSNumber)?.int64Value
        print("WAL while a reader held a snapshot: \(afterSecond) bytes; database \(databaseSize ?? 0) → \(grown ?? 0)")
    }

    /// A disk that fills up during a run (here a file-size limit, so the log cannot grow past 512 KB): the run
    /// fails with the database's name and exit 73, and the database is exactly as before.
    @Test(.needsHealthetlExecutable)
    func aFullDiskLeavesTheDatabaseAsBefore() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let database = try setup.copyOfBase("health.sqlite")
        // SIGXFSZ ignored: a write past the limit then fails with EFBIG, as a write to a full disk fails.
        let process = try ProcessRunner.run(
            "/bin/sh",
            [
                "-c", "trap '' XFSZ; ulimit -f 512; exec \"$0\" import \"$1\" --db \"$2\" --quiet",
                setup.executable, setup.later, database,
            ])
        let message = process.error
        #expect(process.status == 73, "\(message)")
        #expect(message.hasPrefix("healthetl: \(database): "), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try Self.snapshot(db) == setup.before)
    }

    /// The log files SQLite makes beside the database are owner-only like the database, whatever the umask.
    @Test func logFilesAreOwnerOnly() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try CrashSafetyTests.export(days: 3, into: directory)
        let database = directory.file("health.sqlite")
        let previous = umask(0o022)
        defer { umask(previous) }
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        let reader = try SQLiteConnection(path: database, create: false)
        _ = try Self.snapshot(reader)
        for suffix in ["", "-wal", "-shm"] {
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: database + suffix)[.posixPermissions] as? NSNumber)
            #expect(mode.intValue & 0o777 == 0o600, "\(suffix): \(String(mode.intValue, radix: 8))")
        }
    }
}
