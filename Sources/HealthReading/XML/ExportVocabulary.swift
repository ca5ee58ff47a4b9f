/// The element and attribute names of export.xml that the decoder understands.
///
/// libxml2 interns names, so each name's pointer is looked up once per parse and then found by identity.
enum ExportElement: String, CaseIterable {
    case healthData = "HealthData"
    case exportDate = "ExportDate"
    case me = "Me"
    case record = "Record"
    case metadataEntry = "MetadataEntry"
    case hrvList = "HeartRateVariabilityMetadataList"
    case beat = "InstantaneousBeatsPerMinute"
    case correlation = "Correlation"
    case workout = "Workout"
    case workoutEvent = "WorkoutEvent"
    case workoutActivity = "WorkoutActivity"
    case workoutStatistics = "WorkoutStatistics"
    case workoutRoute = "WorkoutRoute"
    case fileReference = "FileReference"
    case location = "Location"
    case activitySummary = "ActivitySummary"
    case clinicalRecord = "ClinicalRecord"
    case audiogram = "Audiogram"
    case sensitivityPoint = "SensitivityPoint"
    case visionPrescription = "VisionPrescription"
    case rightEye = "RightEye"
    case leftEye = "LeftEye"
    case attachment = "Attachment"
    /// Not written by any exporter up to iOS 26; read if a future one does (see `addStateOfMind`).
    case stateOfMind = "StateOfMind"
    case unknown = ""

    /// A dense index for per-element counters: the position among `allCases`. Found by comparing cases (a
    /// few compares for the common elements, which come first); a dictionary hashed every element's end.
    var ordinal: Int { Self.all.firstIndex(of: self) ?? 0 }
    private static let all = allCases
}

enum ExportAttribute: String {
    case type, sourceName, sourceVersion, device, unit, creationDate, startDate, endDate, value
    /// The iOS 8/9 exporter's name for `sourceName`.
    case source
    case key, locale, date, duration, durationUnit, uuid
    case workoutActivityType, totalDistance, totalDistanceUnit, totalEnergyBurned, totalEnergyBurnedUnit
    case average, minimum, maximum, sum
    case path, bpm, time
    case latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, course, speed
    case other = ""
}

/// Maps interned name pointers to vocabulary values.
///
/// A direct-mapped cache on the pointer's bits answers almost every lookup with one comparison; the
/// dictionary behind it is only consulted the first time a name is seen (or on a rare collision).
struct NameTable<Name: RawRepresentable> where Name.RawValue == String {
    private static var slots: Int { 64 }
    private var keys = [UnsafeRawPointer?](repeating: nil, count: slots)
    private var names: [Name]
    private var cache: [UnsafeRawPointer: Name] = [:]
    private let fallback: Name

    init(fallback: Name) {
        self.fallback = fallback
        names = Array(repeating: fallback, count: Self.slots)
    }

    @inline(__always)
    mutating func lookup(_ identity: UnsafeRawPointer, _ bytes: XMLBytes) -> Name {
        let slot = Int(bitPattern: UInt(bitPattern: identity) >> 3) & (Self.slots - 1)
        if keys[slot] == identity { return names[slot] }
        let name: Name
        if let known = cache[identity] {
            name = known
        } else {
            name = Name(rawValue: String(decoding: bytes, as: UTF8.self)) ?? fallback
            cache[identity] = name
        }
        keys[slot] = identity
        names[slot] = name
        return name
    }
}
