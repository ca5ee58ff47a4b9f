import Foundation
import HealthModel

/// One hand-over between the threads: a batch of records as columns and the other items among them
/// (`SampleBatch`), with the fingerprints of its rows when the decoding thread computed them
/// (`WorkPlacement.decoderFingerprints`: `batch.identity`).
struct ItemBatch: Sendable {
    var batch = SampleBatch(vocabulary: Vocabulary())
    /// `batch.identity` holds each row's `SampleIdentity.fingerprint` (else the writing thread computes them).
    var hasIdentities = false
    var weight = 0

    /// Empties the batch for its next use, its capacity kept (the other items are released here).
    mutating func removeAll() {
        batch.removeAll(keepingCapacity: true)
        hasIdentities = false
        weight = 0
    }
}

/// A bounded queue of item batches between the decoding thread and the writing thread.
///
/// On two cores, decoding the XML and writing SQLite each take about half the time of an import, so running
/// them side by side nearly halves it. The bound keeps memory flat: a fast decoder waits for a slow writer
/// instead of piling items up. It counts weight (`ExportItem.weight`), not batches: a batch of one workout
/// with three hours of 1 Hz route points weighs as much as a few ordinary batches, and a bound of eight batches
/// let eight such workouts wait at once.
///
/// The batch the writer is on counts against the bound too (`countsReceived`): otherwise one huge item (a
/// flood of beats, a long route's points in memory) was held three times at once, being built, queued and
/// written. There is one consumer, so taking a batch ends the last one, given back or not: a consumer that
/// forgets `giveBack` costs memory accounting, never a deadlock (a test that did hung CI for its 90 minutes).
///
/// Which thread does the work that could be done on either is set per import (`WorkPlacement`).
final class ItemQueue: Sendable {
    private let batches: BoundedChannel<ItemBatch>
    /// Batches the writer is done with, to be emptied (their items released) and reused by the producer. Two
    /// at most wait, so the memory they hold stays small while the producer waits for room.
    private let spent = BoundedChannel<ItemBatch>(capacity: 2)
    let placement: WorkPlacement

    /// Weight of the heaviest batch `giveBack` hands back to the producer: twice an ordinary batch.
    static let heaviestReturned = 2 * 4096

    /// `capacityWeight`: the most weight queued and being written before the producer waits (one batch always
    /// fits when nothing else is held): four ordinary batches waiting while a fifth is written (`BatchCutter`
    /// cuts one once it reaches 4096). Eight batches held ~5 MB more at the peak (measured: docs/performance.md, "Memory at any size and shape").
    init(capacityWeight: Int = 5 * 4096, placement: WorkPlacement = .writerHelps) {
        batches = BoundedChannel(capacity: capacityWeight, countsReceived: true) { $0.weight }
        self.placement = placement
    }

    /// Blocks while the queue is full. Returns false when the consumer has given up (stop producing).
    /// `reusable` receives a spent batch when there is one, emptied here, on the producer's thread.
    func push(_ batch: consuming ItemBatch, reusable: inout ItemBatch?) -> Bool {
        guard batches.send(batch) else { return false }
        // On this thread: this releases up to two batches' worth of items. One is kept for its capacity.
        var finished = spent.drain()
        reusable = finished.popLast()
        reusable?.removeAll()
        finished.removeAll()
        return true
    }

    /// Whether less than one ordinary batch waits for the writer: it will soon have nothing to do, so work that
    /// either thread could do is better left to it (`WorkPlacement.writerSharesRoutes`).
    func writerIsShortOfWork() -> Bool { batches.queuedWeightNow < SampleBatch.fullWeight }

    /// The producer is done, successfully or with `error`.
    func close(error: Error? = nil) {
        batches.finish(throwing: error)
        spent.finish()
    }

    /// Blocks until a batch is available; nil at the end. Throws the producer's error. After `cancel`, waits
    /// for the producer to stop and throws how it stopped (a `CancellationError` when it saw the cancel).
    func pop() throws -> ItemBatch? {
        if let batch = try batches.receive() { return batch }
        if batches.isCancelled { try batches.waitUntilFinished() }
        return nil
    }

    /// The writer is done with `batch`. When the decoder releases batches, it goes back to the producer, which
    /// releases its items the next time it pushes (and refills one); else it is released here. A batch heavier
    /// than `heaviestReturned` (one huge item: a long route, a flood of beats) is released here at once, or it
    /// would be held twice more while the producer builds the next one.
    func giveBack(_ batch: consuming ItemBatch) {
        batches.releaseReceived()
        if placement.decoderReleasesBatches && batch.weight <= Self.heaviestReturned {
            _ = spent.trySend(batch)  // when two already wait (or the producer is done), released here
        }
    }

    /// The consumer failed: wake the producer so it stops.
    func cancel() {
        batches.cancel()
        spent.cancel()
    }
}

/// The producer side's sink: hands the stages' batches to the queue, and collects the items that come one at a
/// time (State of Mind entries, what a stage emits at its end) into batches of their own.
///
/// Batches are cut by weight (`SampleBatch.weight`), not by count: a workout can carry thousands of route points,
/// and 1024 of them in one batch would hold hundreds of megabytes. A unit of weight is roughly one small row
/// (~100 bytes), so a batch holds about half a megabyte and the whole queue a few megabytes. The reader cuts its
/// batches so (`ExportReader.produceBatches`); this sink only weighs them. A batch comes back from the writer
/// emptied with its capacity (`ItemQueue.push`), so the steady state allocates nothing per record.
final class BatchCutter {
    private let queue: ItemQueue
    /// The items written one at a time since the last batch.
    private var pending = ItemBatch()
    /// A batch the writer gave back, to be filled next.
    private var spare: ItemBatch?
    private let batchWeight: Int

    init(queue: ItemQueue, batchWeight: Int = SampleBatch.fullWeight) {
        self.queue = queue
        self.batchWeight = batchWeight
    }

    /// Hands `batch`'s content on; `batch` is left an empty spare with the same vocabulary (with any names the
    /// stages added: the next batch continues its ids).
    func write(_ batch: inout SampleBatch) throws {
        try flush()
        guard batch.hasContent else { return }
        var full = spare ?? ItemBatch()
        spare = nil
        let names = batch.vocabulary
        swap(&full.batch, &batch)
        batch.vocabulary = names
        pending.batch.vocabulary = names
        try send(full)
    }

    func write(handingOver item: consuming ExportItem) throws {
        pending.weight += item.weight
        pending.batch.append(item)
        if pending.weight >= batchWeight { try flush() }
    }

    func flush() throws {
        guard pending.batch.hasContent else { return }
        var next = spare ?? ItemBatch()
        spare = nil
        next.batch.vocabulary = pending.batch.vocabulary
        swap(&next, &pending)
        pending.weight = 0
        try send(next)
    }

    private func send(_ full: consuming ItemBatch) throws {
        full.weight = full.batch.weight
        if queue.placement.decoderFingerprints {
            SampleIdentity.fillIdentity(&full.batch)
            full.hasIdentities = true
        }
        var reusable: ItemBatch?
        guard queue.push(full, reusable: &reusable) else { throw CancellationError() }
        spare = reusable
    }
}
