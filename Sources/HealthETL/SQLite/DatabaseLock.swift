import Foundation
import Glibc

/// The lock that keeps two healthetl runs from writing one database: `flock` on `<db>.lock`, which holds the
/// pid of the run that has it.
///
/// SQLite's own lock cannot say who holds it, and it cannot serialise two runs that both create a new
/// database (each builds its own temporary file). `flock` is released by the kernel when the process dies,
/// however it dies, so a killed run never leaves a stale lock behind.
final class DatabaseLock {
    private let descriptor: Int32
    private let lockPath: String

    init(databasePath: String, timeoutSeconds: Double) throws {
        lockPath = databasePath + ".lock"
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        while true {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ImportError(
                    .output, "cannot create the lock file \(lockPath): \(String(cString: strerror(errno)))",
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
                    .output, "cannot lock \(lockPath): \(String(cString: strerror(reason)))", file: databasePath)
            }
            if Date() >= deadline {
                let holder = Self.holder(descriptor).map { "pid \($0)" } ?? "another process"
                close(descriptor)
                throw ImportError(
                    .locked, "the database is locked by \(holder) (another healthetl run; waited "
                        + "\(Int(timeoutSeconds.rounded())) s)",
                    file: databasePath, hint: "let it finish, or raise --wait")
            }
            close(descriptor)
            usleep(50_000)
        }
        let pid = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private static func isStillAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var current = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &current) == 0 else { return false }
        return opened.st_ino == current.st_ino && opened.st_dev == current.st_dev
    }

    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Removes the file while still holding the lock, so no folder is left with a stale `.lock`; a waiter
    /// that opened it meanwhile notices (`isStillAtPath`) and retries. A killed run leaves the file, and
    /// the next run simply locks it.
    deinit {
        unlink(lockPath)
        close(descriptor)
    }
}
