import Foundation
import HealthModel

/// Rolls the samples of one type up into hourly, daily, weekly and monthly statistics in one streaming pass.
///
/// Feed samples sorted by start with `add`, then call `finish`. A bucket's rows are emitted as soon as the
/// sweep has passed its end, so memory holds only the samples still active and the buckets still open,
/// whatever the length of the history. Rows of one period come in ascending start; periods interleave.
/// The rules (source resolution, where a duration is filed) are in docs/rollups.md.
public struct RollupEngine: Sendable {
    public let typeIdentifier: String
    public let kind: TypeCatalog.SampleKind
    public let periods: [RollupPeriod]

    /// A sample with a duration that the sweep has reached and not yet passed.
    private struct Active {
        var end: Int64
        /// Value per second (cumulative only).
        var rate: Double
        var source: Int32
        var value: Int32
    }

    private var stores: [RollupBucketStore]
    private var sources = RollupSourceTable()
    private var values: RollupValueTable
    private var active: [Active] = []
    /// Instantaneous samples at `pendingInstant`, held until every sample starting there has arrived.
    private var pending: [(source: Int32, value: Double)] = []
    private var pendingInstant = Int64.min
    /// Everything before this instant has been accounted for.
    private var now = Int64.min
    private var lastStart = Int64.min
    private var isFinished = false
    /// Reused per stretch: (value id, latest end) of the winning source's active samples.
    private var stretchValues: [(value: Int32, end: Int64)] = []

    public init(
        typeIdentifier: String, kind: TypeCatalog.SampleKind, periods: [RollupPeriod] = RollupPeriod.allCases,
        timeZone: TimeZone
    ) {
        self.typeIdentifier = typeIdentifier
        self.kind = kind
        // A period asked for twice would emit every row twice.
        let periods = periods.reduce(into: [RollupPeriod]()) { if !$0.contains($1) { $0.append($1) } }
        self.periods = periods
        let byNight = kind == .category && Self.nightTypes.contains(typeIdentifier)
        stores = periods.map { RollupBucketStore(period: $0, timeZone: timeZone, filesByNight: byNight) }
        values = RollupValueTable(typeIdentifier: typeIdentifier)
    }

    /// Category types whose samples make up nights: filed under the day the night ends (`RollupBucketStore`).
    static let nightTypes: Set = ["HKCategoryTypeIdentifierSleepAnalysis"]

    /// Adds the next sample (not before the previous one's start) and emits the buckets it closes.
    public mutating func add(_ sample: RollupSample, emit: (RollupRow) -> Void) throws(RollupError) {
        guard !isFinished else { throw .finished }
        guard sample.start >= lastStart else { throw .unsorted(previousStart: lastStart, start: sample.start) }
        lastStart = sample.start
        let source = sources.id(name: sample.sourceName, sourceClass: sample.sourceClass)
        if kind == .discrete {
            now = sample.start
            finalizeBuckets(emit)
            for index in stores.indices { stores[index].addReading(sample.value, at: sample.start, source: source) }
            return
        }
        if !pending.isEmpty, sample.start > pendingInstant { resolvePending() }
        advance(to: sample.start)
        finalizeBuckets(emit)
        if sample.end > sample.start {
            let rate = kind == .cumulative ? sample.value / Double(sample.end - sample.start) : 0
            let value = kind == .category ? values.id(sample.category) : 0
            active.append(Active(end: sample.end, rate: rate, source: source, value: value))
        } else if kind == .cumulative {
            pendingInstant = sample.start
            pending.append((source, sample.value))
        }
        // An instantaneous category sample lasts no time: it adds no hours.
    }

    /// Accounts for the samples still active and emits every remaining bucket.
    public mutating func finish(emit: (RollupRow) -> Void) {
        guard !isFinished else { return }
        isFinished = true
        if !pending.isEmpty { resolvePending() }
        advance(to: .max)
        now = .max
        finalizeBuckets(emit)
    }

    /// Rolls up a whole sequence; for tests and small inputs.
    public static func rollUp(
        _ samples: some Sequence<RollupSample>, typeIdentifier: String,
        kind: TypeCatalog.SampleKind, periods: [RollupPeriod] = RollupPeriod.allCases,
        timeZone: TimeZone
    ) throws(RollupError) -> [RollupRow] {
        var engine = RollupEngine(typeIdentifier: typeIdentifier, kind: kind, periods: periods, timeZone: timeZone)
        var rows: [RollupRow] = []
        for sample in samples { try engine.add(sample) { rows.append($0) } }
        engine.finish { rows.append($0) }
        return rows
    }

    /// Buckets held open across all periods (the memory bound, for tests).
    var openBucketCount: Int { stores.reduce(0) { $0 + $1.open.count } }

    // MARK: - The sweep

    /// Accounts for every stretch between `now` and `instant`, dropping the samples that end on the way.
    private mutating func advance(to instant: Int64) {
        while !active.isEmpty {
            var nextEnd = Int64.max
            for sample in active where sample.end < nextEnd { nextEnd = sample.end }
            if nextEnd > instant {
                if instant > now { account(from: now, to: instant) }
                break
            }
            if nextEnd > now { account(from: now, to: nextEnd) }
            now = nextEnd
            active.removeAll { $0.end <= nextEnd }
        }
        if instant > now { now = instant }
    }

    /// The best-ranked source among the active samples.
    @inline(__always)
    private func winner() -> Int32 {
        var best = active[0].source
        for sample in active where sources.rank[Int(sample.source)] < sources.rank[Int(best)] { best = sample.source }
        return best
    }

    /// One stretch with no sample boundary inside: only the best-ranked source covering it counts.
    private mutating func account(from start: Int64, to end: Int64) {
        let best = winner()
        if kind == .cumulative {
            var rate = 0.0
            for sample in active where sample.source == best { rate += sample.rate }
            for index in stores.indices { stores[index].spread(rate: rate, from: start, to: end, source: best) }
            return
        }
        // Category: the winner's values each count the stretch once, however many of its samples overlap.
        stretchValues.removeAll(keepingCapacity: true)
        for sample in active where sample.source == best {
            if let known = stretchValues.firstIndex(where: { $0.value == sample.value }) {
                stretchValues[known].end = max(stretchValues[known].end, sample.end)
            } else {
                stretchValues.append((sample.value, sample.end))
            }
        }
        for index in stores.indices {
            for entry in stretchValues {
                if stores[index].period == .hour {
                    stores[index].spreadSeconds(from: start, to: end, value: entry.value, source: best)
                } else {
                    stores[index].fileSeconds(end - start, sampleEnd: entry.end, value: entry.value, source: best)
                }
            }
        }
    }

    /// Instantaneous samples count whole, unless a better-ranked source covers their instant with a sample
    /// of some duration; of several sources at one instant only the best-ranked counts.
    private mutating func resolvePending() {
        var best = pending[0].source
        for entry in pending where sources.rank[Int(entry.source)] < sources.rank[Int(best)] { best = entry.source }
        let covered = !active.isEmpty && sources.rank[Int(winner())] < sources.rank[Int(best)]
        if !covered {
            var total = CompensatedSum()
            for entry in pending where entry.source == best { total.add(entry.value) }
            for index in stores.indices { stores[index].add(total.value, at: pendingInstant, source: best) }
        }
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: - Rows

    @inline(__always)
    private mutating func finalizeBuckets(_ emit: (RollupRow) -> Void) {
        // Called per sample; most calls close nothing.
        guard stores.contains(where: { ($0.open.first?.end ?? .max) <= now }) else { return }
        // Copies (of references, not of the tables) so the closure does not read `self` while a store changes.
        let (kind, sources, values) = (kind, sources, values)
        for index in stores.indices {
            let clock = stores[index].clock
            stores[index].finalize(endingBy: now) { bucket in
                Self.emitRows(of: bucket, clock: clock, kind: kind, sources: sources, values: values, emit)
            }
        }
    }

    private static func emitRows(
        of bucket: RollupBucket, clock: PeriodClock, kind: TypeCatalog.SampleKind,
        sources: RollupSourceTable, values: RollupValueTable, _ emit: (RollupRow) -> Void
    ) {
        let label = clock.label(start: bucket.start)
        let names = kind == .category ? [] : sources.sortedNames(bucket.sources)
        func row(_ statistic: String, _ value: Double) {
            emit(
                RollupRow(
                    period: clock.period, label: label, periodStart: bucket.start, statistic: statistic,
                    value: value, sources: names))
        }
        switch kind {
        case .cumulative:
            row(RollupStatistic.sum, bucket.sum.value)
        case .discrete:
            row(RollupStatistic.average, bucket.sum.value / Double(bucket.count))
            row(RollupStatistic.minimum, bucket.minimum)
            row(RollupStatistic.maximum, bucket.maximum)
            row(RollupStatistic.count, Double(bucket.count))
        case .category:
            let filled = bucket.seconds.indices.filter { bucket.seconds[$0] > 0 }
            for value in filled.sorted(by: { values.statistics[$0] < values.statistics[$1] }) {
                emit(
                    RollupRow(
                        period: clock.period, label: label, periodStart: bucket.start,
                        statistic: values.statistics[value], value: Double(bucket.seconds[value]) / 3600,
                        sources: sources.sortedNames(bucket.valueSources[value])))
            }
        }
    }
}
