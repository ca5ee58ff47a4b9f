import Foundation
import HealthTestSupport
import SampleExports
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthStages

/// The batch path against the item path on generated exports: the reader's batches hold the items `next()`
/// gives, in order, cut where their weight reaches `SampleBatch.fullWeight`; the unit and filter stages over a
/// batch give what their item forms give, field for field, with the same reports.
struct BatchPathTests {
    /// The item form over every item, or the batch form over every batch, of a fresh reader of `path`.
    static func run(_ path: String, stages: () -> [any ExportStage], batches: Bool) throws -> (
        items: [ExportItem], reports: [[String: Int]], weights: [(whole: Int, last: Int)]
    ) {
        var stages = stages()
        let reader = try ExportReader(container: ExportContainer(path: path))
        var items: [ExportItem] = []
        var weights: [(whole: Int, last: Int)] = []
        if batches {
            try reader.produceBatches { batch in
                let order = batch.items
                weights.append((batch.weight, order.last.map(Self.weight) ?? 0))
                for index in stages.indices { try stages[index].process(&batch) }
                items += batch.items
            }
        } else {
            while let item = try reader.next() {
                var passed = [item]
                for index in stages.indices {
                    var next: [ExportItem] = []
                    for item in passed { try stages[index].process(item) { next.append($0) } }
                    passed = next
                }
                items += passed
            }
        }
        return (items, stages.map(\.report), weights)
    }

    static func weight(_ item: ExportItem) -> Int { item.weight }

    /// An item that is not a sample, every field (samples are compared field by field), without what differs
    /// between two readers of one file: addresses and descriptors of open side files.
    static func describe(_ item: ExportItem) -> String {
        var text = ""
        dump(item, to: &text)
        return text.split(separator: "\n")
            .filter { !$0.contains("0x") && !$0.contains("descriptor:") && !$0.contains("pointerValue:") }
            .joined(separator: "\n")
    }

    static func expectEqual(
        _ found: [ExportItem], _ expected: [ExportItem], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(found.count == expected.count, sourceLocation: sourceLocation)
        for (index, (left, right)) in zip(found, expected).enumerated() {
            if case .sample(let sample) = left, case .sample(let other) = right {
                // Two readers: two sets of source objects, compared by their fields.
                let report = differences(sample, other).filter { !$0.hasPrefix("source:") }
                #expect(report.isEmpty, "item \(index): \(report)", sourceLocation: sourceLocation)
                #expect(
                    sample.source.id == other.source.id && sample.source.name == other.source.name
                        && sample.source.version == other.source.version
                        && sample.source.device?.key == other.source.device?.key, sourceLocation: sourceLocation)
            } else {
                if Self.describe(left) != Self.describe(right) {
                    try? Self.describe(left).write(toFile: "/tmp/stg-left.txt", atomically: true, encoding: .utf8)
                    try? Self.describe(right).write(toFile: "/tmp/stg-right.txt", atomically: true, encoding: .utf8)
                }
                #expect(Self.describe(left) == Self.describe(right), "item \(index)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: ExportProfile.allCases)
    func theBatchFormsEqualTheItemForms(_ profile: ExportProfile) throws {
        let path = try GeneratedExport.realistic(profile).path
        let units = { [UnitStage(), ValenceStage()] as [any ExportStage] }
        let byItem = try Self.run(path, stages: units, batches: false)
        let byBatch = try Self.run(path, stages: units, batches: true)
        Self.expectEqual(byBatch.items, byItem.items)
        #expect(byBatch.reports == byItem.reports)
        #expect(!(byItem.reports.first ?? [:]).isEmpty)

        // A filter on some types, one source and a start range, then the units.
        let samples = byItem.items.samples
        let types = Set(samples.map(\.type).prefix(400))
        let starts = samples.compactMap(\.startDate?.seconds).sorted()
        let filter = SampleFilter(
            types: types.union([TypeCatalog.workoutType]), sources: Set(samples.prefix(1).map(\.source.name)),
            from: starts[starts.count / 4], to: starts[starts.count * 3 / 4])
        let filtered = { [FilterStage(filter), UnitStage()] as [any ExportStage] }
        let filteredByItem = try Self.run(path, stages: filtered, batches: false)
        let filteredByBatch = try Self.run(path, stages: filtered, batches: true)
        Self.expectEqual(filteredByBatch.items, filteredByItem.items)
        #expect(filteredByBatch.reports == filteredByItem.reports)
        #expect((filteredByItem.reports[0].values.first ?? 0) > 0)
        #expect(filteredByItem.items.count < byItem.items.count / 2)
    }

    /// Batches are cut in document order where their weight reaches 4096: every batch but the last weighs at least
    /// that, and less without its last item (as items were cut one by one).
    @Test func theReaderCutsBatchesByWeight() throws {
        let path = try GeneratedExport.days(12, seed: 5).path
        let run = try Self.run(path, stages: { [] }, batches: true)
        #expect(run.weights.count >= 3)
        for (index, weight) in run.weights.enumerated() where index < run.weights.count - 1 {
            #expect(weight.whole >= SampleBatch.fullWeight && weight.whole - weight.last < SampleBatch.fullWeight)
        }
        let byItem = try Self.run(path, stages: { [] }, batches: false)
        Self.expectEqual(run.items, byItem.items)
    }
}
