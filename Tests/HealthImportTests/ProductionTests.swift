import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthStages

/// The decoding side of an import on its own: a reader over a small export, through stages, into a queue that
/// this test empties on its own thread. What arrives, what the summary counts, and how an error or a cancel
/// ends it.
@Suite(.timeLimit(.minutes(1)))
struct ProductionTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"

    static let body = """
         <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pho\u{01}ne" unit="count" startDate="2024-02-01 09:00:00 +0100" endDate="2024-02-01 09:05:00 +0100" value="50"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="61"/>
         <ActivitySummary dateComponents="2024-02-01" activeEnergyBurned="590" activeEnergyBurnedGoal="630" activeEnergyBurnedUnit="kcal"/>
        """

    /// `count` step records, one a minute.
    static func records(_ count: Int) -> String {
        (0..<count).map { index in
            let minute = String(format: "%02d:%02d", (index / 60) % 24, index % 60)
            let day = String(format: "%02d", 1 + index / 1440)
            return #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" "#
                + #"startDate="2024-01-\#(day) \#(minute):00 +0100" endDate="2024-01-\#(day) \#(minute):30 +0100" value="\#(index)"/>"#
        }.joined(separator: "\n")
    }

    /// A Production is used from the thread that runs it, and read once it is done.
    final class Running: @unchecked Sendable {
        let production: Production
        init(_ production: Production) { self.production = production }
    }

    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [(done: UInt64, total: UInt64?)] = []
        func record(_ done: UInt64, _ total: UInt64?) { lock.withLock { calls.append((done, total)) } }
        var all: [(done: UInt64, total: UInt64?)] { lock.withLock { calls } }
    }

    /// One line per item that reached the queue.
    static func describe(_ item: ExportItem) -> String {
        switch item {
        case .header(let locale, _): "header \(locale ?? "-")"  // the locale, then the export date
        case .characteristics: "characteristics"
        case .sample(let sample): "sample \(sample.type) \(sample.source.name) \(sample.value ?? .nan)"
        case .activitySummary(let summary): "activity \(summary.date ?? "-")"
        default: "other"
        }
    }

    /// Runs a Production over `xml` on a thread of its own and pops the queue here; `afterFirstBatch` may
    /// cancel the queue. Returns what arrived, the error the queue ended with, and the summary.
    static func produce(
        _ xml: String, stages: [any ExportStage], capacityWeight: Int = 4 * 4096, progress: Progress? = nil,
        afterFirstBatch: (ItemQueue) -> Void = { _ in }
    ) throws -> (items: [String], batches: Int, error: (any Error)?, summary: ImportSummary, xmlBytes: Int) {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("export.xml", xml)
        let reader = try ExportReader(container: ExportContainer(path: path))
        let production = Running(
            Production(
                reader: reader, stages: stages, progress: progress.map { progress in { progress.record($0, $1) } },
                summary: ImportSummary()))
        let queue = ItemQueue(capacityWeight: capacityWeight)
        let decoder = WorkerThread(name: "decode") { _ in production.production.run(into: queue) }
        var items: [String] = []
        var batches = 0
        var failure: (any Error)?
        do {
            while let batch = try queue.pop() {
                items += batch.items.map(describe)
                batches += 1
                if batches == 1 { afterFirstBatch(queue) }
                // As the writer does: given back, the batch leaves the queue's count at once (else at the next
                // pop) and may travel back to the producer for reuse.
                queue.giveBack(batch)
            }
        } catch {
            failure = error
        }
        try decoder.join()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
        return (items, batches, failure, production.production.summary, size)
    }

    @Test func itemsPassTheStagesAndTheSummaryCountsThem() throws {
        let result = try Self.produce(exportXML(Self.body), stages: [FilterStage(SampleFilter(types: [Self.steps]))])
        #expect(result.error == nil)
        #expect(
            result.items == [
                "header en_US", "header -", "characteristics", "sample \(Self.steps) Watch 100.0",
                "sample \(Self.steps) Phone 50.0",
                "activity 2024-02-01",
            ])
        let summary = result.summary
        // Counted as read, before the stages: the heart rate the filter dropped is a record read.
        #expect(summary.items == ["characteristics": 1, "records": 3, "activity summaries": 1])
        #expect(summary.stages == ["filter": ["records outside the pipeline's filters (not read)": 1]])
        #expect(summary.removedControlCharacters == 1)
        #expect(summary.warnings["XML-illegal control characters removed"] == 1)
        #expect(summary.locale == "en_US")
        #expect(summary.exportDate == "2024-03-01T09:00:00Z")
        #expect(summary.xmlBytes == UInt64(result.xmlBytes))
        #expect(summary.dropped.isEmpty && summary.flagged.isEmpty)
    }

    /// 10,000 records: batches of 4096 rows' weight through a queue that holds one, progress every 4096 items.
    @Test func aLargerExportArrivesInBatchesWithProgress() throws {
        let progress = Progress()
        let result = try Self.produce(
            exportXML(Self.records(10_000)), stages: [], capacityWeight: 4096, progress: progress)
        #expect(result.error == nil)
        #expect(result.batches == 3)
        #expect(result.items.count == 10_002)  // the two headers too (locale, export date)
        #expect(
            result.items.dropFirst(2).enumerated().allSatisfy {
                $0.element == "sample \(Self.steps) Watch \(Double($0.offset))"
            })
        #expect(result.summary.items == ["records": 10_000])
        let calls = progress.all
        #expect(calls.count == 2)
        #expect(calls.map(\.total) == [UInt64(result.xmlBytes), UInt64(result.xmlBytes)])
        #expect(calls.count == 2 && 0 < calls[0].done && calls[0].done < calls[1].done)
        #expect(calls.last.map { $0.done <= UInt64(result.xmlBytes) } == true)
    }

    /// A document that breaks after 5000 records: the consumer gets the full batch sent before, then the
    /// reader's error; the summary counts how far the reading got (libxml2 reports the error of the chunk it
    /// parses before the decoder has handed over that chunk's last records, so not all 5000).
    @Test func aReadingErrorReachesTheConsumerAfterTheBatchesBeforeIt() throws {
        let broken = exportXML(Self.records(5000) + "\n <Record type=\"X\" value=\"1\">\n")
        let result = try Self.produce(broken, stages: [])
        let error = try #require(result.error as? ImportError)
        #expect(error.kind == .input)
        #expect(result.batches == 1)
        #expect(result.items.count == 4096)
        let read = result.summary.items["records"] ?? 0
        #expect(read >= 4094 && read < 5000, "\(read)")
    }

    /// The consumer gives up after the first batch: the producer, waiting for room, stops with a
    /// CancellationError instead of reading on.
    @Test func aCancelledQueueStopsTheProduction() throws {
        let result = try Self.produce(
            exportXML(Self.records(20_000)), stages: [], capacityWeight: 4096, afterFirstBatch: { $0.cancel() })
        #expect(result.error is CancellationError)
        #expect(result.batches == 1)
        // It had read at most the batch popped, one queued and the one it waited to push.
        let read = result.summary.items["records"] ?? 0
        #expect(read >= 4096 && read <= 3 * 4096, "\(read)")
    }
}
