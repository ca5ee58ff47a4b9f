import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthSchema
import HealthStore

/// One person's transaction on the server: connected, schema checked, `BEGIN`, and the person's advisory
/// lock held until commit or rollback (`pg_advisory_xact_lock` ends with the transaction, also when the
/// importer is killed and its connection drops).
final class PostgresSession {
    let connection: PostgresConnection
    let destination: PostgresDestination
    private var open = false

    /// The advisory lock of schema changes ("HETL" twice); a person's is a 64-bit hash of their id.
    static let schemaLockKey: Int64 = 0x4845_544C_4845_544C

    init(_ destination: PostgresDestination, lockTimeoutSeconds: Double) throws {
        self.destination = destination
        connection = try Self.connect(destination)
        do {
            // The transaction stays open, idle, while the export is read (minutes for a large one), and its
            // COPYs are long: a role's timeouts meant for interactive sessions must not cut it off.
            try connection.execute("SET idle_in_transaction_session_timeout = 0; SET statement_timeout = 0")
            // --wait also bounds waiting for a table lock (an analyst's open transaction, a DBA's maintenance):
            // an unattended import must end, with exit 75, instead of hanging.
            try connection.execute("SET lock_timeout = \(Int(max(1, lockTimeoutSeconds * 1000)))")
            // A killed importer's running statement would otherwise go on (holding the person's lock) until it
            // next writes to the dead connection; PostgreSQL 14 and later check for that every few seconds.
            if (Int(try connection.scalar("SHOW server_version_num") ?? "") ?? 0) >= 140_000 {
                try connection.execute("SET client_connection_check_interval = 5000")
            }
            try Self.ensureSchema(connection)
            // Explicitly: under a server default of REPEATABLE READ the snapshot would be taken while waiting
            // for the person's lock, and the run would not see the import it waited for.
            try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
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
        } catch let error as PostgresError where error.isInvalidConnectionString {
            throw ImportError(
                .usage, "the PostgreSQL connection string cannot be read: \(error.withoutQuotedParts)",
                file: destination.displayName,
                hint: "postgresql://user@host:port/database, with special characters percent-encoded")
        } catch let error as PostgresError {
            throw ImportError(
                // libpq's connection errors quote hosts and users, never the password: kept for diagnosis.
                .unavailable, "cannot connect to PostgreSQL: \(error)", file: destination.displayName,
                hint: "check --postgres or the PG* environment variables (PGHOST, PGDATABASE, PGUSER)")
        }
    }

    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates healthetl's tables on first use, under a server-wide advisory lock so that two first importers
    /// do not both create them; brings a schema of an earlier version to this one (`SchemaMigrator.postgres`, in
    /// this transaction: all of it or nothing), which refuses one of a later version. The caller names the
    /// destination in errors (`describe`).
    static func ensureSchema(_ connection: PostgresConnection) throws {
        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [String(schemaLockKey)])
            if try connection.scalar("SELECT to_regclass($1)", ["\(PostgresSchema.name).schema_info"]) == nil {
                for statement in PostgresSchema.createStatements { try connection.execute(statement) }
            } else {
                let found = try connection.scalar(
                    "SELECT value FROM \(PostgresSchema.name).schema_info WHERE key = 'schema_version'")
                guard let version = found.flatMap({ Int($0) }) else {
                    throw ImportError(
                        .output,
                        "the PostgreSQL schema \(PostgresSchema.name) was written by another version of healthetl "
                            + "(schema version \(found ?? "none"), expected \(Schema.userVersion))")
                }
                _ = try SchemaMigrator.postgres.migrate(connection, from: version, file: nil)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The person's lock key: a 64-bit hash of the id, so two people practically never share one (if they
    /// did, they would only take turns).
    var personKey: Int64 {
        var hasher = StableHasher()
        hasher.combine("healthetl person")
        hasher.combine(destination.person)
        let key = hasher.finish()
        return key == Self.schemaLockKey ? 1 : key
    }

    private func lockPerson(timeoutSeconds: Double) throws {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        let arguments = [String(personKey)]
        while true {
            if try connection.scalar("SELECT pg_try_advisory_xact_lock($1)", arguments) == "t" { return }
            if Date() >= deadline { break }
            usleep(200_000)
        }
        let holder = try? connection.query(
            """
            SELECT a.application_name, coalesce(host(a.client_addr), 'local socket'),
                   to_char(a.xact_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND l.classid = ($1::bigint >> 32 & 4294967295)::oid AND l.objid = ($1::bigint & 4294967295)::oid
            """, arguments
        ).first
        var who = "another importer"
        if let holder, let name = holder[0] {
            who = "\(name) (from \(holder[1] ?? "?"), since \(holder[2] ?? "?"))"
        }
        throw ImportError(
            .locked,
            "person \(destination.person) is being imported by \(who); waited \(Int(timeoutSeconds)) s",
            file: destination.displayName,
            hint: "imports of the same person take turns: try again later, or --wait longer")
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
        case var error as ImportError:
            if error.file == nil { error.file = destination.displayName }
            return error
        case let error as PostgresError where error.sqlState == "55P03":
            return ImportError(
                .locked, "another session holds a lock on healthetl's tables longer than --wait: \(error)",
                file: destination.displayName, hint: "look for long-running transactions in pg_stat_activity")
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
