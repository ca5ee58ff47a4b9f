/// The generator's own count of what it wrote, so end-to-end tests can compare an importer's result with the
/// truth instead of with another parser. Counts are of elements as written (so duplicates are included) unless
/// the field says otherwise.
public struct ExportTally: Codable, Equatable, Sendable {
    public var profile: String = ""
    public var seed: UInt64 = 0
    public var days: Int = 0
    public var xmlFileName: String = ""
    public var firstDay: String = ""
    public var lastDay: String = ""

    /// Top-level `Record` elements (correlation children not included, exact duplicates included).
    public var records: Int = 0
    /// Top-level `Record`s by `type`.
    public var recordsByType: [String: Int] = [:]
    public var quantityRecords: Int = 0
    public var categoryRecords: Int = 0
    /// Extra copies: a record written three times adds 2. Copies differ only in the device's 0x address.
    public var exactDuplicateRecords: Int = 0
    /// Top-level records that a later record with the same source, `HKMetadataKeySyncIdentifier` and a higher
    /// `HKMetadataKeySyncVersion` replaces (a 1→2→3 chain adds 2).
    public var syncSuperseded: Int = 0
    /// Every `MetadataEntry` element anywhere (records, correlation children, workouts twice, events, routes…).
    public var metadataEntries: Int = 0
    /// `ios8` profile: metadata written as attributes of a `Record` (`HKWasUserEntered="1"`, `sessionId`, and
    /// the aggregates' `recordCount`, `min`, `max`, `average`): one metadata row each once imported.
    public var metadataAttributes: Int = 0
    /// `ios8` profile: pre-aggregated records (those with `recordCount`); `min`/`max`/`average` on discrete ones.
    public var aggregatedRecords: Int = 0
    public var correlations: Int = 0
    /// `Record`s inside `Correlation`s; each also appears at top level (and is counted in `records` there).
    public var correlationChildRecords: Int = 0
    public var workouts: Int = 0
    /// Workouts that repeat another app's session (Strava copies of Watch runs): probable duplicates.
    public var probableDuplicateWorkouts: Int = 0
    /// All `WorkoutEvent`s, including those nested in `WorkoutActivity`.
    public var workoutEvents: Int = 0
    public var workoutActivities: Int = 0
    /// All `WorkoutStatistics`, including those nested in `WorkoutActivity`.
    public var workoutStatistics: Int = 0
    public var workoutRoutes: Int = 0
    /// GPX `trkpt`s written plus inline `Location`s.
    public var routePoints: Int = 0
    /// Inline `Location` elements (iOS 12 profile); also included in `routePoints`.
    public var inlineLocations: Int = 0
    /// GPX files written under `workout-routes/`.
    public var routeFiles: Int = 0
    /// `FileReference`s whose GPX file does not exist (empty routes, as the real exporter leaves them).
    public var missingRouteFiles: Int = 0
    public var activitySummaries: Int = 0
    public var hrvRecordsWithBeats: Int = 0
    public var hrvBeats: Int = 0
    /// ECG CSV files written (one recording each).
    public var ecgRecordings: Int = 0
    public var ecgSamples: Int = 0
    public var clinicalRecords: Int = 0
    public var audiograms: Int = 0
    public var sensitivityPoints: Int = 0
    public var visionPrescriptions: Int = 0
    /// XML-illegal control-character bytes written into export.xml.
    public var controlCharacters: Int = 0
    /// Size of export.xml in bytes (uncompressed).
    public var xmlBytes: Int = 0
    /// Size of the written output: the zip, the folder's files, or the bare XML.
    public var outputBytes: Int = 0
    /// Local date of `startDate` in the export offset (`yyyy-MM-dd`) → sourceName → sum of top-level StepCount
    /// values, each distinct sample once: exact duplicate copies and sync-superseded versions are left out, and
    /// iPhone and Watch samples are NOT merged (that overlap is the importer's job).
    public var stepsBySourcePerDay: [String: [String: Int]] = [:]
    /// `ios8` profile: local date of a sleep record's end in the export offset (the day the night ends) → the
    /// value's name as later exports write it (`HKCategoryValueSleepAnalysisAsleep`, which the file has as `1`)
    /// → hours. One source, one record per value and night: what a correct import's rollups give.
    public var sleepHoursPerNight: [String: [String: Double]] = [:]

    public init() {}

    mutating func addRecord(type: String, isCategory: Bool) {
        records += 1
        recordsByType[type, default: 0] += 1
        if isCategory { categoryRecords += 1 } else { quantityRecords += 1 }
    }

    mutating func addSleep(night: String, value: String, seconds: Int64) {
        sleepHoursPerNight[night, default: [:]][value, default: 0] += Double(seconds) / 3_600
    }

    mutating func addSteps(day: String, source: String, count: Int) {
        stepsBySourcePerDay[day, default: [:]][source, default: 0] += count
    }
}
