/// The element and attribute names of export.xml that the decoder understands.
///
/// libxml2 interns names, so each name's pointer is looked up once per parse and then found by identity.
enum ExportElement: String {
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
    case unknown = ""
}

enum ExportAttribute: String {
    case type, sourceName, sourceVersion, device, unit, creationDate, startDate, endDate, value
    case key, locale, date, duration, durationUnit, uuid
    case workoutActivityType, totalDistance, totalDistanceUnit, totalEnergyBurned, totalEnergyBurnedUnit
    case average, minimum, maximum, sum
    case path, bpm, time
    case latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, course, speed
    case other = ""
}

/// Maps interned name pointers to vocabulary values.
struct NameTable<Name: RawRepresentable> where Name.RawValue == String {
    private var cache: [UnsafeRawPointer: Name] = [:]
    private let fallback: Name

    init(fallback: Name) { self.fallback = fallback }

    mutating func lookup(_ identity: UnsafeRawPointer, _ bytes: XMLBytes) -> Name {
        if let known = cache[identity] { return known }
        let name = Name(rawValue: String(decoding: bytes, as: UTF8.self)) ?? fallback
        cache[identity] = name
        return name
    }
}
