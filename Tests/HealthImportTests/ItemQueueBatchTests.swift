import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel

/// Batches of columns through the queue: their weight, their storage reused, nothing of theirs kept alive.
@Suite(.timeLimit(.minutes(1)))
struct ItemQueueBatchTests {
    static func batch(rows: Int, metadata: Int = 0, others: [ExportItem] = []) -> SampleBatch {
        var items = (0..<rows).map { ItemQueueTests.sample(Double($0), metadata: metadata) }
        items += others
        var batch = SampleBatch(vocabulary: Vocabulary())
        for item in items { batch.append(item) }
        return batch
    }

    /// Rows, their metadata entries and beats, and the other items' `ExportItem.weight`.
    @Test func aBatchWeighsItsRowsEntriesBeatsAndOtherItems() throws {
        var workout = Workout(activityType: "HKWorkoutActivityTypeRunning", source: ItemQueueTests.source, line: 1)
        workout.metadata = [MetadataEntry(key: "k", value: "v")]
        var sample = Sample(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: ItemQueueTests.source, line: 2)
        sample.beats = [HeartbeatReading(bpm: 60, secondOfDay: 1, seconds: nil, rawTime: "1")]
        var batch = Self.batch(
            rows: 3, metadata: 2, others: [.workout(workout), .header(locale: nil, exportDate: nil)])
        batch.append(sample)
        #expect(batch.weight == 3 * 3 + 2 + 1 + 2)
        let queue = ItemQueue(capacityWeight: 100, placement: .decoderHelps)
        let cutter = BatchCutter(queue: queue)
        try cutter.write(&batch)
        queue.close()
        let received = try #require(try queue.pop())
        #expect(received.weight == 14 && received.hasIdentities)
        #expect(received.batch.identity.allSatisfy { $0 != 0 })
        #expect(batch.rowCount == 0 && batch.others.isEmpty)
    }

    /// A batch the writer gives back returns to the cutter with its columns' capacity, emptied, and becomes the
    /// batch the producer fills next: the steady state allocates no columns.
    @Test func spentBatchesComeBackAsTheNextBatchToFill() throws {
        let queue = ItemQueue(capacityWeight: 100_000, placement: .decoderHelps)
        let cutter = BatchCutter(queue: queue)
        var first = Self.batch(rows: 500)
        try cutter.write(&first)
        queue.giveBack(try #require(try queue.pop()))
        var second = Self.batch(rows: 1)
        try cutter.write(&second)  // takes the spent batch back
        var third = Self.batch(rows: 1)
        try cutter.write(&third)  // fills it: `third` is left with its storage
        #expect(third.rowCount == 0 && third.type.capacity >= 500 && third.line.capacity >= 500)
        #expect(third.vocabulary.types.count == 1)
    }

    /// Nothing a batch held stays alive once the writer has given it back and the producer has pushed again:
    /// the items of a reused batch are released, so is a batch that does not come back. (The sources of rows
    /// stay: the vocabulary keeps them for the whole import.)
    @Test(arguments: [WorkPlacement.decoderHelps, .writerHelps])
    func noElementIsKeptAlive(_ placement: WorkPlacement) throws {
        weak var watched: SampleSource?
        let queue = ItemQueue(capacityWeight: 100_000, placement: placement)
        let cutter = BatchCutter(queue: queue)
        do {
            let source = SampleSource(id: 9, name: "gone", version: nil, device: nil)
            watched = source
            var batch = Self.batch(rows: 2, others: [.workout(Workout(activityType: "Run", source: source, line: 3))])
            try cutter.write(&batch)
        }
        queue.giveBack(try #require(try queue.pop()))
        var next = Self.batch(rows: 1)
        try cutter.write(&next)
        var another = Self.batch(rows: 1)
        try cutter.write(&another)
        queue.close()
        while let batch = try queue.pop() { queue.giveBack(batch) }
        #expect(watched == nil)
    }
}
