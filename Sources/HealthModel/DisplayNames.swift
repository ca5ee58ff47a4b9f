/// Names a person reads for HealthKit's identifiers: `HKQuantityTypeIdentifierStepCount` → "Step Count",
/// `HKWorkoutActivityTypeTraditionalStrengthTraining` → "Traditional Strength Training".
///
/// The rule (so that types of future iOS versions get a name too): drop the `HK…TypeIdentifier`,
/// `HKDataType` or `HKWorkoutActivityType` prefix, split the CamelCase rest into words (a run of capitals is
/// one word, so `UVExposure` → "UV Exposure"; known acronyms with digits such as `VO2` stay whole), write
/// "of", "or", "and", "in", "to" in lower case after the first word, and move a leading "Distance" to the
/// end ("Cycling Distance") and drop a leading "Dietary" ("Protein"). `overrides` holds the names the Health app shows where the rule reads badly
/// or differs from the app ("Weight" for `BodyMass`, "Sleep" for `SleepAnalysis`).
public enum DisplayNames {
    public static func name(of identifier: String) -> String {
        let short = shortName(identifier)
        if let override = overrides[short] { return override }
        var words = splitWords(short)
        if words.count > 1, words[0] == "Distance" { words = Array(words.dropFirst()) + ["Distance"] }
        // The Health app lists nutrients without the word: Protein, Water, Vitamin C.
        if words.count > 1, words[0] == "Dietary" { words.removeFirst() }
        let small: Set = ["Of", "Or", "And", "In", "To", "With"]
        for index in words.indices.dropFirst() where small.contains(words[index]) {
            words[index] = words[index].lowercased()
        }
        return words.joined(separator: " ")
    }

    /// The identifier without HealthKit's prefix (`StepCount`, `Running`); other text as it is.
    static func shortName(_ identifier: String) -> String {
        for prefix in ["HKWorkoutActivityType", "HKDataTypeIdentifier", "HKDataType"]
        where identifier.hasPrefix(prefix) && identifier.count > prefix.count {
            return String(identifier.dropFirst(prefix.count))
        }
        return RollupNaming.shortName(ofType: identifier)
    }

    /// Acronyms that contain digits or lower-case letters, kept as one word.
    static let acronyms = ["VO2", "SpO2", "HbA1c"]

    /// `HeartRateVariabilitySDNN` → ["Heart", "Rate", "Variability", "SDNN"]; `ForcedExpiratoryVolume1` →
    /// [..., "Volume", "1"].
    static func splitWords(_ text: String) -> [String] {
        let characters = Array(text)
        var words: [String] = []
        var current = ""
        var index = 0
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        while index < characters.count {
            if let acronym = acronyms.first(where: { text.dropFirst(index).hasPrefix($0) }) {
                flush()
                words.append(acronym)
                index += acronym.count
                continue
            }
            let character = characters[index]
            let previous = current.last
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if let previous {
                let startsWord =
                    (character.isUppercase && previous.isLowercase)
                    // The last capital of a run starts the next word: `UVExposure` → UV, Exposure.
                    || (character.isUppercase && previous.isUppercase && next?.isLowercase == true)
                    || (character.isNumber != previous.isNumber)
                if startsWord { flush() }
            }
            if character == "_" || character == " " {
                flush()
            } else {
                current.append(character)
            }
            index += 1
        }
        flush()
        return words
    }

    /// Where the rule reads badly or the Health app says something else. Keys are short names.
    static let overrides: [String: String] = [
        // Quantity types
        "ActiveEnergyBurned": "Active Energy",
        "BasalEnergyBurned": "Resting Energy",
        "AppleExerciseTime": "Exercise Minutes",
        "AppleMoveTime": "Move Minutes",
        "AppleStandTime": "Stand Minutes",
        "AppleSleepingWristTemperature": "Sleeping Wrist Temperature",
        "AppleSleepingBreathingDisturbances": "Breathing Disturbances",
        "AppleWalkingSteadiness": "Walking Steadiness",
        "BodyMass": "Weight",
        "BodyMassIndex": "Body Mass Index (BMI)",
        "DistanceWalkingRunning": "Walking + Running Distance",
        "DistanceDownhillSnowSports": "Downhill Snow Sports Distance",
        "HeartRateVariabilitySDNN": "Heart Rate Variability",
        "HeartRateRecoveryOneMinute": "Cardio Recovery",
        "VO2Max": "Cardio Fitness (VO2 max)",
        "OxygenSaturation": "Blood Oxygen",
        "EnvironmentalAudioExposure": "Environmental Sound Levels",
        "HeadphoneAudioExposure": "Headphone Audio Levels",
        "ForcedExpiratoryVolume1": "Forced Expiratory Volume, 1 sec (FEV1)",
        "WalkingDoubleSupportPercentage": "Double Support Time",
        "WalkingAsymmetryPercentage": "Walking Asymmetry",
        "AtrialFibrillationBurden": "AFib History",
        "DietaryEnergyConsumed": "Dietary Energy",
        "DietarySugar": "Dietary Sugar",
        "DietaryCholesterol": "Dietary Cholesterol",
        "BloodPressureSystolic": "Systolic Blood Pressure",
        "BloodPressureDiastolic": "Diastolic Blood Pressure",
        "DietaryFatTotal": "Total Fat",
        "DietaryFatSaturated": "Saturated Fat",
        "DietaryFatMonounsaturated": "Monounsaturated Fat",
        "DietaryFatPolyunsaturated": "Polyunsaturated Fat",
        "SixMinuteWalkTestDistance": "Six-Minute Walk",
        "NikeFuel": "NikeFuel",
        // Category types
        "SleepAnalysis": "Sleep",
        "MindfulSession": "Mindful Minutes",
        "AppleStandHour": "Stand Hours",
        "IntermenstrualBleeding": "Spotting",
        "HighHeartRateEvent": "High Heart Rate Notification",
        "LowHeartRateEvent": "Low Heart Rate Notification",
        "IrregularHeartRhythmEvent": "Irregular Rhythm Notification",
        "LowCardioFitnessEvent": "Low Cardio Fitness Notification",
        "ToothbrushingEvent": "Toothbrushing",
        "HandwashingEvent": "Handwashing",
        // Workouts and their activity types
        "HKWorkoutTypeIdentifier": "Workout",
        "HighIntensityIntervalTraining": "High Intensity Interval Training (HIIT)",
        "SwimBikeRun": "Multisport (Swim, Bike, Run)",
        "MixedMetabolicCardioTraining": "Mixed Metabolic Cardio Training",
        "WheelchairWalkPace": "Wheelchair Walk Pace",
        "WheelchairRunPace": "Wheelchair Run Pace",
    ]
}
