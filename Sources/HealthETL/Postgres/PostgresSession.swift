import Foundation
import Glibc

/// One person's transaction on the server: connected, schema checked, `BEGIN`, and the person's advisory
/// lock held until commit or rollback (`pg_advisory_xact_lock` ends with the transaction, also when the
/// importer is killed and its connection drops).
final class PostgresSession {
    let connection: PostgresConnection
    let destination: PostgresDestination
    private var open = false

    /// First key of healthetl's advisory locks ("HETL"); the second is 0 for schema changes, else the person's.
    static let lockClass: Int32 = 0x4845_544C

    init(_ destination: PostgresDestination, lockTimeoutSeconds: Double) throws {
        self.destination = destination
        connection = try Self.connect(destination)
        do {
            // The transaction stays open, idle, while the export is read (minutes for a large one), and its
            // COPYs are long: a role's timeouts meant for interactive sessions must not cut it off.
            try connection.execute("SET idle_in_transaction_session_timeout = 0; SET statement_timeout = 0")
            try Self.ensureSchema(connection)
            try connection.execute("BEGIN")
            open = true
            try lockPerson(timeoutSeconds: lockTimeoutSeconds)
        } catch {
            rollback()
            throw describe(error)
        }
    }

    /// A connection named after this process (the lock holder's message shows it), or exit 69.
    static func connect(_ destination: PostgresDestination) throws -> PostgresConnection {
        let application = "healthetl \(HealthETLVersion.current) pid \(getpid()) on \(hostName)"
        do {
            return try PostgresConnection(destination.connection, applicationName: application)
        } catch {
            throw ImportError(
                .unavailable, "cannot connect to PostgreSQL: \(error)", file: destination.displayName,
                hint: "check --postgres or the PG* environment variables (PGHOST, PGDATABASE, PGUSER)")
        }
    }

    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(cString: buffer)
    }

    /// Creates healthetl's tables on first use, under a server-wide advisory lock so that two first importers
    /// do not both create them; refuses a schema written by another version.
    static func ensureSchema(_ connection: PostgresConnection) throws {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock($1, 0)", [String(lockClass)])
            if try connection.scalar("SELECT to_regclass($1)", ["\(PostgresSchema.name).schema_info"]) == nil {
                for statement in PostgresSchema.createStatements { try connection.execute(statement) }
            } else {
                let version = try connection.scalar(
                    "SELECT value FROM \(PostgresSchema.name).schema_info WHERE key = 'schema_version'")
                guard version == String(Schema.userVersion) else {
                    throw ImportError(
                        .output,
                        "the PostgreSQL schema \(PostgresSchema.name) was written by another version of healthetl "
                            + "(schema version \(version ?? "none"), expected \(Schema.userVersion))")
                }
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The person's lock key: a stable 31-bit hash of the id (a collision only makes two people take turns).
    var personKey: Int32 {
        var hasher = StableHasher()
        hasher.combine(destination.person)
        let key = Int32(truncatingIfNeeded: hasher.finish() & 0x7FFF_FFFF)
        return key == 0 ? 1 : key
    }

    private func lockPerson(timeoutSeconds: Double) throws {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        let arguments = [String(Self.lockClass), String(personKey)]
        while true {
            if try connection.scalar("SELECT pg_try_advisory_xact_lock($1, $2)", arguments) == "t" { return }
            if Date() >= deadline { break }
            usleep(200_000)
        }
        let holder = try? connection.query(
            """
            SELECT a.application_name, coalesce(host(a.client_addr), 'local socket'),
                   to_char(a.xact_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid
            """, arguments
        ).first
        var who = "another importer"
        if let holder, let name = holder[0] {
            who = "\(name) (from \(holder[1] ?? "?"), since \(holder[2] ?? "?"))"
        }
        throw ImportError(
            .locked,
            "person \(destination.person) is being imported by \(who); waited \(Int(timeoutSeconds)) s",
            file: destination.displayName, hint: "imports of the same person take turns: try again later, or --wait longer")
    }

    func personHasData() throws -> Bool {
        try connection.scalar(
            "SELECT EXISTS (SELECT 1 FROM \(PostgresSchema.name).import_runs WHERE person = $1)", [destination.person])
            == "t"
    }

    /// The input fingerprint of the person's last successful run (as `SQLiteSink.lastInputFingerprint` reads
    /// it from a SQLite database).
    func lastInputFingerprint() throws -> String? {
        try connection.scalar(
            "SELECT input_fingerprint FROM \(PostgresSchema.name).import_runs WHERE person = $1 "
                + "AND outcome IN ('ok', 'unchanged') ORDER BY id DESC LIMIT 1", [destination.person])
    }

    func databaseName() throws -> String { try connection.scalar("SELECT current_database()") ?? "" }

    func commit() throws {
        guard open else { return }
        open = false
        try connection.execute("COMMIT")
    }

    func rollback() {
        guard open else { return }
        open = false
        try? connection.execute("ROLLBACK")
    }

    /// Server errors as the one-line `ImportError` the CLI prints, naming the person.
    func describe(_ error: Error) -> Error {
        switch error {
        case let error as ImportError: return error
        case let error as PostgresError:
            // A connection lost mid-run is the server's absence, which a later run may not meet (exit 69).
            return ImportError(
                connection.isBroken ? .unavailable : .output, "\(error)", file: destination.displayName)
        case let error as SQLiteError:
            return ImportError(.output, "working copy: \(error)", file: destination.displayName)
        default: return error
        }
    }
}
