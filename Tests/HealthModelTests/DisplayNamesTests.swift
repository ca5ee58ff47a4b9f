import Testing

@testable import HealthModel

@Suite("Display names")
struct DisplayNamesTests {
    @Test func identifiersReadAsWords() {
        let expected: [(String, String)] = [
            ("HKQuantityTypeIdentifierStepCount", "Step Count"),
            ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "Heart Rate Variability"),
            ("HKQuantityTypeIdentifierUVExposure", "UV Exposure"),
            ("HKQuantityTypeIdentifierDistanceCycling", "Cycling Distance"),
            ("HKQuantityTypeIdentifierDietaryVitaminB12", "Vitamin B 12"),
            ("HKQuantityTypeIdentifierNumberOfTimesFallen", "Number of Times Fallen"),
            ("HKQuantityTypeIdentifierBodyMass", "Weight"),
            ("HKCategoryTypeIdentifierSleepAnalysis", "Sleep"),
            ("HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat", "Rapid Pounding or Fluttering Heartbeat"),
            ("HKCorrelationTypeIdentifierBloodPressure", "Blood Pressure"),
            ("HKDataTypeSleepDurationGoal", "Sleep Duration Goal"),
            ("HKWorkoutActivityTypeRunning", "Running"),
            ("HKWorkoutActivityTypeTraditionalStrengthTraining", "Traditional Strength Training"),
            ("HKWorkoutActivityTypeMindAndBody", "Mind and Body"),
            ("HKQuantityTypeIdentifierSomethingFromIOS27", "Something From IOS 27"),
            ("not an identifier", "not an identifier"),
        ]
        for (identifier, name) in expected {
            #expect(DisplayNames.name(of: identifier) == name, "\(identifier)")
        }
        #expect(DisplayNames.splitWords("VO2Max") == ["VO2", "Max"])
        #expect(DisplayNames.splitWords("ForcedExpiratoryVolume1") == ["Forced", "Expiratory", "Volume", "1"])
    }

    /// Every type of the catalog gets a name of its own, without HealthKit's prefix.
    @Test func everyCatalogTypeHasADistinctName() {
        let identifiers = Array(TypeCatalog.quantityTypes.keys) + Array(TypeCatalog.categoryTypes.keys)
        var seen: [String: String] = [:]
        for identifier in identifiers {
            let name = DisplayNames.name(of: identifier)
            #expect(!name.isEmpty && !name.hasPrefix("HK") && !name.contains("Identifier"), "\(identifier) → \(name)")
            #expect(seen[name] == nil, "\(identifier) and \(seen[name] ?? "") are both \(name)")
            seen[name] = identifier
        }
    }
}
