import Foundation
import HealthModel

/// Reads another stream ahead on a background thread (inflating the zip and checking its CRC), so the thread
/// that parses XML never waits for zlib. Holds at most `depth` chunks; errors arrive in order, after the
/// bytes that came before them.
public final class ReadAheadStream: ByteStream {
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var chunks: [[UInt8]] = []
        var finished = false
        var error: Error?
        var stopped = false
    }

    private let shared = Shared()
    private var current: [UInt8] = []
    private var offset = 0
    private let worker: Thread
    public let expectedSize: UInt64?

    public init(_ source: ByteStream, chunkSize: Int = 256 * 1024, depth: Int = 4) {
        expectedSize = source.expectedSize
        let shared = self.shared
        let handoff = Handoff(source)
        worker = Thread {
            let source = handoff.value
            while true {
                // Filled straight from the source: zeroing 256 KB first would cost as much as copying it.
                var chunk: [UInt8] = []
                let result: Result<Int, Error> = Result {
                    chunk = try [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, filled in
                        filled = try source.read(into: UnsafeMutableRawBufferPointer(buffer))
                    }
                    return chunk.count
                }
                shared.condition.lock()
                while shared.chunks.count >= depth && !shared.stopped { shared.condition.wait() }
                if shared.stopped {
                    shared.condition.unlock()
                    return
                }
                switch result {
                case .success(let count) where count > 0:
                    shared.chunks.append(chunk)
                case .success:
                    shared.finished = true
                case .failure(let error):
                    shared.error = error
                    shared.finished = true
                }
                shared.condition.broadcast()
                let done = shared.finished
                shared.condition.unlock()
                if done { return }
            }
        }
        worker.name = "inflate"
        worker.start()
    }

    deinit {
        shared.condition.lock()
        shared.stopped = true
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset == current.count {
            shared.condition.lock()
            while shared.chunks.isEmpty && !shared.finished { shared.condition.wait() }
            if shared.chunks.isEmpty {
                let error = shared.error
                shared.condition.unlock()
                if let error { throw error }
                return 0
            }
            current = shared.chunks.removeFirst()
            offset = 0
            shared.condition.broadcast()
            shared.condition.unlock()
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
