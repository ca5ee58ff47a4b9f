import Foundation
import HealthModel

/// Reads another stream ahead on a background thread (inflating the zip and checking its CRC), so the thread
/// that parses XML never waits for zlib. Holds at most `depth` chunks; errors arrive in order, after the
/// bytes that came before them.
public final class ReadAheadStream: ByteStream {
    private let chunks: BoundedChannel<[UInt8]>
    private var current: [UInt8] = []
    private var offset = 0
    public let expectedSize: UInt64?

    public init(_ source: ByteStream, chunkSize: Int = 256 * 1024, depth: Int = 4) {
        expectedSize = source.expectedSize
        let chunks = BoundedChannel<[UInt8]>(capacity: depth)
        self.chunks = chunks
        let handoff = Handoff(source)
        // Not joined: the thread ends at the source's end, at its error, or when `deinit` cancels the channel.
        _ = WorkerThread(name: "inflate") { _ in
            let source = handoff.value
            while true {
                // Filled straight from the source: zeroing 256 KB first would cost as much as copying it.
                let chunk: [UInt8]
                do {
                    chunk = try [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, filled in
                        filled = try source.read(into: UnsafeMutableRawBufferPointer(buffer))
                    }
                } catch {
                    chunks.finish(throwing: error)
                    return
                }
                guard !chunk.isEmpty else { return chunks.finish() }
                guard chunks.send(chunk) else { return }  // the reader is gone
            }
        }
    }

    deinit { chunks.cancel() }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset == current.count {
            guard let next = try chunks.receive() else { return 0 }
            current = next
            offset = 0
        }
        let count = min(buffer.count, current.count - offset)
        current.withUnsafeBytes { source in
            // swift-format-ignore: NeverForceUnwrap
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
