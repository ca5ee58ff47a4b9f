import HealthModel

/// Keeps only the samples, correlations and workouts a pipeline asks for: some types, some sources, a
/// range of instants. Everything else (characteristics, activity summaries, ECGs, …) passes. What it drops is
/// counted, and the sink leaves the database's rows outside the filter alone (`SampleFilter.contains`), so
/// a filtered re-import never reads as deletions.
public struct FilterStage: ExportStage {
    public let name = "filter"
    public let filter: SampleFilter
    public private(set) var report: [String: Int] = [:]

    public init(_ filter: SampleFilter) { self.filter = filter }

    public mutating func process(_ item: consuming ExportItem, emit: (consuming ExportItem) throws -> Void) throws {
        let kept: Bool
        switch item {
        case .sample(let sample):
            kept = filter.contains(type: sample.type, source: sample.source.name, start: sample.startDate?.seconds)
        case .correlation(let correlation):
            kept = filter.contains(
                type: correlation.type, source: correlation.source.name, start: correlation.startDate?.seconds)
        case .workout(let workout):
            kept = filter.contains(
                type: TypeCatalog.workoutType, source: workout.source.name, start: workout.startDate?.seconds)
        default:
            kept = true
        }
        if kept {
            try emit(item)
        } else {
            report["records outside the pipeline's filters (not read)", default: 0] += 1
        }
    }

    /// The batch form: records kept by a mask (the filter asked once per type and source id of the batch, the
    /// start per row), the other items through the item form.
    public mutating func process(_ batch: inout SampleBatch) throws {
        try batch.processOthers { try process($0, emit: $1) }
        guard batch.rowCount > 0 else { return }
        var byType: [UInt32: Bool] = [:]
        var bySource: [UInt32: Bool] = [:]
        var keep = [Bool](repeating: true, count: batch.rowCount)
        var dropped = 0
        let instants = SampleFilter(from: filter.from, to: filter.to)
        for row in 0..<batch.rowCount {
            let type = batch.type[row]
            let typeKept =
                byType[type]
                ?? {
                    let kept = filter.types?.contains(batch.vocabulary.types.string(type)) ?? true
                    byType[type] = kept
                    return kept
                }()
            let source = batch.source[row]
            let sourceKept =
                bySource[source]
                ?? {
                    let kept = filter.sources?.contains(batch.vocabulary.source(source).name) ?? true
                    bySource[source] = kept
                    return kept
                }()
            let start = batch.presence[row].contains(.start) ? batch.start[row] : nil
            // Types and sources decided above; the instants by the filter itself (the same rule as the item form).
            keep[row] =
                typeKept && sourceKept
                && instants.contains(type: "", source: "", start: start)
            if !keep[row] { dropped += 1 }
        }
        guard dropped > 0 else { return }
        report["records outside the pipeline's filters (not read)", default: 0] += dropped
        batch.retain(keep)
    }
}
