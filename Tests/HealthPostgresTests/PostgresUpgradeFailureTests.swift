import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthPostgres
@testable import HealthStore
@testable import SampleExports

/// The upgrade from version 3 is one transaction: an importer killed while it runs, or an upgrade that meets a
/// row it cannot convert, leaves the version 3 schema and every row exactly as they were.
@Suite(.needsPostgres)
struct PostgresUpgradeFailureTests {
    /// What the upgrading backend runs, in order: killing it once it runs one of these (or a later one), the
    /// upgrade has not committed.
    static let steps = [
        "INSERT INTO healthetl.cumulative_rows", "INSERT INTO healthetl.discrete_rows",
        "INSERT INTO healthetl.category_rows", "INSERT INTO healthetl.metadata_rows",
        "INSERT INTO healthetl.hrv_beat_rows", "INSERT INTO healthetl.route_point_rows", "DROP TABLE healthetl.",
        "CREATE VIEW healthetl.", "ANALYZE healthetl.",
    ]

    @Test(.needsHealthetlExecutable) func aKilledOrFailedUpgradeLeavesVersion3AsItWas() throws {
        let executable = try #require(Fixtures.healthetl)
        let database = try TestPostgres.makeDatabase("killed upgrade")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = try PostgresSchemaUpgradeTests.version3Server(
            database, [("eve", 31, 16, "+0100"), ("fay", 32, 10, "-0300")], in: directory)
        let later = try PostgresImportTests.export(seed: 31, days: 18, into: directory)
        let arguments = ["import", later, "--person", "eve", "--postgres", database.url, "--quiet"]
        let watcher = try database.connect()
        let asItWas = try PostgresVersion3.serverState(watcher)

        var random = SampleExports.SeededRandom(seed: 9, stream: "postgres-upgrade-kills")
        var killedIn: [String] = []
        for _ in 0..<3 {
            let target = Int(random.next() % UInt64(Self.steps.count))
            let process = try PostgresCrashTests.start(executable, arguments)
            let marker = "pid \(process.processIdentifier) "
            var killed: String?
            var backend: String?
            let watchUntil = Date(timeIntervalSinceNow: 120)
            while process.isRunning, killed == nil, Date() < watchUntil {
                let running = try watcher.query(
                    "SELECT pid::text, query FROM pg_stat_activity WHERE application_name LIKE '%' || $1 || '%' AND state = 'active'",
                    [marker])
                guard let row = running.first, let query = row[1] else { continue }
                backend = row[0]
                if let step = Self.steps.firstIndex(where: { query.hasPrefix($0) }), step >= target {
                    kill(process.processIdentifier, SIGKILL)
                    killed = Self.steps[step]
                }
            }
            if process.isRunning, killed == nil { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(killed != nil, "the upgrade was not seen running (step \(Self.steps[target]) or later)")
            killedIn.append(killed ?? "-")
            // The server finishes the statement it was running, finds the connection gone and rolls back.
            let goneBy = Date(timeIntervalSinceNow: 60)
            while let backend, Date() < goneBy,
                try watcher.scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", [backend]) != "0"
            {
                usleep(20_000)
            }
            #expect(try PostgresVersion3.serverState(watcher) == asItWas, "killed in \(killed ?? "?")")
        }
        print("PostgreSQL upgrade killed in: \(killedIn)")

        // A metadata row of a table no version knows cannot be converted: the upgrade fails after moving most
        // rows, names the table, and undoes everything.
        try watcher.execute(
            """
            INSERT INTO healthetl.metadata (person, row_key, parent_table, parent_id, key, value)
            VALUES ('fay', 999999, 'no_such_table', 1, 'HKTimeZone', 'Europe/Paris')
            """)
        let withTheRow = try PostgresVersion3.serverState(watcher)
        #expect {
            try PostgresSession.ensureSchema(try database.connect())
        } throws: { error in
            "\(error)".contains("metadata has") && "\(error)".contains("nothing was changed")
        }
        #expect(try PostgresVersion3.serverState(watcher) == withTheRow)

        try watcher.execute("DELETE FROM healthetl.metadata WHERE row_key = 999999")
        #expect(try PostgresCrashTests.run(executable, arguments, killAfter: 300))
        #expect(try PostgresSchemaUpgradeTests.version(watcher) == String(Schema.userVersion))
    }
}
