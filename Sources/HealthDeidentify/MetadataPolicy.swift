/// Which metadata entries the copy keeps. Third-party apps write anything into metadata (notes, meal names,
/// URLs, e-mail addresses), so an entry is kept only when its key is one of Apple's whose values are known not to
/// identify, or its value is a number (with a unit); identifiers are replaced by keyed pseudonyms; everything
/// else is dropped.
package enum MetadataPolicy {
    package enum Decision: Equatable {
        case keep, pseudonymise, drop
    }

    /// Apple's keys whose values are enumerations, flags, versions or measurements.
    package static let allowedKeys: Set<String> = [
        "HKTimeZone", "HKWasUserEntered", "HKIndoorWorkout", "HKMetadataKeyHeartRateMotionContext",
        "HKSwimmingLocationType", "HKSwimmingStrokeStyle", "HKSexualActivityProtectionUsed", "HKMenstrualCycleStart",
        "HKMetadataKeyAppleDeviceCalibrated", "HKVO2MaxTestType", "HKMetadataKeySessionEstimate", "HKAlgorithmVersion",
        "HKMetadataKeySyncVersion", "HKWeatherCondition", "HKCoachedWorkout", "HKGroupFitness",
        "HKMetadataKeyUserMotionContext", "HKPhysicalEffortEstimationType", "HKMetadataKeyDevicePlacementSide",
        "HKMetadataKeyAppleFitnessPlusSession", "HKMetadataKeyHeartRateRecoveryTestType",
        "HKMetadataKeyHeartRateRecoveryActivityType", "HKWaterSalinity", "HKMetadataKeyBarometricPressure",
        "HKMetadataKeyAudioExposureLevel", "HKInsulinDeliveryReason", "HKBloodGlucoseMealTime",
        "HKMetadataKeyBloodGlucoseMealTime", "HKMetadataKeyQuantityClampedToLowerBound",
        "HKMetadataKeyQuantityClampedToUpperBound", "HKLapLength", "HKAverageMETs", "HKElevationAscended",
        "HKElevationDescended", "HKAverageSpeed", "HKMaximumSpeed", "HKWeatherTemperature", "HKWeatherHumidity",
        "HKMetadataKeyHeartRateEventThreshold", "HKMetadataKeyLowCardioFitnessEventThreshold",
        "HKMetadataKeyVO2MaxValue", "HKVO2MaxValue", "HKMetadataKeyAudioExposureDuration",
        "HKMetadataKeyMaximumLightIntensity", "HKMetadataKeyCyclingFunctionalThresholdPowerTestType",
        "HKMetadataKeyActivityType",
    ]

    /// Apple's keys whose values identify a device, an app's record or the person's account: pseudonymised.
    package static let identifierKeys: Set<String> = [
        "HKExternalUUID", "HKMetadataKeyExternalUUID", "HKDeviceSerialNumber", "HKMetadataKeyDeviceSerialNumber",
        "HKDeviceName", "HKMetadataKeyDeviceName", "HKUDIDeviceIdentifier", "HKMetadataKeyUDIDeviceIdentifier",
        "HKDigitalSignature", "HKMetadataKeyDigitalSignature",
    ]

    /// Words that make a third-party key an identifier whatever its value looks like (`Withings User Identifier`,
    /// `com.fitstar.session_id`): a number there is an account or a record, not a measurement.
    package static let identifierWords: Set<String> = [
        "id", "identifier", "uuid", "guid", "user", "userid", "account", "serial", "device", "name", "email", "mail",
        "phone", "address", "patient", "member", "customer", "session", "link", "url", "uri",
    ]

    /// What happens to the entries of a key, decided once per key.
    package enum KeyClass: Int {
        /// Every entry dropped.
        case drop = 0
        /// Every entry kept.
        case keep = 1
        /// Every value replaced by a keyed pseudonym.
        case pseudonymise = 2
        /// An entry kept when its value is a number.
        case numbersOnly = 3
    }

    package static func keyClass(_ key: String, names: SourceNames) -> KeyClass {
        if identifierKeys.contains(key) { return .pseudonymise }
        guard keyIsPlain(key), !names.containsName(key) else { return .drop }
        if !key.hasPrefix("HK"), SourceNames.words(key.splittingCamelCase).contains(where: identifierWords.contains) {
            return .pseudonymise
        }
        return allowedKeys.contains(key) ? .keep : .numbersOnly
    }

    /// What happens to an entry with this key and value. `names` knows the words of people's names.
    package static func decision(key: String, value: String?, names: SourceNames) -> Decision {
        switch keyClass(key, names: names) {
        case .drop: return .drop
        case .keep: return .keep
        case .pseudonymise: return .pseudonymise
        case .numbersOnly: return value.map(isNumber) == true ? .keep : .drop
        }
    }

    /// A key the copy may show: short, letters, digits and simple punctuation, no address (`@`).
    package static func keyIsPlain(_ key: String) -> Bool {
        guard !key.isEmpty, key.utf8.count <= 64 else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || " _.-()".unicodeScalars.contains(scalar)
        }
    }

    /// `72`, `-3.5`, `1.2e3`, `71.5 kg`, `12 count/min`, `2.5 mmol<180.1558800000541>/L`: a number of at most
    /// nine integer digits (longer ones are phone, account or card numbers), optionally a space and a unit that
    /// starts with a letter, `%` or `°`.
    package static func isNumber(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < scalars.count && ("0"..."9").contains(scalars[at]) }
        if index < scalars.count, scalars[index] == "-" { index += 1 }
        let integerStart = index
        while isDigit(index) { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits >= 1, integerDigits <= 9 else { return false }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        if index == scalars.count { return true }
        guard scalars[index] == " ", index + 1 < scalars.count else { return false }
        let unit = scalars[(index + 1)...]
        guard let first = unit.first, first.properties.isAlphabetic || first == "%" || first == "°",
            unit.count <= 32
        else { return false }
        return unit.allSatisfy { $0.properties.isAlphabetic || "0123456789/·^()<>.%°-".unicodeScalars.contains($0) }
    }
}

extension String {
    /// `sessionID` → `session ID`, `userId` → `user Id`: the words of a camel-case key.
    var splittingCamelCase: String {
        var result = ""
        var previous: Character?
        for character in self {
            if let previous, character.isUppercase, previous.isLowercase { result.append(" ") }
            result.append(character)
            previous = character
        }
        return result
    }
}
