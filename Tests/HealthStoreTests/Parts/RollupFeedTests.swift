import Foundation
import HealthRollups
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `RollupFeed`: a type's usable samples read from the database in start order and handed to a worker in
/// batches, the caller called after each full batch; the rows are the engine's over the same samples.
struct RollupFeedTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    @Test func theSamplesOfAJobReachTheWorkerInBatches() throws {
        let rig = try WriterRig(timeZone: Self.zone)
        let base: Int64 = 1_706_745_600  // 2024-02-01T00:00:00Z
        // Written out of order; more than one batch.
        let count = RollupWorker.batchSize + 500
        let written = (0..<count).reversed().map { index in
            RollupSample(
                start: base + Int64(index) * 600, end: base + Int64(index) * 600 + 300, value: Double(index % 9),
                sourceName: "Phone", sourceClass: 0)
        }
        for (identity, sample) in written.enumerated() {
            var steps = StoreFixture.sample(start: nil, value: sample.value)
            steps.startDate = Timestamp(seconds: sample.start, offsetSeconds: 3600)
            steps.endDate = Timestamp(seconds: sample.end, offsetSeconds: 3600)
            _ = try rig.samples.write(steps, identity: Int64(identity), into: &rig.report)
        }
        // A sample flagged unusable (an end before its start) is left out.
        var broken = StoreFixture.sample(start: "2024-02-01 08:00:00 +0100", value: 1000)
        broken.flags = .badValue
        _ = try rig.samples.write(broken, identity: -1, into: &rig.report)
        let options = RollupOptions()
        let feed = try RollupFeed(rig.connection, options: options, sources: [1: (name: "Phone", model: nil)])
        let worker = RollupWorker(periods: options.periods, timeZone: Self.zone)
        var batches = 0
        let job = RollupJob(table: "cumulative_samples", kind: .cumulative, type: "HKQuantityTypeIdentifierStepCount")
        try feed.feed(job, to: worker) { batches += 1 }
        let nothing = RollupJob(
            table: "cumulative_samples", kind: .cumulative, type: "HKQuantityTypeIdentifierDistanceCycling")
        try feed.feed(nothing, to: worker) { batches += 1 }
        let output = try worker.finish()
        #expect(batches == 1)
        #expect(output.allSatisfy { $0.type == job.type && $0.unit == "count" })

        var engine = RollupEngine(
            typeIdentifier: job.type, kind: .cumulative, periods: options.periods, timeZone: Self.zone)
        var expected: [RollupRow] = []
        let sourceClass = options.priority.sourceClass(sourceName: "Phone", deviceModel: nil, userEntered: false)
        for sample in written.reversed() {
            var usable = sample
            usable.sourceClass = sourceClass
            try engine.add(usable) { expected.append($0) }
        }
        engine.finish { expected.append($0) }
        #expect(!expected.isEmpty)
        #expect(output.flatMap(\.rows) == expected)
    }
}
