/// Health Auto Export's metric names (`step_count`, `active_energy`, `heart_rate`, …) and what healthetl stores
/// them as: the HealthKit identifier and how a point of the metric reads (docs/feed.md prints this table).
///
/// The table is data: one line per name, tab-separated (`name`, `identifier`, `shape`, `value`). Several names
/// may map to one identifier (the app renamed some over its versions). Units come from each file (`units`,
/// the phone's display units); the unit stage converts them to the type's canonical unit.
package enum HealthAutoExportMetrics {
    /// How the points of a metric are written.
    package enum Shape: String, Sendable, CaseIterable {
        /// `{date, qty}`: a quantity per bucket.
        case quantity
        /// `{date, Min, Avg, Max}`: heart rate per bucket; stored as `Avg`, with `Min`/`Max` in metadata.
        case heartRate
        /// `{date, systolic, diastolic}`: two samples, systolic and diastolic.
        case bloodPressure
        /// `{date, qty, mealTime}`: a quantity with the meal time in metadata.
        case bloodGlucose
        /// Sleep in any of its shapes: per night (`asleep`, `core`, `deep`, `rem`, `awake`, `inBed` hours with
        /// `sleepStart`/`sleepEnd`) or per stage segment (`startDate`, `endDate`, `value`).
        case sleep
        /// A category whose `qty` is a duration in the file's `units` (`hr`, `min`, or `count` of hours), stored
        /// as one category sample of that length with `value`.
        case duration
    }

    package struct Metric: Sendable, Equatable {
        package var name: String
        package var identifier: String
        package var shape: Shape
        /// The category value of a `duration` metric (`HKCategoryValueAppleStandHourStood`); nil for none.
        package var categoryValue: String?
    }

    /// The metrics by name.
    package static let byName: [String: Metric] = {
        var table: [String: Metric] = [:]
        for metric in all { table[metric.name] = metric }
        return table
    }()

    /// Every line of `table`, in order.
    package static let all: [Metric] = table.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 3, !fields[0].hasPrefix("#"), let shape = Shape(rawValue: fields[2]) else { return nil }
        let value = fields.count > 3 && !fields[3].isEmpty ? fields[3] : nil
        return Metric(name: fields[0], identifier: fields[1], shape: shape, categoryValue: value)
    }

    /// The identifier an unknown metric is stored under: kept, counted, never dropped.
    package static func unknownIdentifier(_ name: String) -> String { "HealthAutoExport:" + name }

    static let table = """
        # name\tidentifier\tshape\tvalue
        active_energy\tHKQuantityTypeIdentifierActiveEnergyBurned\tquantity
        basal_energy_burned\tHKQuantityTypeIdentifierBasalEnergyBurned\tquantity
        resting_energy\tHKQuantityTypeIdentifierBasalEnergyBurned\tquantity
        step_count\tHKQuantityTypeIdentifierStepCount\tquantity
        walking_running_distance\tHKQuantityTypeIdentifierDistanceWalkingRunning\tquantity
        cycling_distance\tHKQuantityTypeIdentifierDistanceCycling\tquantity
        swimming_distance\tHKQuantityTypeIdentifierDistanceSwimming\tquantity
        wheelchair_distance\tHKQuantityTypeIdentifierDistanceWheelchair\tquantity
        distance_downhill_snow_sports\tHKQuantityTypeIdentifierDistanceDownhillSnowSports\tquantity
        downhill_snow_sports\tHKQuantityTypeIdentifierDistanceDownhillSnowSports\tquantity
        flights_climbed\tHKQuantityTypeIdentifierFlightsClimbed\tquantity
        push_count\tHKQuantityTypeIdentifierPushCount\tquantity
        wheelchair_push_count\tHKQuantityTypeIdentifierPushCount\tquantity
        swim_stroke_count\tHKQuantityTypeIdentifierSwimmingStrokeCount\tquantity
        swimming_stroke_count\tHKQuantityTypeIdentifierSwimmingStrokeCount\tquantity
        apple_exercise_time\tHKQuantityTypeIdentifierAppleExerciseTime\tquantity
        apple_move_time\tHKQuantityTypeIdentifierAppleMoveTime\tquantity
        apple_stand_time\tHKQuantityTypeIdentifierAppleStandTime\tquantity
        apple_stand_hour\tHKCategoryTypeIdentifierAppleStandHour\tduration\tHKCategoryValueAppleStandHourStood
        time_in_daylight\tHKQuantityTypeIdentifierTimeInDaylight\tquantity
        physical_effort\tHKQuantityTypeIdentifierPhysicalEffort\tquantity
        vo2_max\tHKQuantityTypeIdentifierVO2Max\tquantity
        heart_rate\tHKQuantityTypeIdentifierHeartRate\theartRate
        resting_heart_rate\tHKQuantityTypeIdentifierRestingHeartRate\tquantity
        walking_heart_rate_average\tHKQuantityTypeIdentifierWalkingHeartRateAverage\tquantity
        walking_heart_rate\tHKQuantityTypeIdentifierWalkingHeartRateAverage\tquantity
        heart_rate_variability\tHKQuantityTypeIdentifierHeartRateVariabilitySDNN\tquantity
        cardio_recovery\tHKQuantityTypeIdentifierHeartRateRecoveryOneMinute\tquantity
        heart_rate_recovery\tHKQuantityTypeIdentifierHeartRateRecoveryOneMinute\tquantity
        atrial_fibrillation_burden\tHKQuantityTypeIdentifierAtrialFibrillationBurden\tquantity
        blood_pressure\tHKCorrelationTypeIdentifierBloodPressure\tbloodPressure
        blood_oxygen_saturation\tHKQuantityTypeIdentifierOxygenSaturation\tquantity
        respiratory_rate\tHKQuantityTypeIdentifierRespiratoryRate\tquantity
        blood_glucose\tHKQuantityTypeIdentifierBloodGlucose\tbloodGlucose
        insulin_delivery\tHKQuantityTypeIdentifierInsulinDelivery\tquantity
        blood_alcohol_content\tHKQuantityTypeIdentifierBloodAlcoholContent\tquantity
        peripheral_perfusion_index\tHKQuantityTypeIdentifierPeripheralPerfusionIndex\tquantity
        forced_expiratory_volume_1\tHKQuantityTypeIdentifierForcedExpiratoryVolume1\tquantity
        forced_expiratory_volume\tHKQuantityTypeIdentifierForcedExpiratoryVolume1\tquantity
        forced_vital_capacity\tHKQuantityTypeIdentifierForcedVitalCapacity\tquantity
        peak_expiratory_flow_rate\tHKQuantityTypeIdentifierPeakExpiratoryFlowRate\tquantity
        inhaler_usage\tHKQuantityTypeIdentifierInhalerUsage\tquantity
        body_temperature\tHKQuantityTypeIdentifierBodyTemperature\tquantity
        basal_body_temperature\tHKQuantityTypeIdentifierBasalBodyTemperature\tquantity
        apple_sleeping_wrist_temperature\tHKQuantityTypeIdentifierAppleSleepingWristTemperature\tquantity
        breathing_disturbances\tHKQuantityTypeIdentifierAppleSleepingBreathingDisturbances\tquantity
        sleep_analysis\tHKCategoryTypeIdentifierSleepAnalysis\tsleep
        mindful_minutes\tHKCategoryTypeIdentifierMindfulSession\tduration
        weight_body_mass\tHKQuantityTypeIdentifierBodyMass\tquantity
        body_mass\tHKQuantityTypeIdentifierBodyMass\tquantity
        height\tHKQuantityTypeIdentifierHeight\tquantity
        body_mass_index\tHKQuantityTypeIdentifierBodyMassIndex\tquantity
        body_fat_percentage\tHKQuantityTypeIdentifierBodyFatPercentage\tquantity
        lean_body_mass\tHKQuantityTypeIdentifierLeanBodyMass\tquantity
        waist_circumference\tHKQuantityTypeIdentifierWaistCircumference\tquantity
        walking_speed\tHKQuantityTypeIdentifierWalkingSpeed\tquantity
        walking_step_length\tHKQuantityTypeIdentifierWalkingStepLength\tquantity
        walking_asymmetry_percentage\tHKQuantityTypeIdentifierWalkingAsymmetryPercentage\tquantity
        walking_double_support_percentage\tHKQuantityTypeIdentifierWalkingDoubleSupportPercentage\tquantity
        six_minute_walking_test_distance\tHKQuantityTypeIdentifierSixMinuteWalkTestDistance\tquantity
        stair_speed_up\tHKQuantityTypeIdentifierStairAscentSpeed\tquantity
        stair_speed_down\tHKQuantityTypeIdentifierStairDescentSpeed\tquantity
        apple_walking_steadiness\tHKQuantityTypeIdentifierAppleWalkingSteadiness\tquantity
        running_speed\tHKQuantityTypeIdentifierRunningSpeed\tquantity
        running_power\tHKQuantityTypeIdentifierRunningPower\tquantity
        running_stride_length\tHKQuantityTypeIdentifierRunningStrideLength\tquantity
        running_vertical_oscillation\tHKQuantityTypeIdentifierRunningVerticalOscillation\tquantity
        running_ground_contact_time\tHKQuantityTypeIdentifierRunningGroundContactTime\tquantity
        cycling_speed\tHKQuantityTypeIdentifierCyclingSpeed\tquantity
        cycling_power\tHKQuantityTypeIdentifierCyclingPower\tquantity
        cycling_cadence\tHKQuantityTypeIdentifierCyclingCadence\tquantity
        cycling_functional_threshold_power\tHKQuantityTypeIdentifierCyclingFunctionalThresholdPower\tquantity
        environmental_audio_exposure\tHKQuantityTypeIdentifierEnvironmentalAudioExposure\tquantity
        environmental_audio\tHKQuantityTypeIdentifierEnvironmentalAudioExposure\tquantity
        headphone_audio_exposure\tHKQuantityTypeIdentifierHeadphoneAudioExposure\tquantity
        headphone_audio\tHKQuantityTypeIdentifierHeadphoneAudioExposure\tquantity
        uv_exposure\tHKQuantityTypeIdentifierUVExposure\tquantity
        underwater_depth\tHKQuantityTypeIdentifierUnderwaterDepth\tquantity
        water_temperature\tHKQuantityTypeIdentifierWaterTemperature\tquantity
        electrodermal_activity\tHKQuantityTypeIdentifierElectrodermalActivity\tquantity
        number_of_times_fallen\tHKQuantityTypeIdentifierNumberOfTimesFallen\tquantity
        number_of_alcoholic_beverages\tHKQuantityTypeIdentifierNumberOfAlcoholicBeverages\tquantity
        alcohol_consumption\tHKQuantityTypeIdentifierNumberOfAlcoholicBeverages\tquantity
        dietary_energy\tHKQuantityTypeIdentifierDietaryEnergyConsumed\tquantity
        dietary_water\tHKQuantityTypeIdentifierDietaryWater\tquantity
        dietary_sugar\tHKQuantityTypeIdentifierDietarySugar\tquantity
        dietary_caffeine\tHKQuantityTypeIdentifierDietaryCaffeine\tquantity
        caffeine\tHKQuantityTypeIdentifierDietaryCaffeine\tquantity
        dietary_cholesterol\tHKQuantityTypeIdentifierDietaryCholesterol\tquantity
        cholesterol\tHKQuantityTypeIdentifierDietaryCholesterol\tquantity
        dietary_biotin\tHKQuantityTypeIdentifierDietaryBiotin\tquantity
        biotin\tHKQuantityTypeIdentifierDietaryBiotin\tquantity
        carbohydrates\tHKQuantityTypeIdentifierDietaryCarbohydrates\tquantity
        protein\tHKQuantityTypeIdentifierDietaryProtein\tquantity
        total_fat\tHKQuantityTypeIdentifierDietaryFatTotal\tquantity
        saturated_fat\tHKQuantityTypeIdentifierDietaryFatSaturated\tquantity
        monounsaturated_fat\tHKQuantityTypeIdentifierDietaryFatMonounsaturated\tquantity
        monosaturated_fat\tHKQuantityTypeIdentifierDietaryFatMonounsaturated\tquantity
        polyunsaturated_fat\tHKQuantityTypeIdentifierDietaryFatPolyunsaturated\tquantity
        fiber\tHKQuantityTypeIdentifierDietaryFiber\tquantity
        calcium\tHKQuantityTypeIdentifierDietaryCalcium\tquantity
        chloride\tHKQuantityTypeIdentifierDietaryChloride\tquantity
        chromium\tHKQuantityTypeIdentifierDietaryChromium\tquantity
        copper\tHKQuantityTypeIdentifierDietaryCopper\tquantity
        folate\tHKQuantityTypeIdentifierDietaryFolate\tquantity
        iodine\tHKQuantityTypeIdentifierDietaryIodine\tquantity
        iron\tHKQuantityTypeIdentifierDietaryIron\tquantity
        magnesium\tHKQuantityTypeIdentifierDietaryMagnesium\tquantity
        manganese\tHKQuantityTypeIdentifierDietaryManganese\tquantity
        molybdenum\tHKQuantityTypeIdentifierDietaryMolybdenum\tquantity
        niacin\tHKQuantityTypeIdentifierDietaryNiacin\tquantity
        pantothenic_acid\tHKQuantityTypeIdentifierDietaryPantothenicAcid\tquantity
        phosphorus\tHKQuantityTypeIdentifierDietaryPhosphorus\tquantity
        potassium\tHKQuantityTypeIdentifierDietaryPotassium\tquantity
        riboflavin\tHKQuantityTypeIdentifierDietaryRiboflavin\tquantity
        selenium\tHKQuantityTypeIdentifierDietarySelenium\tquantity
        sodium\tHKQuantityTypeIdentifierDietarySodium\tquantity
        thiamin\tHKQuantityTypeIdentifierDietaryThiamin\tquantity
        vitamin_a\tHKQuantityTypeIdentifierDietaryVitaminA\tquantity
        vitamin_b6\tHKQuantityTypeIdentifierDietaryVitaminB6\tquantity
        vitamin_b12\tHKQuantityTypeIdentifierDietaryVitaminB12\tquantity
        vitamin_c\tHKQuantityTypeIdentifierDietaryVitaminC\tquantity
        vitamin_d\tHKQuantityTypeIdentifierDietaryVitaminD\tquantity
        vitamin_e\tHKQuantityTypeIdentifierDietaryVitaminE\tquantity
        vitamin_k\tHKQuantityTypeIdentifierDietaryVitaminK\tquantity
        zinc\tHKQuantityTypeIdentifierDietaryZinc\tquantity
        """
}
