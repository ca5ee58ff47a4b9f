import Foundation
import Glibc

/// The database file of an import, made so that a failed or killed run never leaves a half-written database.
///
/// A new database is built in a temporary file beside the target (owner-only permissions, no journal: if
/// the run fails the file is simply deleted) and renamed over the target only when complete. An existing
/// database is updated inside one `BEGIN IMMEDIATE` transaction, so SQLite's journal restores it if the run
/// dies, and a second importer waits for the lock instead of writing at the same time.
final class SQLiteTarget {
    let path: String
    let isNew: Bool
    let workingPath: String
    let connection: SQLiteConnection
    private var closed = false
    private var flusher: BackgroundFlusher?
    /// Held from before the file is looked at until the run ends, so two runs never both create or write it.
    private var lock: DatabaseLock?

    init(path: String, lockTimeoutMilliseconds: Int32) throws {
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
            unlink(workingPath)
            InterruptCleanup.register(workingPath)
            // Create the file ourselves first, so it is owner-only from its first byte.
            let descriptor = open(workingPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ImportError(.output, "cannot create the database: \(String(cString: strerror(errno)))", file: path)
            }
            Glibc.close(descriptor)
        } else {
            workingPath = path
        }
        do {
            connection = try SQLiteConnection(path: workingPath)
        } catch {
            if isNew { unlink(workingPath) }
            throw ImportError(.output, "cannot open the database: \(error)", file: path)
        }
        connection.setBusyTimeout(milliseconds: lockTimeoutMilliseconds)
        do {
            if isNew {
                // Nothing to protect yet: if this run fails, the temporary file is deleted.
                try connection.execute(
                    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 16384; "
                        + "PRAGMA cache_size = -16384; PRAGMA foreign_keys = OFF")
            } else {
                chmod(path, 0o600)
                // Recursive triggers: REPLACE then fires delete triggers for the rows it replaces. healthetl has
                // no triggers of its own; the PostgreSQL working copy logs its changes with them.
                try connection.execute(
                    "PRAGMA cache_size = -16384; PRAGMA foreign_keys = OFF; PRAGMA recursive_triggers = ON")
            }
            try connection.execute("BEGIN IMMEDIATE")
            if isNew { flusher = BackgroundFlusher(path: workingPath) }
        } catch let error as SQLiteError where error.isBusy {
            throw ImportError(
                .locked, "the database is in use by another process (waited \(lockTimeoutMilliseconds / 1000) s)",
                file: path, hint: "wait for the other import to finish")
        } catch {
            if isNew { unlink(workingPath) }
            throw ImportError(.output, "cannot prepare the database: \(error)", file: path)
        }
    }

    /// Deletes `<db>.healthetl-<pid>.tmp` files left by an import that was killed (SIGKILL, power loss): their
    /// process no longer exists. A file of a process that is still running is another import's; left alone.
    static func removeStaleTemporaryFiles(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".healthetl-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let pidText = name.dropFirst(prefix.count).dropLast(4)
            guard let pid = Int32(pidText), Self.processIsGone(pid) else { continue }
            unlink((directory.isEmpty ? "." : directory) + "/" + name)
        }
    }

    /// Whether `pid` names no running process (and is not ours): its temporary files are leftovers.
    static func processIsGone(_ pid: Int32) -> Bool {
        pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Commits, and for a new database moves it into place.
    func commit() throws {
        flusher?.stop()
        do {
            try connection.execute("COMMIT")
            if isNew {
                try connection.execute("PRAGMA journal_mode = DELETE")
            }
        } catch {
            throw ImportError(.output, "cannot commit: \(error)", file: path)
        }
        if isNew {
            let descriptor = open(workingPath, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                fsync(descriptor)
                Glibc.close(descriptor)
            }
            defer { InterruptCleanup.unregister() }
            guard rename(workingPath, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(workingPath)
                throw ImportError(.output, "cannot move the new database into place: \(reason)", file: path)
            }
        }
        closed = true
        lock = nil
    }

    /// Starts a second, short transaction after `commit` or `rollback` (to record a failed run), still
    /// under the lock.
    func beginRecord() throws {
        guard lock != nil else { throw ImportError(.internal, "the database lock was released", file: path) }
        try connection.execute("BEGIN IMMEDIATE")
    }

    /// Leaves everything as it was: rollback, or delete the unfinished new file.
    func rollback() {
        flusher?.stop()
        guard !closed else { return }
        closed = true
        try? connection.execute("ROLLBACK")
        if isNew {
            unlink(workingPath)
            InterruptCleanup.unregister()
            lock = nil
        }
    }

    /// Releases the lock once nothing more will be written.
    func close() { lock = nil }
}

/// Deletes the unfinished new database when the import is interrupted (Ctrl-C, `kill`), so no half-written
/// file is left behind. The signal handler may only call async-signal-safe functions, so the path is kept as
/// a C string allocated beforehand.
///
/// Process-wide, so only the command-line tool turns it on (`isEnabled`): one import per process. Library users
/// and the test suite, which run imports side by side, leave it off.
public enum InterruptCleanup {
    nonisolated(unsafe) public static var isEnabled = false
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?

    static func register(_ temporaryPath: String) {
        guard isEnabled else { return }
        path = strdup(temporaryPath)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                if let path = InterruptCleanup.path { unlink(path) }
                _exit(128 + received)
            }
        }
    }

    static func unregister() {
        guard isEnabled else { return }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { signal(signalNumber, SIG_DFL) }
        free(path)
        path = nil
    }
}

/// Writes a new database's pages to disk while the import runs.
///
/// With a multi-gigabyte database, the kernel's dirty-page limits otherwise stall the writing thread late in
/// the import, and the final fsync before the rename has gigabytes to write. Syncing once a second from a
/// separate thread keeps the dirty pages few and overlaps the disk with the decoding.
final class BackgroundFlusher {
    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var stopped = false
    }

    private let state = State()

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let state = self.state
        let thread = Thread {
            defer { close(descriptor) }
            while true {
                state.condition.lock()
                if !state.stopped { _ = state.condition.wait(until: Date(timeIntervalSinceNow: 1)) }
                let stopped = state.stopped
                state.condition.unlock()
                if stopped { return }
                fdatasync(descriptor)
            }
        }
        thread.start()
    }

    func stop() {
        state.condition.lock()
        state.stopped = true
        state.condition.broadcast()
        state.condition.unlock()
    }

    deinit { stop() }
}
