import Glibc
import HealthModel

/// One CSV file, written in a single pass through a fixed 256 KiB buffer: nothing of a table is held in
/// memory, however many rows it has.
///
/// The file is created owner-only (0600: it holds health data) as `<path>.tmp` and renamed to `path` by
/// `finish()`, so a failed or interrupted export never leaves a half-written CSV under the real name.
/// `discard()` (or dropping an unfinished writer) deletes the temporary file.
///
/// Fields are written one at a time (`writeText`, `writeReal`, …, see `CSVFileWriter+Fields.swift`) and
/// each row is ended with `endRow()`; the writer puts the separators and line ends. Not thread-safe.
public final class CSVFileWriter {
    public static let bufferSize = 256 * 1024

    /// Where the file ends up.
    public let path: String
    public let dialect: CSVDialect
    /// Where it is written until `finish()`.
    public let temporaryPath: String
    /// Bytes written so far, buffered ones included.
    public internal(set) var byteCount = 0
    /// Rows ended so far, the header included.
    public private(set) var rowCount = 0

    private var descriptor: Int32
    let buffer: UnsafeMutablePointer<UInt8>
    var used = 0
    var fieldsInRow = 0
    private var state = State.writing
    /// The buffer goes with `close()`: an exporter keeps its closed writers until it renames them all.
    private var bufferReleased = false
    let lineEnding: [UInt8]

    private enum State {
        case writing, closed, published, discarded
    }

    public init(path: String, dialect: CSVDialect = .standard) throws {
        self.path = path
        self.dialect = dialect
        temporaryPath = path + ".tmp"
        lineEnding = Array(dialect.lineEnding.utf8)
        // A leftover of an export that was killed; this run replaces it.
        unlink(temporaryPath)
        descriptor = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImportError(.output, "cannot create \(temporaryPath): \(Self.lastError())", file: path)
        }
        buffer = .allocate(capacity: Self.bufferSize)
        if dialect.byteOrderMark { append([0xEF, 0xBB, 0xBF]) }
    }

    deinit {
        discard()
        if !bufferReleased { buffer.deallocate() }
    }

    /// Ends the current row. A row with no field still gets its line end (an empty line).
    public func endRow() throws {
        try ensureWriting()
        try reserve(lineEnding.count)
        for byte in lineEnding { put(byte) }
        fieldsInRow = 0
        rowCount += 1
    }

    /// Writes what is buffered, syncs the file to disk, closes it and renames it to `path`.
    public func finish() throws {
        try close()
        try moveIntoPlace()
    }

    /// The first half of `finish()`: the complete file, still under its temporary name. An exporter writing
    /// several files closes them all before renaming any, so a failure leaves none of them half-done.
    func close() throws {
        guard state == .writing else { return }
        try flush()
        // The rename must not reach the disk before the data, or a crash could leave an empty file in place.
        guard fsync(descriptor) == 0 else {
            throw ImportError(.output, "cannot write \(temporaryPath): \(Self.lastError())", file: path)
        }
        Glibc.close(descriptor)
        descriptor = -1
        state = .closed
        buffer.deallocate()
        bufferReleased = true
    }

    func moveIntoPlace() throws {
        guard state == .closed else { return }
        guard rename(temporaryPath, path) == 0 else {
            throw ImportError(.output, "cannot move \(temporaryPath) into place: \(Self.lastError())", file: path)
        }
        state = .published
    }

    /// Deletes the unfinished file. Harmless after `finish()` (the finished file stays).
    public func discard() {
        guard state == .writing || state == .closed else { return }
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
        state = .discarded
    }

    // MARK: - Buffer

    /// Every field starts here: nothing may go into the buffer once the file is closed or discarded.
    func ensureWriting() throws {
        guard state == .writing else {
            throw ImportError(.internal, "write to a CSV file that was already closed", file: path)
        }
    }

    /// Makes room for `count` bytes in the buffer (`count` ≤ bufferSize).
    @inline(__always) func reserve(_ count: Int) throws {
        if used + count > Self.bufferSize { try flush() }
    }

    /// Puts one byte; the caller reserved room.
    @inline(__always) func put(_ byte: UInt8) {
        buffer[used] = byte
        used += 1
        byteCount += 1
    }

    /// Appends bytes of any length, flushing as often as needed.
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            if used == Self.bufferSize { try flush() }
            let count = min(bytes.count - offset, Self.bufferSize - used)
            UnsafeMutableRawPointer(buffer + used).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            used += count
            byteCount += count
            offset += count
        }
    }

    /// For the byte order mark, before anything can fail.
    private func append(_ bytes: [UInt8]) {
        for byte in bytes { put(byte) }
    }

    package func flush() throws {
        try ensureWriting()
        var offset = 0
        while offset < used {
            let written = Glibc.write(descriptor, buffer + offset, used - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ImportError(.output, "cannot write \(temporaryPath): \(Self.lastError())", file: path)
            }
            offset += written
        }
        used = 0
    }

    package static func lastError() -> String { String(cString: strerror(errno)) }
}
