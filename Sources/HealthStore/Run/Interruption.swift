import Foundation
import Glibc
import HealthModel
import HealthSQLite
import Synchronization

/// Ctrl-C, `kill` (SIGTERM) and a closed terminal (SIGHUP) while a run writes a database.
///
/// The first signal asks the run to stop: the import checks between batches (`check`) and SQLite stops the
/// statement it is running (`sqlite3_interrupt`), so the run unwinds through its ordinary error path — roll
/// back, or delete the unfinished new file; record the failed run; release and remove the lock file — and the
/// tool exits with 128 + the signal. Nothing is left beside the database, and readers never see a half run.
/// A second signal, for a run that does not stop soon enough, exits at once after deleting the unfinished new
/// file and the lock file (an existing database is then restored by SQLite from its write-ahead log on the
/// next open, as after SIGKILL).
///
/// The handler may only do async-signal-safe work, so the paths are C strings allocated beforehand and the
/// request is an atomic.
///
/// Process-wide, so only the command-line tool turns it on (`isEnabled`): one writing run per process. Library
/// users and the test suite, which run imports side by side, leave it off.
public enum Interruption {
    nonisolated(unsafe) public static var isEnabled = false

    /// The signal received (0: none). Touched before the handlers are installed, so the handler never runs
    /// its lazy initialisation.
    private static let received = Atomic<Int32>(0)
    /// The unfinished new database and the files SQLite keeps beside it (`-wal` and `-shm` exist while its
    /// rollups are read by other connections), as C strings in a plain buffer: the handler may call nothing
    /// that allocates or counts references.
    nonisolated(unsafe) private static var temporaryPaths = UnsafeMutableBufferPointer<UnsafeMutablePointer<CChar>?>(
        start: nil, count: 0)
    nonisolated(unsafe) private static var lockPath: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var connection: SQLiteConnection.InterruptHandle?

    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// The signal that asked the run to stop, if one did.
    public static var requestedBy: Int32? {
        let signal = received.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// Throws the error that ends an interrupted run; called between batches and before committing.
    package static func check(file: String) throws(ImportError) {
        if let error = error(file: file) { throw error }
    }

    /// The error that ends an interrupted run, if a signal asked it to stop.
    static func error(file: String) -> ImportError? {
        guard let signal = requestedBy else { return nil }
        return ImportError(
            .interrupted, "interrupted by \(signalName(signal)); nothing of this run was written",
            file: file)
    }

    /// Installs the handlers for one run that writes `connection`, holding the lock file at `lockPath`, and
    /// (for a new database) building it in `temporaryPath`.
    package static func watch(connection: SQLiteConnection, lockPath: String, temporaryPath: String?) {
        guard isEnabled else { return }
        _ = received.load(ordering: .relaxed)
        self.connection = connection.interruptHandle
        self.lockPath = strdup(lockPath)
        if let temporaryPath {
            let suffixes = SQLiteTarget.sqliteSuffixes
            temporaryPaths = .allocate(capacity: suffixes.count)
            for (index, suffix) in suffixes.enumerated() { temporaryPaths[index] = strdup(temporaryPath + suffix) }
        }
        // A signal the parent blocked (some process launchers do, by accident of their own threads) would
        // never reach the handler; one it set to be ignored (`nohup` for SIGHUP, a script's `&` for SIGINT)
        // stays ignored.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in signals { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in signals where !isIgnored(signalNumber) {
            signal(signalNumber) { received in
                if Interruption.received.exchange(received, ordering: .relaxed) == 0 {
                    Interruption.connection?.interrupt()
                    return
                }
                for index in 0..<Interruption.temporaryPaths.count {
                    if let path = Interruption.temporaryPaths[index] { unlink(path) }
                }
                if let path = Interruption.lockPath { unlink(path) }
                _exit(128 + received)
            }
        }
    }

    /// Restores the default handlers once the run has committed or rolled back. A run that a signal stopped
    /// keeps a handler instead: the tool is about to exit with 128 + that signal, and a second signal arriving
    /// now (after the unwinding, before the exit) must end it the same way, not kill it by the signal's default
    /// action, which a supervisor reading the wait status tells apart.
    package static func stopWatching() {
        guard isEnabled else { return }
        let stopping = requestedBy != nil
        for signalNumber in signals where !isIgnored(signalNumber) {
            if stopping {
                signal(signalNumber) { _ in _exit(128 + Interruption.received.load(ordering: .relaxed)) }
            } else {
                signal(signalNumber, SIG_DFL)
            }
        }
        connection = nil
        free(lockPath)
        lockPath = nil
        for path in temporaryPaths { free(path) }
        temporaryPaths.baseAddress?.deallocate()
        temporaryPaths = .init(start: nil, count: 0)
    }

    private static func isIgnored(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signalNumber, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT (Ctrl-C)"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
