import HealthModel

/// A HealthKit activity as each format names it. FIT's numbers are the `sport` and `sub_sport` types of Garmin's
/// FIT profile; TCX knows only Running, Biking and Other.
enum WorkoutSport {
    /// (sport, sub_sport) of the FIT profile; (0, 0) generic for an activity FIT has no sport for.
    static func fit(_ activityType: String) -> (sport: UInt8, subSport: UInt8) {
        switch shortName(activityType) {
        case "Running": return (1, 0)
        case "Cycling", "HandCycling": return (2, 0)
        case "Swimming": return (5, 0)
        case "Walking": return (11, 0)
        case "Hiking": return (17, 0)
        case "Rowing": return (15, 0)
        case "Elliptical": return (4, 15)
        case "StairClimbing", "Stairs": return (4, 16)
        case "TraditionalStrengthTraining", "FunctionalStrengthTraining": return (10, 20)
        case "CrossTraining", "HighIntensityIntervalTraining", "MixedCardio": return (10, 26)
        case "Yoga", "Flexibility", "Pilates": return (10, 19)
        case "CrossCountrySkiing": return (12, 0)
        case "DownhillSkiing": return (13, 0)
        case "Snowboarding": return (14, 0)
        case "PaddleSports": return (19, 0)
        case "SwimBikeRun": return (18, 0)
        case "Soccer": return (7, 0)
        case "Tennis": return (8, 0)
        case "Basketball": return (6, 0)
        case "AmericanFootball": return (9, 0)
        case "Golf": return (25, 0)
        case "Climbing": return (31, 0)
        case "Sailing": return (32, 0)
        case "SkatingSports": return (33, 0)
        case "SurfingSports": return (38, 0)
        default: return (0, 0)
        }
    }

    /// TrainingCenterDatabase v2's `Sport_t`.
    static func tcx(_ activityType: String) -> String {
        switch shortName(activityType) {
        case "Running": return "Running"
        case "Cycling", "HandCycling": return "Biking"
        default: return "Other"
        }
    }

    /// The activity in file names and GPX's `<type>`: the Health app's name in lower case, words joined by `-`
    /// (`running`, `traditional-strength-training`).
    static func fileWord(_ activityType: String) -> String {
        var word = ""
        for character in DisplayNames.name(of: activityType).lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                word.append(character)
            } else if !word.isEmpty && word.last != "-" {
                word.append("-")
            }
        }
        while word.last == "-" { word.removeLast() }
        return word.isEmpty ? "workout" : word
    }

    /// Whether `activity` (an option's value) names `activityType`: the identifier, its name without the prefix,
    /// or the file word, without case.
    static func matches(_ activity: String, _ activityType: String) -> Bool {
        let wanted = activity.lowercased()
        return wanted == activityType.lowercased() || wanted == shortName(activityType).lowercased()
            || wanted == fileWord(activityType) || wanted == DisplayNames.name(of: activityType).lowercased()
    }

    static func shortName(_ activityType: String) -> String {
        let prefix = "HKWorkoutActivityType"
        return activityType.hasPrefix(prefix) ? String(activityType.dropFirst(prefix.count)) : activityType
    }
}
