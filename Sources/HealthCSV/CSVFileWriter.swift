import Glibc
import HealthModel
import HealthSchema

/// One CSV file, written in a single pass through a fixed 256 KiB buffer: nothing of a table is held in
/// memory, however many rows it has.
///
/// The file is an `AtomicFile`: created owner-only (0600: it holds health data) as `<path>.tmp` and renamed
/// to `path` by `finish()`, so a failed or interrupted export never leaves a half-written CSV under the real
/// name. `discard()` (or dropping an unfinished writer) deletes the temporary file.
///
/// Fields are written one at a time (`writeText`, `writeReal`, …, see `CSVFileWriter+Fields.swift`) and
/// each row is ended with `endRow()`; the writer puts the separators and line ends. Not thread-safe.
public final class CSVFileWriter {
    public static let bufferSize = 256 * 1024

    /// Where the file ends up.
    public var path: String { file.path }
    public let dialect: CSVDialect
    /// Where it is written until `finish()`.
    public var temporaryPath: String { file.temporaryPath }
    /// Bytes written so far, buffered ones included.
    public internal(set) var byteCount = 0
    /// Rows ended so far, the header included.
    public private(set) var rowCount = 0

    private let file: AtomicFile
    let buffer: UnsafeMutablePointer<UInt8>
    var used = 0
    var fieldsInRow = 0
    private var isWriting = true
    /// The buffer goes with `close()`: an exporter keeps its closed writers until it renames them all.
    private var bufferReleased = false
    let lineEnding: [UInt8]

    public init(path: String, dialect: CSVDialect = .standard) throws {
        self.dialect = dialect
        lineEnding = Array(dialect.lineEnding.utf8)
        file = try AtomicFile(path: path)
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
        guard isWriting else { return }
        try flush()
        try file.close()
        isWriting = false
        buffer.deallocate()
        bufferReleased = true
    }

    func moveIntoPlace() throws { try file.moveIntoPlace() }

    /// Deletes the unfinished file. Harmless after `finish()` (the finished file stays).
    public func discard() {
        isWriting = false
        file.discard()
    }

    // MARK: - Buffer

    /// Every field starts here: nothing may go into the buffer once the file is closed or discarded.
    func ensureWriting() throws {
        guard isWriting else {
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
        try file.write(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }
}
