import Foundation
import HealthTestSupport
import Testing

@testable import HealthPostgres
@testable import SampleExports

/// The `healthetl` executable importing into PostgreSQL, killed with SIGKILL at random moments: the person's
/// rows are always as before the run or as after it (the transaction dies with the connection), and two
/// importers started at once for the same person both succeed, one after the other.
@Suite(.needsPostgres, .tags(.fullSuite), .fastLoopSelection)
struct PostgresCrashTests {
    static func start(_ executable: String, _ arguments: [String]) throws -> Process {
        try ProcessRunner.start(executable, arguments, output: .inherit, error: .inherit)
    }

    /// The export of CrashSafetyTests (generated once per test process), copied into `directory`.
    static func export(days: Int, into directory: TemporaryDirectory) throws -> String {
        var options = GeneratorOptions(seed: 21, days: days, profile: .ios18)
        options.scale = 0.5
        return try GeneratedExport.zip(options).copy(to: directory.file("export-\(days).zip"))
    }

    /// Runs the executable; kills it after `delay` seconds if it is still running. Returns whether it finished.
    static func run(_ executable: String, _ arguments: [String], killAfter delay: Double) throws -> Bool {
        let process = try start(executable, arguments)
        let deadline = Date(timeIntervalSinceNow: delay)
        while process.isRunning, Date() < deadline { usleep(1_000) }
        let finished = !process.isRunning
        if !finished { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return finished && process.terminationStatus == 0
    }

    @Test(.needsHealthetlExecutable)
    func killedImportersLeaveThePersonBeforeOrAfter() throws {
        let executable = try #require(Fixtures.healthetl)
        let database = try TestPostgres.makeDatabase("killed importers")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let earlier = try Self.export(days: 4, into: directory)
        let later = try Self.export(days: 7, into: directory)
        func arguments(_ export: String, _ person: String) -> [String] {
            [
                "import", export, "--person", person, "--postgres", database.url, "--quiet", "--timezone",
                "Europe/Berlin",
            ]
        }

        // The states a killed run may leave, and how long a whole run takes.
        #expect(try Self.run(executable, arguments(earlier, "reference"), killAfter: 120))
        let before = try PostgresImportTests.personContent(database, "reference", in: directory)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try Self.run(executable, arguments(later, "reference"), killAfter: 120))
        let elapsed = clock.now - started
        let duration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let after = try PostgresImportTests.personContent(database, "reference", in: directory)
        #expect(before != after)

        var random = SampleExports.SeededRandom(seed: 5, stream: "postgres-kill-times")
        var outcomes: [String: Int] = [:]
        for attempt in 0..<6 {
            let person = "victim-\(attempt)"
            #expect(try Self.run(executable, arguments(earlier, person), killAfter: 120))
            let delay = duration * 1.5 * Double(random.next() % 1000) / 1000
            let finished = try Self.run(executable, arguments(later, person), killAfter: delay)
            let state = try PostgresImportTests.personContent(database, person, in: directory)
            let label = state == before ? "before" : state == after ? "after" : "neither"
            #expect(
                label != "neither",
                """
                killed after \(delay) s; tables unlike before: \(state.keys.filter { state[$0] != before[$0] }.sorted()), \
                unlike after: \(state.keys.filter { state[$0] != after[$0] }.sorted())
                """)
            outcomes[label + (finished ? " (finished)" : " (killed)"), default: 0] += 1
            // The next run is not blocked by the dead one's lock, and completes.
            #expect(try Self.run(executable, arguments(later, person), killAfter: 120))
            #expect(try PostgresImportTests.personContent(database, person, in: directory) == after)
        }
        print("PostgreSQL kill outcomes over 6 attempts (run takes \(duration) s): \(outcomes)")

        // A first import killed: the person has no rows at all, or all of them.
        for attempt in 0..<3 {
            let person = "newcomer-\(attempt)"
            _ = try Self.run(
                executable, arguments(earlier, person), killAfter: duration * Double(random.next() % 1000) / 1000)
            let rows = try database.count(
                "SELECT count(*) FROM healthetl.cumulative_samples WHERE person = $1", [person])
            let state = try PostgresImportTests.personContent(database, person, in: directory)
            #expect(rows == 0 || state == before)
        }
    }

    /// Two cron jobs for the same person at once: one imports, the other waits for the person's lock and
    /// then finds the same export already imported; also when the server's default isolation level is
    /// REPEATABLE READ (the waiting run must still see what the first committed).
    @Test(.needsHealthetlExecutable)
    func twoImportersOfOnePersonTakeTurns() throws {
        let executable = try #require(Fixtures.healthetl)
        let database = try TestPostgres.makeDatabase("two importers of one person")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(days: 3, into: directory)
        try database.connect().execute(
            "ALTER DATABASE \(database.name) SET default_transaction_isolation = 'repeatable read'")
        let processes = try (0..<2).map { _ in
            try Self.start(
                executable,
                ["import", export, "--person", "same", "--postgres", database.url, "--quiet", "--wait", "120"])
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0])
        let outcomes = try database.connect().query(
            "SELECT outcome FROM healthetl.import_runs WHERE person = 'same' ORDER BY id")
        #expect(outcomes == [["ok"], ["unchanged"]])
    }
}
