import Foundation
import HealthModel

/// A bounded queue of item batches between the decoding thread and the writing thread.
///
/// On two cores, decoding the XML and writing SQLite each take about half the time of an import, so running
/// them side by side nearly halves it. The bound (a few batches) keeps memory flat: a fast decoder waits
/// for a slow writer instead of piling items up.
final class ItemQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[ExportItem]] = []
    private let capacity: Int
    private var closed = false
    private var producerError: Error?
    private var cancelled = false

    init(capacity: Int = 8) { self.capacity = capacity }

    /// Blocks while the queue is full. Returns false when the consumer has given up (stop producing).
    func push(_ batch: [ExportItem]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    /// The producer is done, successfully or with `error`.
    func close(error: Error? = nil) {
        condition.lock()
        closed = true
        producerError = error
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until a batch is available; nil at the end. Throws the producer's error.
    func pop() throws -> [ExportItem]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !closed { condition.wait() }
        if !batches.isEmpty {
            let batch = batches.removeFirst()
            condition.broadcast()
            return batch
        }
        if let producerError { throw producerError }
        return nil
    }

    /// The consumer failed: wake the producer so it stops.
    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

/// The producer side's sink: collects items into batches for the queue.
///
/// Batches are cut by weight, not by item count: a workout can carry thousands of route points, and 1024 of
/// them in one batch would hold hundreds of megabytes. A unit of weight is roughly one small row (~100 bytes),
/// so a batch holds about half a megabyte and the whole queue a few megabytes.
final class QueueSink: ExportSink {
    private let queue: ItemQueue
    private var batch: [ExportItem] = []
    private var weight = 0
    private let batchWeight: Int

    init(queue: ItemQueue, batchWeight: Int = 4096) {
        self.queue = queue
        self.batchWeight = batchWeight
    }

    func write(_ item: ExportItem) throws {
        batch.append(item)
        weight += item.weight
        if weight >= batchWeight { try flush() }
    }

    func flush() throws {
        guard !batch.isEmpty else { return }
        guard queue.push(batch) else { throw CancellationError() }
        batch.removeAll(keepingCapacity: true)
        weight = 0
    }

    func finish(_ summary: ImportSummary) throws -> ImportSummary {
        try flush()
        return summary
    }
    func abort() {}
}

extension ExportItem {
    /// About how many small rows the item becomes (see `QueueSink`).
    var weight: Int {
        switch self {
        case .sample(let sample): return 1 + sample.metadata.count + sample.beats.count
        case .correlation(let correlation): return 1 + correlation.metadata.count + correlation.children.count
        case .workout(let workout):
            return 1 + workout.metadata.count + workout.events.count + workout.statistics.count
                + workout.routes.reduce(0) { $0 + 1 + $1.points.count }
        case .electrocardiogram(let recording): return 1 + recording.samples.count / 25
        case .document(_, let bytes): return 1 + bytes.count / 100
        case .clinicalRecord(let record): return 1 + (record.resourceJSON?.utf8.count ?? 0) / 100
        default: return 1
        }
    }
}
