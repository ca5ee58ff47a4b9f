/// How each HealthKit type becomes an Observation: its code, its UCUM unit, the factor from the database's
/// canonical unit, its category, and what `--level daily` writes of it. docs/fhir.md shows the same table
/// (`FHIRMappingTests` checks that the page and this list agree).
package struct FHIRMapping: Sendable, Equatable {
    /// What `--level daily` writes: the day's total or mean from `daily_rollups`, or every reading.
    package enum Daily: String, Sendable {
        /// One Observation per day: the rollups' `sum` (cumulative types).
        case sum
        /// One Observation per day: the rollups' `avg` of the day's readings.
        case average
        /// One Observation per reading (weight, height, glucose…: a few a day at most).
        case readings
    }

    package enum Category: String, Sendable {
        case vitalSigns = "vital-signs"
        case activity
        case exam
        case laboratory
    }

    /// The HealthKit identifier (`HKQuantityTypeIdentifierHeartRate`).
    package let type: String
    /// `http://loinc.org`, or `HealthKit` (`FHIRMapping.healthKitSystem`) where no standard code fits.
    package let system: String
    package let code: String
    package let display: String
    /// The UCUM code (`/min`, `kg`, `mm[Hg]`) and its human-readable form.
    package let unit: String
    package let unitDisplay: String
    /// The database's canonical unit times this is the value in `unit` (SpO2 0–1 → %, height m → cm).
    package let factor: Double
    package let category: Category
    package let daily: Daily
    /// The code and unit of the daily total where the Physical Activity guide gives one of its own (steps a day:
    /// 41950-7 in `/d`); nil: the same as a sample's.
    package let dailyCode: (code: String, display: String, unit: String, unitDisplay: String)?

    package static func == (lhs: FHIRMapping, rhs: FHIRMapping) -> Bool { lhs.type == rhs.type }

    /// The code system of types without a LOINC code: HealthKit's own identifiers.
    package static let healthKitSystem = "https://developer.apple.com/documentation/healthkit"
    static let loinc = "http://loinc.org"

    init(
        _ type: String, _ code: String, _ display: String, unit: String, _ unitDisplay: String, factor: Double = 1,
        _ category: Category, _ daily: Daily, system: String = FHIRMapping.loinc,
        dailyCode: (code: String, display: String, unit: String, unitDisplay: String)? = nil
    ) {
        self.dailyCode = dailyCode
        self.type = "HKQuantityTypeIdentifier" + type
        self.system = system
        self.code = system == Self.loinc ? code : self.type
        self.display = display
        self.unit = unit
        self.unitDisplay = unitDisplay
        self.factor = factor
        self.category = category
        self.daily = daily
    }

    /// The quantity types written, in the order of the files.
    package static let quantities: [FHIRMapping] = [
        .init(
            "StepCount", "55423-8", "Number of steps in unspecified time Pedometer", unit: "{steps}", "steps",
            .activity, .sum, dailyCode: ("41950-7", "Number of steps in 24 hour Measured", "/d", "steps/day")),
        .init("ActiveEnergyBurned", "41981-2", "Calories burned", unit: "kcal", "kcal", .activity, .sum),
        .init(
            "DistanceWalkingRunning", "", "Walking and running distance", unit: "m", "m", .activity, .sum,
            system: healthKitSystem),
        .init("AppleExerciseTime", "55411-3", "Exercise duration", unit: "min", "min", .activity, .sum),
        .init("HeartRate", "8867-4", "Heart rate", unit: "/min", "beats/minute", .vitalSigns, .average),
        .init(
            "RestingHeartRate", "40443-4", "Heart rate --resting", unit: "/min", "beats/minute", .vitalSigns,
            .average),
        .init("RespiratoryRate", "9279-1", "Respiratory rate", unit: "/min", "breaths/minute", .vitalSigns, .average),
        .init(
            "OxygenSaturation", "2708-6", "Oxygen saturation in Arterial blood", unit: "%", "%", factor: 100,
            .vitalSigns, .average),
        .init(
            "HeartRateVariabilitySDNN", "80404-7", "R-R interval.standard deviation (Heart rate variability)",
            unit: "ms", "ms", .vitalSigns, .average),
        .init("BodyTemperature", "8310-5", "Body temperature", unit: "Cel", "C", .vitalSigns, .readings),
        .init("BodyMass", "29463-7", "Body weight", unit: "kg", "kg", .vitalSigns, .readings),
        .init("Height", "8302-2", "Body height", unit: "cm", "cm", factor: 100, .vitalSigns, .readings),
        .init(
            "BodyMassIndex", "39156-5", "Body mass index (BMI) [Ratio]", unit: "kg/m2", "kg/m2", .vitalSigns, .readings),
        .init(
            "BloodGlucose", "2339-0", "Glucose [Mass/volume] in Blood", unit: "mg/dL", "mg/dL", .laboratory,
            .readings),
        .init(
            "VO2Max", "", "VO2 max", unit: "mL/min/kg", "mL/(kg·min)", .exam, .readings, system: healthKitSystem),
    ]

    /// Blood pressure: the panel, its two components from the correlation's children.
    package static let bloodPressurePanel = (
        code: "85354-9", display: "Blood pressure panel with all children optional"
    )
    package static let systolic = (
        type: "HKQuantityTypeIdentifierBloodPressureSystolic", code: "8480-6", display: "Systolic blood pressure"
    )
    package static let diastolic = (
        type: "HKQuantityTypeIdentifierBloodPressureDiastolic", code: "8462-4", display: "Diastolic blood pressure"
    )
    package static let pressureUnit = "mm[Hg]"

    /// Sleep, one Observation per night: the hours asleep, each stage a component.
    package static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    package static let sleepDuration = (code: "93832-4", display: "Sleep duration")
    /// The stages of the rollups (`<Stage>_hours`) and their codes: LOINC where it has one, HealthKit's value
    /// otherwise. `asleep` marks the stages the night's total adds up.
    package static let sleepStages: [(statistic: String, system: String, code: String, display: String, asleep: Bool)] =
        [
            ("AsleepDeep_hours", loinc, "93831-6", "Deep sleep duration", true),
            ("AsleepCore_hours", loinc, "93830-8", "Light sleep duration", true),
            ("AsleepREM_hours", loinc, "93829-0", "REM sleep duration", true),
            (
                "AsleepUnspecified_hours", healthKitSystem, "HKCategoryValueSleepAnalysisAsleepUnspecified",
                "Asleep, stage unspecified", true
            ),
            ("Asleep_hours", healthKitSystem, "HKCategoryValueSleepAnalysisAsleep", "Asleep", true),
            ("Awake_hours", healthKitSystem, "HKCategoryValueSleepAnalysisAwake", "Awake", false),
            ("InBed_hours", healthKitSystem, "HKCategoryValueSleepAnalysisInBed", "In bed", false),
        ]

    package static func quantity(_ type: String) -> FHIRMapping? { quantities.first { $0.type == type } }
}
