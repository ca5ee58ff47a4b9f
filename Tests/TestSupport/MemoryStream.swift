import HealthModel

/// A ByteStream over bytes in memory, handing them out in pieces of at most `pieceSize`.
package final class MemoryStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    private let pieceSize: Int
    package var expectedSize: UInt64? { UInt64(bytes.count) }

    package init(_ bytes: [UInt8], pieceSize: Int = .max) {
        self.bytes = bytes
        self.pieceSize = pieceSize
    }

    package convenience init(_ text: String, pieceSize: Int = .max) {
        self.init(Array(text.utf8), pieceSize: pieceSize)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset, pieceSize)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
