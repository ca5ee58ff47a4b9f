import Foundation
import HealthModel

/// A bounded queue of item batches between the decoding thread and the writing thread.
///
/// On two cores, decoding the XML and writing SQLite each take about half the time of an import, so running
/// them side by side nearly halves it. The bound keeps memory flat: a fast decoder waits for a slow writer
/// instead of piling items up. It counts weight (`ExportItem.weight`), not batches: a batch of one workout
/// with three hours of 1 Hz route points weighs as much as a few ordinary batches, and a bound of eight batches
/// let eight such workouts wait at once.
final class ItemQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [(items: [ExportItem], weight: Int)] = []
    private var queuedWeight = 0
    private let capacityWeight: Int
    private var closed = false
    private var producerError: Error?
    private var cancelled = false

    /// `capacityWeight`: the most weight queued before the producer waits (one batch always fits): three or
    /// four ordinary batches (`QueueSink` cuts one once it reaches 4096). Eight batches held ~5 MB more at the
    /// peak (measured, see the README).
    init(capacityWeight: Int = 4 * 4096) { self.capacityWeight = capacityWeight }

    /// Blocks while the queue is full. Returns false when the consumer has given up (stop producing).
    func push(_ batch: [ExportItem], weight: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !batches.isEmpty && queuedWeight + weight > capacityWeight && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append((batch, weight))
        queuedWeight += weight
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
            queuedWeight -= batch.weight
            condition.broadcast()
            return batch.items
        }
        if let producerError { throw producerError }
        return nil
    }

    /// The consumer failed: wake the producer so it stops.
    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        queuedWeight = 0
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
        guard queue.push(batch, weight: weight) else { throw CancellationError() }
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
        case .document: return 1  // its bytes stay in the file until the sink streams them
        case .clinicalRecord(let record): return 1 + (record.resourceJSON?.utf8.count ?? 0) / 100
        default: return 1
        }
    }
}

