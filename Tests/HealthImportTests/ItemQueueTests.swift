import Foundation
import Testing

@testable import HealthImport
@testable import HealthModel

/// The hand-over between the decoding and the writing thread on its own: bounded by weight, batches that travel
/// back for reuse, the producer's error reaching the consumer, and a cancel that frees a waiting producer.
/// Threads meet through semaphores; nothing sleeps and nothing is timed (a queue that hangs fails the time limit).
@Suite(.timeLimit(.minutes(1)))
struct ItemQueueTests {
    /// What both threads did, in the order they did it.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        private var counts: [String: Int] = [:]

        func append(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
        func increment(_ key: String) { lock.withLock { counts[key, default: 0] += 1 } }
        func count(_ key: String) -> Int { lock.withLock { counts[key, default: 0] } }
    }

    struct Failure: Error, Equatable { let reason: String }

    /// One object per source id, as a reader gives them (a batch registers sources by id).
    static let source = SampleSource(id: 1, name: "S", version: nil, device: nil)

    static func sample(_ value: Double, metadata: Int = 0) -> ExportItem {
        var sample = Sample(type: "HKQuantityTypeIdentifierStepCount", source: source, line: Int32(value))
        sample.value = value
        sample.metadata = (0..<metadata).map { MetadataEntry(key: "k\($0)", value: "v") }
        return .sample(sample)
    }

    /// A batch of `count` samples numbered from `first`, weighing `weight` (the queue counts what it is told).
    static func batch(_ first: Int, count: Int = 1, weight: Int) -> ItemBatch {
        var batch = ItemBatch(items: (first..<first + count).map { sample(Double($0)) })
        batch.weight = weight
        return batch
    }

    static func values(_ batch: ItemBatch?) -> [Double] {
        (batch?.items ?? []).compactMap { if case .sample(let s) = $0 { s.value } else { nil } }
    }

    /// Runs `body` on a thread of its own; the returned semaphore is signalled when it has returned.
    static func thread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let finished = DispatchSemaphore(value: 0)
        Thread {
            body()
            finished.signal()
        }.start()
        return finished
    }

    /// Capacity 10, batches of weight 4: two fit, counting the one being written. The producer pushes 40 and
    /// counts each push once it has returned; the consumer starts once the producer is about to push the third,
    /// so it finds exactly two pushed (the third cannot return before a pop and a give-back), and after each pop,
    /// while it still holds the batch, it finds the producer at most one ahead. Everything arrives, in order.
    @Test func aFullQueueHoldsTheProducerBack() throws {
        let queue = ItemQueue(capacityWeight: 10)
        let log = Log()
        let aboutToPushTheThird = DispatchSemaphore(value: 0)
        let producer = Self.thread {
            for index in 1...40 {
                if index == 3 { aboutToPushTheThird.signal() }
                var reusable: ItemBatch?
                let accepted = queue.push(Self.batch(index, weight: 4), reusable: &reusable)
                log.append("pushed \(index) \(accepted)")
                log.increment("pushed")
            }
            queue.close()
        }
        aboutToPushTheThird.wait()
        let pushedBeforeThePop = log.count("pushed")
        var received: [Double] = []
        var aheadAtEachPop: [Int] = []
        while let batch = try queue.pop() {
            received += Self.values(batch)
            aheadAtEachPop.append(log.count("pushed") - received.count)
            queue.giveBack(batch)
        }
        producer.wait()
        #expect(pushedBeforeThePop == 2)
        #expect(received == (1...40).map(Double.init))
        #expect(log.all == (1...40).map { "pushed \($0) true" })
        // The batch being written holds its place until it is given back: one more at most waits behind it.
        #expect(aheadAtEachPop.allSatisfy { $0 <= 1 }, "\(aheadAtEachPop)")
        #expect(aheadAtEachPop.count == 40 && log.count("pushed") == 40)
    }

    /// A consumer that never gives its batches back still gets them all: taking the next batch ends the last
    /// one (with capacity 10 and batches of 4, counting every batch ever taken would stop the producer at the
    /// third push for good, as a test's consumer once did to CI).
    @Test func aConsumerThatNeverGivesBackStillReceivesEverything() throws {
        let queue = ItemQueue(capacityWeight: 10)
        let producer = Self.thread {
            for index in 1...40 {
                var reusable: ItemBatch?
                _ = queue.push(Self.batch(index, weight: 4), reusable: &reusable)
            }
            queue.close()
        }
        var received: [Double] = []
        while let batch = try queue.pop() { received += Self.values(batch) }
        producer.wait()
        #expect(received == (1...40).map(Double.init))
    }

    /// One batch always fits, however heavy, when nothing else waits (a route of three hours at 1 Hz).
    @Test func aBatchHeavierThanTheCapacityPassesAlone() throws {
        let queue = ItemQueue(capacityWeight: 10)
        var reusable: ItemBatch?
        #expect(queue.push(Self.batch(1, count: 3, weight: 50), reusable: &reusable))
        #expect(reusable == nil)
        queue.close()
        let batch = try queue.pop()
        #expect(Self.values(batch) == [1, 2, 3])
        #expect(batch?.weight == 50)
        #expect(try queue.pop() == nil)
    }

    /// When the decoder helps (a first import), a batch the writer is done with comes back to the producer with its next
    /// push, emptied but with its capacity, and at most two wait; otherwise none comes back.
    @Test func spentBatchesTravelBackForReuse() throws {
        let queue = ItemQueue(capacityWeight: 100, placement: .decoderHelps)
        var reusable: ItemBatch?
        #expect(queue.push(Self.batch(1, count: 500, weight: 5), reusable: &reusable))
        #expect(reusable == nil)
        let first = try #require(try queue.pop())
        #expect(first.items.count == 500)
        queue.giveBack(first)
        #expect(queue.push(Self.batch(501, weight: 1), reusable: &reusable))
        let returned = try #require(reusable)
        #expect(returned.items.isEmpty && returned.identities.isEmpty && returned.weight == 0)
        #expect(returned.batch.type.capacity >= 500)  // the rows' columns keep their capacity

        // Three given back: two are kept, one of them is handed out, the other released.
        #expect(queue.push(Self.batch(600, weight: 1), reusable: &reusable))
        #expect(queue.push(Self.batch(601, weight: 1), reusable: &reusable))
        var taken: [ItemBatch] = []
        for _ in 0..<3 { taken.append(try #require(try queue.pop())) }
        for batch in taken { queue.giveBack(batch) }
        reusable = nil
        #expect(queue.push(Self.batch(502, weight: 1), reusable: &reusable))
        #expect(reusable?.items.isEmpty == true)
        reusable = nil
        #expect(queue.push(Self.batch(503, weight: 1), reusable: &reusable))
        #expect(reusable == nil)

        // A batch heavier than `heaviestReturned` (one huge item) is released by the writer, not handed back.
        let heavy = ItemQueue(capacityWeight: 100, placement: .decoderHelps)
        #expect(heavy.push(Self.batch(1, weight: ItemQueue.heaviestReturned + 1), reusable: &reusable))
        heavy.giveBack(try #require(try heavy.pop()))
        reusable = nil
        #expect(heavy.push(Self.batch(2, weight: 1), reusable: &reusable))
        #expect(reusable == nil)

        let plain = ItemQueue(capacityWeight: 100)
        #expect(plain.push(Self.batch(1, weight: 1), reusable: &reusable))
        plain.giveBack(try #require(try plain.pop()))
        #expect(plain.push(Self.batch(2, weight: 1), reusable: &reusable))
        #expect(reusable == nil)
    }

    /// Every batch pushed before `close(error:)` arrives, then the consumer gets the producer's error; a plain
    /// `close()` ends with nil. The consumer waits on another thread from before the producer starts.
    @Test func theProducersErrorReachesTheConsumerAfterItsBatches() throws {
        let queue = ItemQueue(capacityWeight: 10)
        let consumerWaiting = DispatchSemaphore(value: 0)
        let log = Log()
        let consumer = Self.thread {
            consumerWaiting.signal()
            do {
                while let batch = try queue.pop() {
                    log.append("batch \(Self.values(batch))")
                    queue.giveBack(batch)
                }
                log.append("end")
            } catch let error as Failure {
                log.append("error \(error.reason)")
            } catch {
                log.append("unexpected \(error)")
            }
        }
        consumerWaiting.wait()
        var reusable: ItemBatch?
        #expect(queue.push(Self.batch(1, count: 2, weight: 2), reusable: &reusable))
        #expect(queue.push(Self.batch(3, weight: 2), reusable: &reusable))
        queue.close(error: Failure(reason: "line 7: not XML"))
        consumer.wait()
        #expect(log.all == ["batch [1.0, 2.0]", "batch [3.0]", "error line 7: not XML"])
        // The error stays: a second pop throws it again.
        #expect(throws: Failure(reason: "line 7: not XML")) { _ = try queue.pop() }

        let clean = ItemQueue()
        #expect(clean.push(Self.batch(1, weight: 1), reusable: &reusable))
        clean.close()
        #expect(Self.values(try clean.pop()) == [1])
        #expect(try clean.pop() == nil)
    }

    /// A producer waiting for room is woken by `cancel()` and told to stop (push returns false); so is every
    /// push after it.
    @Test func cancelFreesAWaitingProducer() throws {
        let queue = ItemQueue(capacityWeight: 10)
        var reusable: ItemBatch?
        #expect(queue.push(Self.batch(1, weight: 8), reusable: &reusable))
        let log = Log()
        let aboutToPush = DispatchSemaphore(value: 0)
        let producer = Self.thread {
            var reusable: ItemBatch?
            aboutToPush.signal()
            // 8 + 8 > 10: waits for a pop that never comes.
            log.append("push returned \(queue.push(Self.batch(2, weight: 8), reusable: &reusable))")
        }
        aboutToPush.wait()
        queue.cancel()
        producer.wait()
        #expect(log.all == ["push returned false"])
        #expect(!queue.push(Self.batch(3, weight: 1), reusable: &reusable))
        #expect(reusable == nil)
    }

    /// The producer's sink cuts batches once they reach their weight (an item weighs 1 + its metadata), and,
    /// when the decoder helps, fingerprints each sample (0 for other items).
    @Test func queueSinkCutsBatchesByWeight() throws {
        let queue = ItemQueue(capacityWeight: 1000, placement: .decoderHelps)
        let sink = BatchCutter(queue: queue, batchWeight: 5)
        for index in 1...4 { try sink.write(handingOver: Self.sample(Double(index), metadata: index == 2 ? 3 : 0)) }
        try sink.write(handingOver: .header(locale: "en_US", exportDate: nil))
        try sink.write(handingOver: Self.sample(5))
        try sink.flush()
        try sink.flush()  // nothing left: no empty batch
        queue.close()
        var batches: [ItemBatch] = []
        while let batch = try queue.pop() { batches.append(batch) }
        // 1 + 4 (weight 5: cut), then 1 + 1 + 1 + 1 flushed at the end.
        #expect(batches.map(\.weight) == [5, 4])
        #expect(batches.map(\.items.count) == [2, 4])
        guard case .sample(let first) = Self.sample(1) else { return }
        #expect(batches[0].identities == [SampleIdentity.fingerprint(first), batches[0].identities[1]])
        #expect(batches[0].identities.allSatisfy { $0 != 0 })
        #expect(batches[1].identities.count == 4 && batches[1].identities[2] == 0)
        #expect(batches[1].identities.filter { $0 == 0 }.count == 1)

        let plain = ItemQueue()
        let plainSink = BatchCutter(queue: plain, batchWeight: 2)
        for index in 1...3 { try plainSink.write(handingOver: Self.sample(Double(index))) }
        try plainSink.flush()
        plain.close()
        var weights: [Int] = []
        while let batch = try plain.pop() {
            #expect(batch.identities.isEmpty)
            weights.append(batch.weight)
        }
        #expect(weights == [2, 1])
    }

    /// A sink whose queue was cancelled stops the producer with a CancellationError.
    @Test func aCancelledQueueStopsTheSink() throws {
        let queue = ItemQueue()
        queue.cancel()
        let sink = BatchCutter(queue: queue, batchWeight: 1)
        #expect(throws: CancellationError.self) { try sink.write(handingOver: Self.sample(1)) }
    }
}
