import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthSchema

/// The database file of an import, made so that a failed or killed run never leaves a half-written database,
/// and readers keep reading while it runs.
///
/// A new database is built in a temporary file beside the target (owner-only permissions, no journal: if
/// the run fails the file is simply deleted), switched to write-ahead logging, and renamed over the target
/// only when complete. An existing database is updated in WAL mode inside one `BEGIN IMMEDIATE` transaction:
/// readers (Datasette, sqlite3, `healthetl status`) go on reading the last committed state without waiting,
/// SQLite's log restores the database if the run dies, and a second importer waits for the lock instead of
/// writing at the same time. After the commit the log is checkpointed into the database and truncated.
package final class SQLiteTarget {
    package let path: String
    let isNew: Bool
    let workingPath: String
    package let connection: SQLiteConnection
    private var closed = false
    private var flusher: BackgroundFlusher?
    /// A new database switched to WAL for the rest of its run, so other connections can read it (see
    /// `shareLoadedRows`); it leaves WAL again before it is moved into place.
    private var sharesLoadedRows = false
    /// Why the file could not be compacted after the commit (`commit(compact:)`), if it could not.
    package private(set) var compactionFailure: String?
    /// Held from before the file is looked at until the run ends, so two runs never both create or write it.
    private var lock: DatabaseLock?

    /// SQLite's page cache for a run. Loading a new database, rows arrive grouped by type and in time order, so
    /// the tables and their indexes grow at their right edges and a small cache holds the pages being written:
    /// 8 MiB instead of 16 MiB took 7 MB off an import's peak RSS, which had passed 64 MB (measured with
    /// `scripts/benchmark`: docs/performance.md). A re-import looks every row up in the indexes, which 16 MiB
    /// does not hold either on a large export: at 8 MiB its time was the same (paired runs, × 0.95 wall on
    /// 1.2 GB, × 1.00 on 4.6 GB) and the 4.6 GB re-import's peak fell from 70 to 62 MiB.
    static let pageCacheKiB = 8192

    package init(path: String, lockTimeoutMilliseconds: Int32) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw ImportError(.output, "the folder \(directory) does not exist", file: path)
        }
        lock = try DatabaseLock(databasePath: path, timeoutSeconds: Double(lockTimeoutMilliseconds) / 1000)
        isNew = !FileManager.default.fileExists(atPath: path)
        if isNew {
            Self.removeStaleTemporaryFiles(of: path)
            workingPath = path + ".healthetl-\(getpid()).tmp"
            Self.removeDatabaseFiles(workingPath)
            // Create the file ourselves first, so it is owner-only from its first byte.
            let descriptor = open(workingPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ImportError(.output, "cannot create the database: \(SystemError.last)", file: path)
            }
            Glibc.close(descriptor)
        } else {
            workingPath = path
        }
        do {
            connection = try SQLiteConnection(path: workingPath)
        } catch {
            if isNew { Self.removeDatabaseFiles(workingPath) }
            throw ImportError(.output, "cannot open the database: \(error)", file: path)
        }
        connection.setBusyTimeout(milliseconds: lockTimeoutMilliseconds)
        Interruption.watch(
            connection: connection, lockPath: DatabaseLock.path(of: path), temporaryPath: isNew ? workingPath : nil)
        do {
            if isNew {
                // Nothing to protect yet: if this run fails, the temporary file is deleted.
                try connection.execute(
                    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 16384; "
                        + "PRAGMA cache_size = -\(Self.pageCacheKiB); PRAGMA foreign_keys = OFF")
            } else {
                // WAL: readers keep the last committed state while this run writes (a database of an earlier
                // version, in rollback-journal mode, is switched once; the mode is stored in the file).
                if try Self.isHealthETLDatabaseOrEmpty(connection) {
                    Self.makeOwnerOnly(path)
                    try connection.execute("PRAGMA journal_mode = WAL")
                }
                // Recursive triggers: REPLACE then fires delete triggers for the rows it replaces. healthetl has
                // no triggers of its own; the PostgreSQL working copy logs its changes with them.
                try connection.execute(
                    "PRAGMA cache_size = -\(Self.pageCacheKiB); PRAGMA foreign_keys = OFF; "
                        + "PRAGMA recursive_triggers = ON")
            }
            try connection.execute("BEGIN IMMEDIATE")
            if isNew { flusher = BackgroundFlusher(path: workingPath) }
        } catch let error as SQLiteError where error.isBusy {
            Interruption.stopWatching()
            throw ImportError(
                .locked, "the database is in use by another process (waited \(lockTimeoutMilliseconds / 1000) s)",
                file: path, hint: "wait for the other import to finish")
        } catch {
            Interruption.stopWatching()
            if isNew { Self.removeDatabaseFiles(workingPath) }
            throw ImportError(.output, "cannot prepare the database: \(error)", file: path)
        }
    }

    /// Whether the file is one healthetl wrote (a known schema version with its run log) or holds no table
    /// yet. Only those are made owner-only and switched to WAL: another application's database is refused by
    /// the sink with its bytes and mode as they were.
    static func isHealthETLDatabaseOrEmpty(_ connection: SQLiteConnection) throws -> Bool {
        switch try SchemaState(of: connection) {
        case .empty, .current, .older: true
        case .newer, .foreign: false
        }
    }

    /// The database and the log files SQLite keeps beside it, owner-only (a database of an earlier version,
    /// or one copied in, may have other modes; SQLite gives new `-wal`/`-shm` files the database's mode).
    static func makeOwnerOnly(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o600) }
    }

    /// Deletes `<db>.healthetl-<pid>.tmp` files left by an import that was killed (SIGKILL, power loss), with
    /// the `-journal`, `-wal` or `-shm` SQLite may have made beside them while switching the new file to WAL:
    /// their process no longer exists. A file of a process that is still running is another import's; left
    /// alone.
    static func removeStaleTemporaryFiles(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".healthetl-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dot = rest.firstIndex(of: "."), rest[dot...].hasPrefix(".tmp"),
                Self.sqliteSuffixes.contains(String(rest[dot...].dropFirst(4))),
                let pid = Int32(rest[..<dot]), ProcessLiveness.processIsGone(pid)
            else { continue }
            unlink((directory.isEmpty ? "." : directory) + "/" + name)
        }
    }

    /// A database file and the files SQLite may keep beside it.
    static let sqliteSuffixes = ["", "-journal", "-wal", "-shm"]

    /// Deletes the unfinished new database and anything SQLite made beside it.
    static func removeDatabaseFiles(_ path: String) {
        for suffix in sqliteSuffixes { unlink(path + suffix) }
    }

    /// Commits, and for a new database moves it into place. Returns the size of the write-ahead log left
    /// behind when a reader's long transaction kept the checkpoint from emptying it (0 normally).
    ///
    /// `compact`: the run freed many pages (a schema upgrade dropped the old tables), so after the commit the
    /// file is rewritten without them (VACUUM, itself one transaction: readers still read, and a kill leaves
    /// the committed run as it is). A failed compaction is only a warning (`compactionFailure`): the run is
    /// committed.
    @discardableResult
    package func commit(compact: Bool = false) throws -> Int64 {
        flusher?.stop()
        // A signal that arrived after the last batch still stops the run: before this point nothing is changed.
        try Interruption.check(file: path)
        RunHandshake.pause(at: .beforeCommit)
        do {
            try connection.execute("COMMIT")
        } catch {
            throw ImportError(.output, "cannot commit: \(error)", file: path)
        }
        var logLeft: Int64 = 0
        if isNew {
            try moveIntoPlace()
        } else {
            if compact {
                do {
                    // VACUUM fills a cache of this size for the file it builds as well as for the database: at
                    // 16 MiB it took a 256 MB export's upgrade from 64 MB to 120 MB of RSS; at 2 MiB
                    // the whole rewrite stays under 15 MB (measured with sqlite3) for ~10 % more time.
                    try connection.execute("PRAGMA cache_size = -2048")
                    try connection.execute("VACUUM")
                } catch {
                    compactionFailure = "\(error)"
                }
            }
            logLeft = checkpoint()
        }
        Interruption.stopWatching()
        closed = true
        lock = nil
        return logLeft
    }

    /// For a new database: commits the rows loaded so far and switches the file to WAL, so that other
    /// connections can read them (`SQLiteConnection(path: workingPath, readOnly: true)`) while this one goes
    /// on writing; returns the file to open, or nil when nothing else may read (an existing database, whose
    /// changes must stay invisible until the run's one commit, or a file that refused the switch).
    ///
    /// Committing early costs a new database nothing in safety: until it is renamed over the target it is a
    /// temporary file, deleted if the run fails, whatever was committed in it.
    package func shareLoadedRows() throws -> String? {
        guard isNew, !sharesLoadedRows else { return sharesLoadedRows ? workingPath : nil }
        try connection.execute("COMMIT")
        let mode = try connection.scalar("PRAGMA journal_mode = WAL")
        try connection.execute("BEGIN IMMEDIATE")
        sharesLoadedRows = mode == .text("wal")
        return sharesLoadedRows ? workingPath : nil
    }

    /// The finished new database: switched to WAL (so readers never wait for the next import), synced, and
    /// renamed over the target.
    private func moveIntoPlace() throws {
        if sharesLoadedRows {
            // Back to no journal: SQLite copies the log into the file and deletes it, so the file renamed below
            // is the whole database. (Every other connection to it is closed by now.)
            let mode = try? connection.scalar("PRAGMA journal_mode = OFF")
            guard mode == .text("off") else {
                Self.removeDatabaseFiles(workingPath)
                // A signal that arrived during the fold interrupted it: say so, not that the disk failed.
                try Interruption.check(file: path)
                throw ImportError(.output, "cannot fold the write-ahead log into the new database", file: path)
            }
        }
        do {
            // A second connection switches the mode and, closing as the file's last WAL connection, removes
            // the `-wal` and `-shm` files it made: only the database file is renamed. The import's own
            // connection holds no lock after its commit and is not used again.
            let switcher = try SQLiteConnection(path: workingPath, create: false)
            guard try switcher.scalar("PRAGMA journal_mode = WAL") == .text("wal") else {
                throw ImportError(.output, "cannot switch the new database to WAL mode", file: path)
            }
        } catch let error as ImportError {
            Self.removeDatabaseFiles(workingPath)
            throw error
        } catch {
            Self.removeDatabaseFiles(workingPath)
            throw ImportError(.output, "cannot switch the new database to WAL mode: \(error)", file: path)
        }
        let descriptor = open(workingPath, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            Glibc.close(descriptor)
        }
        guard rename(workingPath, path) == 0 else {
            let reason = SystemError.last
            Self.removeDatabaseFiles(workingPath)
            throw ImportError(.output, "cannot move the new database into place: \(reason)", file: path)
        }
    }

    /// Copies the committed log into the database and truncates it, waiting a little for readers that are
    /// still on an older snapshot. A reader that keeps one open longer keeps the log from being emptied;
    /// the next run (or the last connection to close) empties it. Returns the log's size left behind.
    private func checkpoint() -> Int64 {
        connection.setBusyTimeout(milliseconds: 2_000)
        let row = try? connection.query("PRAGMA wal_checkpoint(TRUNCATE)").first
        guard row?.first == .integer(1) else { return 0 }  // 1: busy, a reader held an older snapshot
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Starts a second, short transaction after `commit` or `rollback` (to record a failed run), still
    /// under the lock.
    func beginRecord() throws {
        guard lock != nil else { throw ImportError(.internal, "the database lock was released", file: path) }
        try connection.execute("BEGIN IMMEDIATE")
    }

    /// Leaves everything as it was: rollback, or delete the unfinished new file.
    package func rollback() {
        flusher?.stop()
        guard !closed else { return }
        closed = true
        try? connection.execute("ROLLBACK")
        Interruption.stopWatching()
        if isNew {
            Self.removeDatabaseFiles(workingPath)
            lock = nil
        }
    }

    /// Releases the lock once nothing more will be written.
    package func close() { lock = nil }
}

/// Writes a new database's pages to disk while the import runs.
///
/// With a multi-gigabyte database, the kernel's dirty-page limits otherwise stall the writing thread late in
/// the import, and the final fsync before the rename has gigabytes to write. Syncing once a second from a
/// separate thread keeps the dirty pages few and overlaps the disk with the decoding.
final class BackgroundFlusher {
    private let thread: WorkerThread

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        thread = WorkerThread(name: "flush") { thread in
            defer { close(descriptor) }
            while thread.pause(seconds: 1) { fdatasync(descriptor) }
        }
    }

    func stop() { thread.stop() }

    deinit { stop() }
}
