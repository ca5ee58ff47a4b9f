import Foundation
import HealthRollups
import Testing

@testable import HealthModel
@testable import HealthStore

/// `RollupWorker`: the engine run on a thread of its own gives the rows the engine gives in line, type by type;
/// the engine's error comes out of `finish`; `cancel` stops it, and what is sent after is dropped.
struct RollupWorkerTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let periods: [RollupPeriod] = [.hour, .day, .week, .month]
    static let base: Int64 = 1_706_745_600  // 2024-02-01T00:00:00Z

    /// Every ten minutes for a month and more, from two sources.
    static func samples(_ count: Int) -> [RollupSample] {
        (0..<count).map { index in
            let start = base + Int64(index) * 600
            return RollupSample(
                start: start, end: start + 300, value: Double(index % 7),
                sourceName: index % 3 == 0 ? "Watch" : "Phone",
                sourceClass: index % 3 == 0 ? 0 : 1)
        }
    }

    static func inline(_ type: String, _ kind: TypeCatalog.SampleKind, _ samples: [RollupSample]) throws -> [RollupRow]
    {
        var engine = RollupEngine(typeIdentifier: type, kind: kind, periods: periods, timeZone: zone)
        var rows: [RollupRow] = []
        for sample in samples { try engine.add(sample) { rows.append($0) } }
        engine.finish { rows.append($0) }
        return rows
    }

    static func send(_ samples: [RollupSample], to worker: RollupWorker) {
        for start in stride(from: 0, to: samples.count, by: RollupWorker.batchSize) {
            worker.add(Array(samples[start..<min(start + RollupWorker.batchSize, samples.count)]))
        }
    }

    @Test func theRowsAreTheEnginesTypeByType() throws {
        let steps = Self.samples(10_000)
        let heart = Self.samples(3000).map { sample in
            var reading = sample
            reading.end = reading.start
            reading.value += 60
            return reading
        }
        let worker = RollupWorker(periods: Self.periods, timeZone: Self.zone)
        worker.begin(type: "HKQuantityTypeIdentifierStepCount", kind: .cumulative, unit: "count", keepFrom: .min)
        Self.send(steps, to: worker)
        worker.end()
        worker.begin(type: "HKQuantityTypeIdentifierHeartRate", kind: .discrete, unit: "count/min", keepFrom: 42)
        Self.send(heart, to: worker)
        worker.end()
        let output = try worker.finish()
        let stepOutput = output.filter { $0.type == "HKQuantityTypeIdentifierStepCount" }
        let heartOutput = output.filter { $0.type == "HKQuantityTypeIdentifierHeartRate" }
        #expect(stepOutput.count + heartOutput.count == output.count)
        #expect(stepOutput.allSatisfy { $0.kind == .cumulative && $0.unit == "count" && $0.keepFrom == .min })
        #expect(heartOutput.allSatisfy { $0.kind == .discrete && $0.unit == "count/min" && $0.keepFrom == 42 })
        #expect(output.allSatisfy { !$0.rows.isEmpty && $0.rows.count <= RollupWorker.rowsPerDelivery })
        let expectedSteps = try Self.inline("HKQuantityTypeIdentifierStepCount", .cumulative, steps)
        #expect(expectedSteps.count > RollupWorker.rowsPerDelivery)  // delivered in parts
        #expect(stepOutput.flatMap(\.rows) == expectedSteps)
        #expect(heartOutput.flatMap(\.rows) == (try Self.inline("HKQuantityTypeIdentifierHeartRate", .discrete, heart)))
    }

    @Test func theEnginesErrorComesOutOfFinish() throws {
        let worker = RollupWorker(periods: Self.periods, timeZone: Self.zone)
        worker.begin(type: "HKQuantityTypeIdentifierStepCount", kind: .cumulative, unit: "count", keepFrom: .min)
        let unsorted = [Self.samples(2)[1], Self.samples(1)[0]]
        worker.add(unsorted)
        // Sent after the failure: dropped, and the sender is never held.
        for _ in 0..<10 { worker.add(Self.samples(3)) }
        worker.end()
        #expect(throws: RollupError.unsorted(previousStart: Self.base + 600, start: Self.base)) { try worker.finish() }
        #expect(worker.hasFailed, "a feeder can see the failure and stop reading")
    }

    @Test func cancelStopsTheWorkerAndDropsWhatComesAfter() throws {
        let worker = RollupWorker(periods: Self.periods, timeZone: Self.zone, outboxRowLimit: 1)
        worker.begin(type: "HKQuantityTypeIdentifierStepCount", kind: .cumulative, unit: "count", keepFrom: .min)
        worker.cancel()
        // Neither a full inbox nor the outbox's limit holds the sender now.
        Self.send(Self.samples(50_000), to: worker)
        worker.end()
        #expect(worker.takeOutput().isEmpty)
        #expect(try worker.finish().isEmpty)
    }
}
