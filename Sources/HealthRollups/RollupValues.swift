/// One sample of the type being rolled up, as the rollup engine needs it.
public struct RollupSample: Sendable, Equatable {
    /// Unix seconds, UTC. `start >= end` makes an instantaneous sample.
    public var start: Int64
    public var end: Int64
    /// The quantity in the type's unit; ignored for categories.
    public var value: Double
    /// The category value as exported (`HKCategoryValueSleepAnalysisAsleepCore`); nil for value-less
    /// categories such as mindful sessions, and for quantities.
    public var category: String?
    public var sourceName: String
    /// From `SourcePriority.sourceClass`: smaller is better.
    public var sourceClass: Int

    public init(
        start: Int64, end: Int64, value: Double = 0, category: String? = nil, sourceName: String, sourceClass: Int
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.category = category
        self.sourceName = sourceName
        self.sourceClass = sourceClass
    }
}

/// One statistic of one bucket.
public struct RollupRow: Sendable, Equatable {
    public var period: RollupPeriod
    /// `2024-03-31` (day), `2024-03-25` (week: its Monday), `2024-03` (month), `2024-10-27T02:00+02:00` (hour).
    public var label: String
    /// The bucket's first instant, Unix seconds UTC.
    public var periodStart: Int64
    /// `sum`; `avg`, `min`, `max`, `count`; or `<Value>_hours` (see `RollupNaming.categoryStatistic`).
    public var statistic: String
    public var value: Double
    /// The names of the sources that contributed to this row's value (for a category, to this value's
    /// hours), sorted by Unicode scalars, without repeats.
    public var sources: [String]

    public init(
        period: RollupPeriod, label: String, periodStart: Int64, statistic: String, value: Double, sources: [String]
    ) {
        self.period = period
        self.label = label
        self.periodStart = periodStart
        self.statistic = statistic
        self.value = value
        self.sources = sources
    }
}

/// Input the engine cannot roll up.
public enum RollupError: Error, Equatable, CustomStringConvertible {
    /// Samples must come sorted by start; the sweep has already emitted the buckets before `start`.
    case unsorted(previousStart: Int64, start: Int64)
    /// `add` after `finish`.
    case finished

    public var description: String {
        switch self {
        case .unsorted(let previous, let start):
            "rollup samples must be sorted by start time: \(start) came after \(previous)"
        case .finished: "rollup already finished"
        }
    }
}
