import Glibc
import HealthModel

/// A file that appears complete or not at all: written owner-only (0600: it holds health data) under
/// `<path>.tmp`, synced to disk, then renamed over `path`. Every output file but the database goes through it
/// (CSV files, the report, Datasette's metadata); the database has its own sequence (`SQLiteTarget`).
///
/// `discard()`, or dropping an unfinished file, deletes the temporary one. Not thread-safe.
package final class AtomicFile {
    /// Where the file ends up.
    package let path: String
    /// Where it is written until `moveIntoPlace()`.
    package let temporaryPath: String
    private var descriptor: Int32
    private var state = State.writing

    private enum State {
        case writing, closed, published, discarded
    }

    package init(path: String) throws {
        self.path = path
        temporaryPath = path + ".tmp"
        // A leftover of a run that was killed; this run replaces it.
        unlink(temporaryPath)
        descriptor = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImportError(.output, "cannot create \(temporaryPath): \(SystemError.last)", file: path)
        }
    }

    deinit { discard() }

    /// Writes all of `bytes` (retrying short writes and interruptions).
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard state == .writing else {
            throw ImportError(.internal, "write to a file that was already closed", file: path)
        }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ImportError(.output, "cannot write \(temporaryPath): \(SystemError.last)", file: path)
            }
            offset += written
        }
    }

    /// The complete file, synced, still under its temporary name. A writer of several files closes them all
    /// before renaming any, so a failure leaves none of them half-done.
    package func close() throws {
        guard state == .writing else { return }
        // The rename must not reach the disk before the data, or a crash could leave an empty file in place.
        guard fsync(descriptor) == 0 else {
            throw ImportError(.output, "cannot write \(temporaryPath): \(SystemError.last)", file: path)
        }
        Glibc.close(descriptor)
        descriptor = -1
        state = .closed
    }

    /// Renames the closed file over `path`.
    package func moveIntoPlace() throws {
        guard state == .closed else { return }
        guard rename(temporaryPath, path) == 0 else {
            throw ImportError(.output, "cannot move \(temporaryPath) into place: \(SystemError.last)", file: path)
        }
        state = .published
    }

    /// Deletes the unfinished file. Harmless once it is in place.
    package func discard() {
        guard state == .writing || state == .closed else { return }
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
        state = .discarded
    }

    /// `bytes` as the whole file at `path`.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try AtomicFile(path: path)
        try bytes.withUnsafeBytes { try file.write($0) }
        try file.close()
        try file.moveIntoPlace()
    }
}
