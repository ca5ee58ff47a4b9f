import Foundation
import HealthJSON
import HealthModel
import HealthSQLite
import HealthSchema

/// The server's one connection to the database, read-only by construction: opened SQLITE_OPEN_READONLY through
/// `StoredDatabase`, with an authorizer that allows only reading (`ReadOnlyPolicy`), extension loading off,
/// defensive mode on, no attached databases, a longest value, and a time limit per call.
///
/// It also follows the file: an import into an existing database commits in WAL mode (a new read transaction
/// sees it), but a first import or a schema upgrade renames a new file over the path, and a connection would
/// read the old inode forever. So each call compares the path's device and inode with the open file's, and
/// reopens when they differ.
package final class HealthDatabase {
    package let path: String
    package let limits: Limits
    private var connection: SQLiteConnection
    private var identity: FileIdentity
    private var policy = PolicyBox()
    private let clock = ContinuousClock()
    private var deadline: ContinuousClock.Instant?
    /// Incremented at every (re)open, so caches of what the database holds can tell a new file from the old.
    package private(set) var generation = 0

    package struct Limits: Sendable {
        /// How long one call may run in SQLite.
        package var timeout: Duration = .seconds(5)
        /// Rows one answer may hold (the `limit` arguments are capped at it).
        package var maximumRows = 1_000
        /// Bytes one answer may hold, its text and structured content together (`--answer-budget`, at most
        /// `AnswerBudget.hardCap`): past it a tool coarsens or pages, and says so (`AnswerBudget`).
        package var answerBudget = AnswerBudget.defaultBytes

        package init() {}
    }

    /// Device and inode of a path: equal while the same file is there.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The policy is a class so the authorizer's closure sees the flag that `transaction` flips.
    private final class PolicyBox {
        var policy = ReadOnlyPolicy()
    }

    /// Opens the database, refusing what is not a healthetl database of this version with the one-line error the
    /// other commands give (`StoredDatabase`).
    package init(path: String, limits: Limits = Limits()) throws {
        self.path = path
        self.limits = limits
        (connection, identity) = try Self.open(path)
        configure()
    }

    private static func open(_ path: String) throws -> (SQLiteConnection, FileIdentity) {
        let connection = try StoredDatabase.openForReading(path, readOnly: true, busyTimeoutMilliseconds: 2_000)
        // The identity after the open: if the file was replaced in between, the next call notices and reopens.
        guard let identity = FileIdentity(path: path) else { throw ImportError(.usage, "no database here", file: path) }
        return (connection, identity)
    }

    private func configure() {
        generation += 1
        do {
            try connection.hardenForUntrustedSQL()
        } catch {
            // An SQLite without these options still has the read-only open and the authorizer.
        }
        connection.setLimit(.attached, 0)
        connection.setLimit(.length, 64 << 20)
        let box = policy
        connection.setAuthorizer { box.policy.allows($0) }
        connection.setProgressHandler(everyInstructions: 10_000) { [weak self] in
            guard let self, let deadline = self.deadline else { return false }
            return self.clock.now >= deadline
        }
    }

    /// Reopens the database when another file now has its path (a first import, an upgrade, a restore).
    package func followReplacement() throws {
        guard let current = FileIdentity(path: path) else {
            throw ToolError.unavailable("the database is not there any more (\(path)); was it moved or deleted?")
        }
        guard current != identity else { return }
        do {
            (connection, identity) = try Self.open(path)
        } catch let error as ImportError {
            throw ToolError.unavailable("the database was replaced by a file that cannot be read: \(error.message)")
        }
        configure()
    }

    /// Runs `body` in one read transaction (so it sees one committed state, even while an import writes), with
    /// the time limit; SQLite's errors become tool errors that say what happened.
    package func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try followReplacement()
        deadline = clock.now + limits.timeout
        defer { deadline = nil }
        try transactionControl("BEGIN")
        // A read transaction left open would pin the server to this state forever: if COMMIT fails, roll back.
        defer { if (try? transactionControl("COMMIT")) == nil { try? transactionControl("ROLLBACK") } }
        do {
            return try body(connection)
        } catch let error as SQLiteError {
            throw ToolError(error, timeout: limits.timeout)
        }
    }

    private func transactionControl(_ statement: String) throws {
        policy.policy.allowsTransactionControl = true
        defer { policy.policy.allowsTransactionControl = false }
        do {
            try connection.execute(statement)
        } catch let error as SQLiteError {
            throw ToolError(error, timeout: limits.timeout)
        }
    }
}
