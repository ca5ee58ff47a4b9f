import Glibc
import HealthModel
import HealthSchema

/// Where a writer's bytes go. A file is rendered more than once (counted for FIT's header, compared with the
/// file already there, written), always by the same code, so what is compared is what would be written.
protocol ByteSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// Counts the bytes.
struct CountingSink: ByteSink {
    var count = 0
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws { count += bytes.count }
}

/// Compares the bytes with a file's, reading it in chunks: `isSame` after the last write says whether the file
/// holds exactly these bytes (then it is left as it is, its time included).
struct ComparingSink: ByteSink {
    private var descriptor: Int32
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var chunkCount = 0
    private var chunkOffset = 0
    private(set) var differs = false

    /// nil when there is no readable file at `path`.
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while !differs && offset < bytes.count {
            if chunkOffset == chunkCount && !refill() {
                differs = true
                return
            }
            let count = min(bytes.count - offset, chunkCount - chunkOffset)
            let same = chunk.withUnsafeBytes {
                memcmp($0.baseAddress! + chunkOffset, bytes.baseAddress! + offset, count) == 0
            }
            if !same { differs = true }
            offset += count
            chunkOffset += count
        }
    }

    private mutating func refill() -> Bool {
        let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
        guard read > 0 else { return false }
        chunkCount = read
        chunkOffset = 0
        return true
    }

    /// Whether the file held these bytes and nothing more; closes it.
    mutating func finishIsSame() -> Bool {
        defer {
            Glibc.close(descriptor)
            descriptor = -1
        }
        return !differs && chunkOffset == chunkCount && !refill()
    }
}

/// Writes into an `AtomicFile` (owner-only, renamed into place when complete).
struct AtomicFileSink: ByteSink {
    let file: AtomicFile
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws { try file.write(bytes) }
}

/// Text and bytes gathered in a 64 KiB buffer in front of a sink, so a point costs no system call.
struct BufferedWriter<Sink: ByteSink> {
    var sink: Sink
    private var buffer: [UInt8] = []

    init(_ sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(64 * 1024)
    }

    mutating func text(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 60 * 1024 { try flush() }
    }

    mutating func bytes(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 60 * 1024 { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A format's writer: renders one workout's whole file into a sink, the same bytes every time.
protocol WorkoutFileWriter {
    func write<Sink: ByteSink>(into sink: inout Sink) throws
}

extension FITWorkoutWriter: WorkoutFileWriter {}
extension TCXWorkoutWriter: WorkoutFileWriter {}
extension GPXWorkoutWriter: WorkoutFileWriter {}
