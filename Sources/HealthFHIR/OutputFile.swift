import Glibc
import HealthModel
import HealthSchema

/// One file of an export folder: written through `AtomicFile` (owner-only, synced) in 256 KiB pieces, then
/// compared with the file already in place, so a night that changed nothing renames nothing: a server or a
/// sync tool that watches the folder sees only the files whose content changed.
final class OutputFile {
    let path: String
    private let file: AtomicFile
    private var buffer: [UInt8] = []
    /// Lines (resources) written.
    private(set) var lines = 0
    private static let flushSize = 256 * 1024

    init(path: String) throws {
        self.path = path
        file = try AtomicFile(path: path)
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// One NDJSON line.
    func appendLine(_ text: String) throws {
        lines += 1
        try append(text + "\n")
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { try file.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Completes the temporary file; true when its content differs from the file in place (or there is none).
    func finish() throws -> Bool {
        try flush()
        try file.close()
        return !Self.sameContent(file.temporaryPath, path)
    }

    /// Renames the new file over the old one when it changed; otherwise drops it.
    func publish(changed: Bool) throws {
        if changed { try file.moveIntoPlace() } else { file.discard() }
    }

    func discard() { file.discard() }

    /// Whether two files hold the same bytes, read in 64 KiB chunks (false when either cannot be read).
    static func sameContent(_ first: String, _ second: String) -> Bool {
        let a = open(first, O_RDONLY | O_CLOEXEC)
        let b = open(second, O_RDONLY | O_CLOEXEC)
        defer {
            if a >= 0 { close(a) }
            if b >= 0 { close(b) }
        }
        guard a >= 0, b >= 0 else { return false }
        let size = 64 * 1024
        var left = [UInt8](repeating: 0, count: size)
        var right = [UInt8](repeating: 0, count: size)
        while true {
            let readLeft = readFully(a, &left)
            let readRight = readFully(b, &right)
            guard readLeft >= 0, readLeft == readRight else { return false }
            if readLeft == 0 { return true }
            if left[0..<readLeft] != right[0..<readRight] { return false }
        }
    }

    private static func readFully(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int {
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return -1 }
            if count == 0 { break }
            total += count
        }
        return total
    }
}
