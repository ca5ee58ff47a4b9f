import Foundation
import HealthModel

/// Items cut into one hand-over between the threads, with the fingerprints of its samples when the decoding
/// thread computed them (`WorkPlacement.decoderFingerprints`).
struct ItemBatch {
    var items: [ExportItem] = []
    /// `SampleIdentity.fingerprint` of each `.sample` item, by index (0 for other items); empty when the
    /// writing thread computes them.
    var identities: [Int64] = []
    var weight = 0

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        identities.removeAll(keepingCapacity: true)
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

/// The producer side's sink: collects items into batches for the queue.
///
/// Batches are cut by weight, not by item count: a workout can carry thousands of route points, and 1024 of
/// them in one batch would hold hundreds of megabytes. A unit of weight is roughly one small row (~100 bytes),
/// so a batch holds about half a megabyte and the whole queue a few megabytes.
final class BatchCutter {
    private let queue: ItemQueue
    private var batch = ItemBatch()
    private let batchWeight: Int

    init(queue: ItemQueue, batchWeight: Int = 4096) {
        self.queue = queue
        self.batchWeight = batchWeight
    }

    func write(handingOver item: consuming ExportItem) throws {
        batch.weight += item.weight
        if queue.placement.decoderFingerprints {
            if case .sample(let sample) = item {
                batch.identities.append(SampleIdentity.fingerprint(sample))
            } else {
                batch.identities.append(0)
            }
        }
        batch.items.append(consume item)
        if batch.weight >= batchWeight { try flush() }
    }

    func flush() throws {
        guard !batch.items.isEmpty else { return }
        var reusable: ItemBatch?
        let full = batch
        batch = ItemBatch()
        guard queue.push(full, reusable: &reusable) else { throw CancellationError() }
        if let reusable { batch = reusable } else { batch.items.reserveCapacity(1024) }
    }
}

extension ExportItem {
    /// About how many small rows the item becomes (see `BatchCutter`): the memory it holds. A route whose points
    /// are in a temporary file (`RoutePointBuffer`) weighs only those still in memory, plus 1024 for its open
    /// file, so that few such files are open at once.
    var weight: Int {
        switch self {
        case .sample(let sample): return 1 + sample.metadata.count + sample.beats.count
        case .correlation(let correlation): return 1 + correlation.metadata.count + correlation.children.count
        case .workout(let workout):
            return 1 + workout.metadata.count + workout.events.count + workout.statistics.count
                + workout.routes.reduce(0) { $0 + 1 + $1.points.residentCount + ($1.points.isSpilled ? 1024 : 0) }
        case .electrocardiogram(let recording): return 1 + recording.samples.count / 25
        case .document: return 1  // its bytes stay in the file until the sink streams them
        case .clinicalRecord(let record): return 1 + (record.resourceJSON?.utf8.count ?? 0) / 100
        default: return 1
        }
    }
}
