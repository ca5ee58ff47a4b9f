import HealthSchema

/// The public tables a run writes rows into, as the summary names them (`ImportSummary.rows`): counted by
/// case, in an array, so a row costs no hashing of a table name.
enum WrittenTable: Int, CaseIterable {
    case cumulativeSamples, discreteSamples, categorySamples, metadata, sources, correlations, correlationSamples,
        hrvBeats, workouts, workoutActivities, workoutEvents, workoutStatistics, workoutRoutes, routePoints,
        activitySummaries, clinicalRecords, audiograms, audiogramPoints, visionPrescriptions, ecgRecordings,
        stateOfMind, me, documents

    /// The public table's name (a test checks each is one of `Schema.publicTables`).
    var name: String {
        switch self {
        case .cumulativeSamples: "cumulative_samples"
        case .discreteSamples: "discrete_samples"
        case .categorySamples: "category_samples"
        case .metadata: "metadata"
        case .sources: "sources"
        case .correlations: "correlations"
        case .correlationSamples: "correlation_samples"
        case .hrvBeats: "hrv_beats"
        case .workouts: "workouts"
        case .workoutActivities: "workout_activities"
        case .workoutEvents: "workout_events"
        case .workoutStatistics: "workout_statistics"
        case .workoutRoutes: "workout_routes"
        case .routePoints: "route_points"
        case .activitySummaries: "activity_summaries"
        case .clinicalRecords: "clinical_records"
        case .audiograms: "audiograms"
        case .audiogramPoints: "audiogram_points"
        case .visionPrescriptions: "vision_prescriptions"
        case .ecgRecordings: "ecg_recordings"
        case .stateOfMind: "state_of_mind"
        case .me: "me"
        case .documents: "documents"
        }
    }

    init(_ table: TrackedTable) {
        switch table {
        case .cumulative: self = .cumulativeSamples
        case .discrete: self = .discreteSamples
        case .category: self = .categorySamples
        case .correlations: self = .correlations
        case .workouts: self = .workouts
        }
    }
}

/// Rows written by a run (or by one item, `WriteReport`), per table. Inline storage, not an array: a report
/// is made per item, and must not allocate.
struct RowCounts {
    /// One counter per `WrittenTable` (a test checks `capacity` against `allCases`).
    private var counts = InlineArray<23, Int>(repeating: 0)
    /// A bit per table counted: adding one item's counts to the run's visits the one to four tables it wrote,
    /// not all of them (this runs once per item).
    private var touched: UInt32 = 0
    var capacity: Int { counts.count }

    @inline(__always) mutating func add(_ table: WrittenTable, _ increment: Int = 1) {
        counts[table.rawValue] += increment
        touched |= 1 << UInt32(table.rawValue)
    }

    @inline(__always) mutating func add(_ other: RowCounts) {
        var tables = other.touched
        while tables != 0 {
            let index = tables.trailingZeroBitCount
            counts[index] += other.counts[index]
            tables &= tables - 1
        }
        touched |= other.touched
    }

    subscript(table: WrittenTable) -> Int { counts[table.rawValue] }

    /// By table name, leaving out tables no row was written to (the summary's `rows`).
    var byName: [String: Int] {
        var result: [String: Int] = [:]
        for table in WrittenTable.allCases where counts[table.rawValue] != 0 {
            result[table.name] = counts[table.rawValue]
        }
        return result
    }
}

/// What the sink itself notices and reports in the run's warnings (the summary's text is written here once).
enum StoreWarning {
    /// A document larger than SQLite holds in one value, or whose bytes did not match their announced size.
    case documentNotStored(String)
    /// A reader's long transaction kept the checkpoint from emptying the write-ahead log (its bytes are the count).
    case logNotEmptied(databaseName: String)
    /// The file could not be compacted after the commit.
    case notCompacted(String)

    var summaryKey: String {
        switch self {
        case .documentNotStored(let why): "document not stored: \(why)"
        case .logNotEmptied(let name):
            "the write-ahead log could not be emptied: a reader kept an older snapshot open (bytes left in "
                + "\(name)-wal; emptied by the next run)"
        case .notCompacted(let why): "the file could not be compacted (its free space stays until a later run): \(why)"
        }
    }
}
