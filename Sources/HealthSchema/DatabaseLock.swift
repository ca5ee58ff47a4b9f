import Foundation
import Glibc
import HealthModel

/// The lock that keeps two healthetl runs from writing one database: `flock` on `<db>.lock`, which says who
/// holds it (pid, start time, command) for the waiting run's message and for `healthetl status`.
///
/// SQLite's own lock cannot say who holds it, and it cannot serialise two runs that both create a new
/// database (each builds its own temporary file). `flock` is released by the kernel when the process dies,
/// however it dies, so a killed run never leaves a stale lock behind.
package final class DatabaseLock {
    private let descriptor: Int32
    private let lockPath: String

    /// The run holding a database's lock, as its lock file tells.
    package struct Holder: Equatable {
        package var pid: Int32
        /// UTC, ISO 8601.
        package var since: String?
        /// The program and its command (`healthetl import`), without the other arguments: they may hold paths
        /// or connection strings the reader of a status has no business seeing.
        package var command: String?
    }

    package static func path(of databasePath: String) -> String { databasePath + ".lock" }

    package init(databasePath: String, timeoutSeconds: Double) throws {
        lockPath = Self.path(of: databasePath)
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        while true {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ImportError(
                    .output, "cannot create the lock file \(lockPath): \(SystemError.last)",
                    file: databasePath)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                // The holder before us unlinks the file when done: if ours is no longer the file at the path,
                // we locked a deleted file; start again with the current one.
                if Self.isStillAtPath(descriptor, lockPath) {
                    self.descriptor = descriptor
                    break
                }
                close(descriptor)
                continue
            }
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                close(descriptor)
                throw ImportError(
                    .output, "cannot lock \(lockPath): \(SystemError.describe(reason))", file: databasePath)
            }
            if Date() >= deadline {
                let holder = Self.holder(descriptor).map { "pid \($0.pid)" } ?? "another process"
                close(descriptor)
                throw ImportError(
                    .locked,
                    "the database is locked by \(holder) (another healthetl run; waited "
                        + "\(Int(timeoutSeconds.rounded())) s)",
                    file: databasePath, hint: "let it finish, or raise --wait")
            }
            close(descriptor)
            usleep(50_000)
        }
        let program = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "healthetl"
        let command = ([program] + CommandLine.arguments.dropFirst().prefix(1)).joined(separator: " ")
        let started = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
        let text = Array("\(getpid())\n\(started)\n\(command)\n".utf8)
        ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The run that holds the lock of the database at `databasePath` now, or nil when none does (a lock file
    /// left by a killed run is not held). Takes a shared lock for an instant to find out; never creates,
    /// changes or removes the file.
    package static func currentHolder(ofDatabase databasePath: String) -> Holder? {
        let descriptor = open(path(of: databasePath), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        guard errno == EWOULDBLOCK else { return nil }
        return holder(descriptor) ?? Holder(pid: 0)
    }

    private static func isStillAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var current = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &current) == 0 else { return false }
        return opened.st_ino == current.st_ino && opened.st_dev == current.st_dev
    }

    private static func holder(_ descriptor: Int32) -> Holder? {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let lines = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
        guard let pid = lines.first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
        return Holder(pid: pid, since: lines.count > 1 ? lines[1] : nil, command: lines.count > 2 ? lines[2] : nil)
    }

    /// Removes the file while still holding the lock, so no folder is left with a stale `.lock`; a waiter
    /// that opened it meanwhile notices (`isStillAtPath`) and retries. A killed run leaves the file, and
    /// the next run simply locks it.
    deinit {
        unlink(lockPath)
        close(descriptor)
    }
}

/// A run writing a database, as its lock file names it (for a reader's message and `healthetl status`).
public struct RunningImport: Codable, Sendable, Equatable {
    public var pid: Int32
    public var since: String?
    public var command: String?

    package init(pid: Int32, since: String?, command: String?) {
        self.pid = pid
        self.since = since
        self.command = command
    }
}

extension RunningImport: CustomStringConvertible {
    /// `healthetl import (pid 4242, since 2026-12-01T03:15:00Z)`
    public var description: String {
        var text = (command ?? "a healthetl run") + " (pid \(pid)"
        if let since { text += ", since \(since)" }
        return text + ")"
    }
}
