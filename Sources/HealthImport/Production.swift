import Foundation
import HealthModel
import HealthReading

/// The decoding side of an import: reads batches, counts, runs the stages over them, and hands them to the queue.
final class Production {
    let reader: any ItemSource
    let stages: [any ExportStage]
    let progress: ((UInt64, UInt64?) -> Void)?
    var summary: ImportSummary
    var stateOfMindPath: String?

    init(
        reader: any ItemSource, stages: [any ExportStage], progress: ((UInt64, UInt64?) -> Void)?,
        summary: ImportSummary
    ) {
        self.reader = reader
        self.stages = stages
        self.progress = progress
        self.summary = summary
    }

    /// Never throws: a failure closes the queue with its error, which the writing thread rethrows in order.
    func run(into queue: ItemQueue) {
        let output = BatchCutter(queue: queue)
        let chain = StageChain(stages: stages, sink: output)
        var counter = ItemCounter()
        var sinceProgress = 0
        do {
            try reader.produceBatches { batch in
                sinceProgress += batch.rowCount + batch.others.count
                counter.count(batch, into: &summary)
                try chain.push(&batch)
                try output.write(&batch)
                if sinceProgress >= 4096, let progress {
                    sinceProgress = 0
                    let (done, total) = reader.progress
                    progress(done, total)
                }
            }
            var extraWarnings: [String: Int] = [:]
            if let stateOfMindPath {
                try StateOfMindReader.read(path: stateOfMindPath, warnings: &extraWarnings) { entry in
                    let item = ExportItem.stateOfMind(entry)
                    counter.count(item, into: &summary)
                    try chain.push(item)
                }
            }
            try chain.finish()
            try output.flush()
            counter.addCounts(to: &summary)
            summary.xmlBytes = reader.progress.done
            summary.removedControlCharacters = reader.removedControlCharacters
            summary.warnings = reader.warnings.merging(extraWarnings, uniquingKeysWith: +)
            if summary.removedControlCharacters > 0 {
                summary.warnings["XML-illegal control characters removed"] = summary.removedControlCharacters
            }
            for stage in chain.stages {
                if !stage.report.isEmpty { summary.stages[stage.name] = stage.report }
            }
            for (flag, value) in summary.flagged { summary.warnings["records kept but flagged: \(flag)"] = value }
            queue.close()
        } catch {
            counter.addCounts(to: &summary)  // a failed run's record says how far it got
            queue.close(error: error)
        }
    }
}

/// Stages linked one to the next, ending in the sink. Each stage sits in its own box, so a stage can be
/// mutated while the items it emits flow on into the next one.
final class StageChain {
    private final class Link {
        var stage: any ExportStage
        var next: Link?
        init(_ stage: any ExportStage) { self.stage = stage }
    }

    private let first: Link?
    private let sink: BatchCutter

    init(stages: [any ExportStage], sink: BatchCutter) {
        self.sink = sink
        let links = stages.map(Link.init)
        for index in links.indices.dropLast() { links[index].next = links[index + 1] }
        first = links.first
    }

    var stages: [any ExportStage] {
        var result: [any ExportStage] = []
        var link = first
        while let current = link {
            result.append(current.stage)
            link = current.next
        }
        return result
    }

    /// Runs a batch through every stage, in order.
    func push(_ batch: inout SampleBatch) throws {
        var link = first
        while let current = link {
            try current.stage.process(&batch)
            link = current.next
        }
    }

    /// An item that comes alone (a State of Mind entry), through every stage's item form.
    func push(_ item: consuming ExportItem) throws { try push(item, into: first) }

    private func push(_ item: consuming ExportItem, into link: Link?) throws {
        guard let link else {
            try sink.write(handingOver: consume item)
            return
        }
        try link.stage.process(consume item) { try push($0, into: link.next) }
    }

    /// Lets each stage emit what it held back, in order, so later stages still see it.
    func finish() throws {
        var link = first
        while let current = link {
            try current.stage.finish { try push($0, into: current.next) }
            link = current.next
        }
    }
}

/// Counts items by kind and flags for the summary.
///
/// Kinds are counted in an array and added to the summary's `items` once, at the end: a keyed count per
/// item hashed a string for each of millions of records.
struct ItemCounter: Sendable {
    private static let kindNames = [
        "characteristics", "records", "correlations", "workouts", "activity summaries", "clinical records",
        "audiograms", "vision prescriptions", "ECG recordings", "documents", "state of mind entries",
    ]
    private var counts = [Int](repeating: 0, count: kindNames.count)

    mutating func count(_ item: ExportItem, into summary: inout ImportSummary) {
        let kind: Int
        switch item {
        case .header(let locale, let exportDate):
            if let locale { summary.locale = locale }
            if let exportDate {
                summary.exportDate = TimestampFormatting.utcString(exportDate.seconds)
                summary.exportUTCOffset = TimestampFormatting.offsetString(exportDate.offsetSeconds)
            }
            return
        case .characteristics: kind = 0
        case .sample(let sample):
            kind = 1
            if !sample.flags.isEmpty { countFlags(sample.flags, into: &summary) }
        case .correlation(let correlation):
            kind = 2
            if !correlation.flags.isEmpty { countFlags(correlation.flags, into: &summary) }
        case .workout(let workout):
            kind = 3
            if !workout.flags.isEmpty { countFlags(workout.flags, into: &summary) }
        case .activitySummary: kind = 4
        case .clinicalRecord: kind = 5
        case .audiogram: kind = 6
        case .visionPrescription: kind = 7
        case .electrocardiogram: kind = 8
        case .document: kind = 9
        case .stateOfMind: kind = 10
        }
        counts[kind] += 1
    }

    /// Adds the counts so far to `summary.items` and starts again from zero.
    mutating func addCounts(to summary: inout ImportSummary) {
        for (kind, count) in counts.enumerated() where count > 0 {
            summary.items[Self.kindNames[kind], default: 0] += count
        }
        counts = [Int](repeating: 0, count: Self.kindNames.count)
    }

    /// Counts a batch before the stages: its rows as records with their flags, its other items by kind.
    mutating func count(_ batch: SampleBatch, into summary: inout ImportSummary) {
        counts[1] += batch.rowCount
        for flags in batch.flags where flags != 0 { countFlags(SampleFlags(rawValue: flags), into: &summary) }
        for other in batch.others { count(other.item, into: &summary) }
    }

    private func countFlags(_ flags: SampleFlags, into summary: inout ImportSummary) {
        for (flag, name) in SampleFlags.names where flags.contains(flag) { summary.flagged[name, default: 0] += 1 }
    }
}
