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
}
