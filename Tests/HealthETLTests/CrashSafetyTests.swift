import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// The `healthetl` executable killed with SIGKILL at random moments: the database is always either as
/// before the run or as after it, passes `PRAGMA integrity_check`, and the next run completes normally.
struct CrashSafetyTests {
    /// An export of `days` days (generated once per test process), copied into `directory`.
    static func export(days: Int, into directory: TemporaryDirectory) throws -> String {
        var options = GeneratorOptions(seed: 21, days: days, profile: .ios18)
        options.scale = 0.5
        return try GeneratedExport.zip(options).copy(to: directory.file("export-\(days).zip"))
    }

    /// Starts `healthetl import`, kills it after `delay` seconds if it is still running; returns whether it
    /// finished by itself, and its exit status.
    static func importKilled(
        _ executable: String, export: String, database: String, after delay: Double
    ) throws -> (finished: Bool, status: Int32) {
        let process = try ProcessRunner.start(
            executable, ["import", export, "--db", database, "--quiet", "--timezone", "Europe/Berlin"])
        let deadline = Date(timeIntervalSinceNow: delay)
        while process.isRunning, Date() < deadline { usleep(1_000) }
        let finished = !process.isRunning
        if !finished { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (finished, process.terminationStatus)
    }

    /// A digest of the data that does not depend on run bookkeeping.
    static func content(_ database: String) throws -> [String: [[SQLiteValue]]]? {
        guard FileManager.default.fileExists(atPath: database) else { return nil }
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        return try dataContent(of: database)
    }

    @Test(.needsHealthetlExecutable)
    func killedImportsLeaveTheDatabaseBeforeOrAfter() throws {
        let executable = try #require(Fixtures.healthetl)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let earlier = try Self.export(days: 4, into: directory)
        let later = try Self.export(days: 7, into: directory)

        // The two states a killed run may leave: before (the earlier export) and after (the later one).
        let base = directory.file("base.sqlite")
        _ = try ImportJob(inputPath: earlier, databasePath: base, timeZone: TimeZone(identifier: "Europe/Berlin")).run()
        let before = try #require(try Self.content(base))
        let reference = directory.file("reference.sqlite")
        try FileManager.default.copyItem(atPath: base, toPath: reference)
        _ = try ImportJob(inputPath: later, databasePath: reference, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        let after = try #require(try Self.content(reference))
        #expect(before != after)

        // How long an uninterrupted run takes, so the kills spread over all of it.
        let timing = directory.file("timing.sqlite")
        try FileManager.default.copyItem(atPath: base, toPath: timing)
        let clock = ContinuousClock()
        let started = clock.now
        let full = try Self.importKilled(executable, export: later, database: timing, after: 60)
        #expect(full == (true, 0))
        let duration =
            Double((clock.now - started).components.attoseconds) / 1e18
            + Double((clock.now - started).components.seconds)

        var random = SampleExports.SeededRandom(seed: 99, stream: "kill-times")
        var outcomes: [String: Int] = [:]
        for attempt in 0..<12 {
            let database = directory.file("run-\(attempt).sqlite")
            try FileManager.default.copyItem(atPath: base, toPath: database)
            // Up to twice the run's length: some kills land late in the run, some runs finish first.
            let delay = duration * 2 * Double(random.next() % 1000) / 1000
            let run = try Self.importKilled(executable, export: later, database: database, after: delay)
            let state = try #require(try Self.content(database))
            let label = state == before ? "before" : state == after ? "after" : "neither"
            #expect(label != "neither", "killed after \(delay) s")
            outcomes[label + (run.finished ? " (finished)" : " (killed)"), default: 0] += 1
            // The next run completes normally and reaches the same state.
            let again = try Self.importKilled(executable, export: later, database: database, after: 60)
            #expect(again == (true, 0))
            #expect(try Self.content(database) == after)
        }
        print("kill outcomes over 12 attempts (run takes \(duration) s): \(outcomes)")

        // A first import killed: no database at all, or a complete one; never a half-written file.
        for attempt in 0..<4 {
            let database = directory.file("new-\(attempt).sqlite")
            let delay = duration * Double(random.next() % 1000) / 1000
            _ = try Self.importKilled(executable, export: earlier, database: database, after: delay)
            if let state = try Self.content(database) { #expect(state == before) }
            let again = try Self.importKilled(executable, export: earlier, database: database, after: 60)
            #expect(again == (true, 0))
            #expect(try Self.content(database) == before)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("new-\(attempt).sqlite.") }
            #expect(leftovers == [], "the next run removes a killed run's temporary file")
        }
    }
}

extension CrashSafetyTests {
    /// Two cron jobs started at once on a database that does not exist yet: one builds it, the other waits
    /// for the lock, then finds the same export already imported. Never two writers, never two files.
    @Test(.needsHealthetlExecutable)
    func twoRunsAtOnceSerialise() throws {
        let executable = try #require(Fixtures.healthetl)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 3, into: directory)
        let database = directory.file("health.sqlite")
        let processes = try (0..<2).map { _ in
            try ProcessRunner.start(executable, ["import", export, "--db", database, "--quiet", "--wait", "60"])
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0])
        do {
            let db = try SQLiteConnection(path: database, create: false)
            #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
            #expect(
                try db.query("SELECT outcome FROM import_runs ORDER BY id") == [[.text("ok")], [.text("unchanged")]])
        }
        // Once every connection is closed (SQLite keeps -wal and -shm files while one is open).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == [
                    URL(fileURLWithPath: export).lastPathComponent, "health.sqlite",
                ].sorted())

        // With no time to wait, the second one says who holds the database and exits 75.
        let holder = try DatabaseLock(databasePath: database, timeoutSeconds: 0)
        let blocked = try ProcessRunner.run(executable, ["import", export, "--db", database, "--wait", "0"])
        let message = blocked.error
        #expect(blocked.status == 75)
        #expect(message.contains("locked by pid \(getpid())"))
        #expect(message.split(separator: "\n").count == 1)
        withExtendedLifetime(holder) {}
    }
}
