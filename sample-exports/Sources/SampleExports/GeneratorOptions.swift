import Foundation

/// Which exporter generation to imitate. The differences matter to an importer: the DTD (the iOS 16 one is not
/// well formed), inline route `Location`s versus GPX files, workout totals as attributes versus
/// `WorkoutStatistics`, and the pre-iOS 16 sleep value names.
public enum ExportProfile: String, Sendable, Codable, CaseIterable {
    /// iOS 8/9 (2014–2015): the legacy format of reference §3.2, written by `LegacyExportWriter`: no DTD,
    /// compact dates, `source=`, metadata as attributes, pre-aggregated records, integer `Me` values.
    case ios8
    /// iOS 12.3, "HealthKit Export Version: 8": inline routes, workout total attributes, `…SleepAnalysisAsleep`.
    case ios12
    /// iOS 16.0, "HealthKit Export Version: 12": the malformed DTD of §3.3, otherwise the iOS 16 writer.
    case ios16
    /// iOS 18.2+, "HealthKit Export Version: 14": the current writer, with masked/clamping audiogram attributes.
    case ios18

    var exportVersion: Int {
        switch self {
        case .ios8: return 0  // no DTD, no version comment
        case .ios12: return 8
        case .ios16: return 12
        case .ios18: return 14
        }
    }

    /// Workouts with `WorkoutStatistics`, `WorkoutActivity`, event metadata, vision Rx, sleep stages.
    var isModern: Bool { self != .ios12 && self != .ios8 }
}

/// The zone the simulated person lives in. Daily rhythms (sleep, ActivitySummary days, HRV beat times, GPX file
/// names) follow it, with DST; the XML dates do not: they all use `GeneratorOptions.exportOffset`, as the real
/// exporter freezes the offset at export time.
public enum HomeZone: String, Sendable, Codable {
    case europeBerlin = "Europe/Berlin"
    case americaNewYork = "America/New_York"
    case utc = "UTC"
}

/// Everything that shapes a generated export. Same options (including the seed) → byte-identical output.
public struct GeneratorOptions: Sendable {
    public var seed: UInt64 = 1
    /// The first generated day starts at local midnight (in `homeZone`) of this instant's calendar day.
    public var startDate: Date = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01
    public var days: Int = 30
    /// Multiplies the density of the dense streams (steps, energy, heart rate, stand hours…).
    public var scale: Double = 1
    /// When set, more days are generated until `export.xml` is at least this many bytes (benchmark exports).
    public var targetXMLBytes: Int?
    public var profile: ExportProfile = .ios18
    /// The main XML's name inside `apple_health_export/`; localised in real exports (`导出.xml`, `Export.xml`).
    public var xmlFileName: String = "export.xml"
    /// `±hhmm`, used for every date in the XML and CSVs, whatever the season, as the real exporter does.
    public var exportOffset: String = "+0100"
    public var homeZone: HomeZone = .europeBerlin
    /// `HealthData@locale`; nil → the profile's usual one.
    public var locale: String?
    /// Put XML-illegal control characters (e.g. U+000B) in a third-party sourceName and metadata value.
    public var includeControlCharacters: Bool = true
    /// Write MyFitnessPal's `meal` key beside its `Meal` key, as real files have it.
    public var includeCaseVariantKeys: Bool = true
    /// Write a few exact duplicate Records per day (identical except the device's 0x address).
    public var includeDuplicates: Bool = true
    /// Rotate HRV beat times through the en_US 12-hour, 24-hour and comma styles. A real export uses one style
    /// (its locale's); mixing them makes one sample exercise every parser path.
    public var mixHRVTimeStyles: Bool = true
    /// Side files (GPX, ECG CSV, CDA, FHIR JSON) are written for `.zip`/`.folder`; this turns them off there too.
    public var includeSideFiles: Bool = true
    /// zlib level for `.zip` output.
    public var compressionLevel: Int32 = 6

    // Benchmark shapes (issue 13): the defaults keep the usual export, byte for byte.
    /// Seconds between route fixes; nil → about 4 s (`4 / scale`). 1 is a watch's 1 Hz workout GPS.
    public var routeIntervalSeconds: Int?
    /// Multiplies every workout's planned minutes (1…3): with a 1 s route interval, a route-heavy export.
    public var workoutLengthFactor: Int = 1
    /// Extra `MetadataEntry` children (third-party app keys) on every top-level `Record`: a metadata-heavy export.
    public var extraMetadataPerRecord: Int = 0
    /// When set, `export_cda.xml` repeats its vital-sign entries until it is at least this many bytes.
    public var cdaTargetBytes: Int?
    /// When set, the export happens this many seconds after local midnight of the last generated day (instead
    /// of the morning after it), and records ending after that instant are not written: the export's last day
    /// is partial, as a real one is. `FeedGenerator` fills the rest of that day from the same truth.
    public var exportTimeOfDay: Int?
    /// Days (0 = the first generated day) of a planted illness: resting heart rate, respiratory rate and wrist
    /// temperature up, heart rate variability down, far outside their generated spread (`PlantedIllness`). Every
    /// other day and record is as without it.
    public var illnessDays: ClosedRange<Int>?

    public init() {}

    public init(seed: UInt64, days: Int, profile: ExportProfile = .ios18) {
        self.seed = seed
        self.days = days
        self.profile = profile
    }

    var effectiveLocale: String {
        if let locale { return locale }
        switch profile {
        case .ios8: return "en_DE"
        case .ios12: return "en_US"
        case .ios16: return "en_FR"
        case .ios18: return "en_US"
        }
    }
}

/// Where and how the export is written.
public enum OutputKind: Sendable {
    /// A zip like Health.app's: entries under `apple_health_export/`, deflated, with data descriptors.
    case zip(String)
    /// The unzipped form: creates `<path>/apple_health_export/…` (what unzipping the zip into `<path>` gives).
    case folder(String)
    /// Only the main XML, at exactly this path; no side files.
    case bareXML(String)
}

public enum GeneratorError: Error, CustomStringConvertible {
    case badOption(String)
    case io(String)

    public var description: String {
        switch self {
        case .badOption(let message): return "bad option: \(message)"
        case .io(let message): return "I/O error: \(message)"
        }
    }
}
