/// One logged meal. Regenerated for the top-level dietary records and for the Food `Correlation` that contains
/// the same records again.
struct Meal {
    let time: Int64
    let created: Int64
    let name: String
    let foodType: String
    let energyKcal: Double
    let carbohydrates: Double
    let protein: Double
}

/// Body measurements (vendor metadata, sync-version chains, mixed lb/kg), nutrition and other "other" types.
struct BodyRecords {
    let context: ExportContext

    static func meals(context: ExportContext, day: Int) -> [Meal] {
        guard day % 2 == 0 else { return [] }
        var random = context.random("meals", day: day)
        let plan = context.plan(day)
        let names = [("Breakfast", "Oatmeal with berries"), ("Lunch", "pizza"), ("Dinner", "Pasta & salad")]
        return names.enumerated().map { index, meal in
            let time = plan.wake + Int64(1_800 + index * 19_800 + random.int(0...1_800))
            return Meal(
                time: time, created: time + Int64(random.int(60...7_200)), name: meal.0, foodType: meal.1,
                energyKcal: random.double(320, 880), carbohydrates: random.double(30, 110),
                protein: random.double(12, 48))
        }
    }

    /// Withings scale weigh-ins in kg with the vendor's metadata (keys with spaces, a URL with `&`, an NSDate),
    /// some re-synced as version 2 and 3 of the same sync identifier; manual entries in lb.
    func writeBodyMass() throws {
        let type = "HKQuantityTypeIdentifierBodyMass"
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("body-mass", day: day)
            if day % 2 == 0 {
                let time = plan.wake + Int64(random.int(120...900))
                let kilograms = 78.4 - Double(day) * 0.01 + random.double(-0.6, 0.6)
                let versions = day % 10 == 2 ? 3 : (day % 6 == 4 ? 2 : 1)
                let syncID = "withings-\(context.seed % 1_000)-\(day)"
                for version in 1...versions {
                    let utcMeasure = ExportClock.utcDescription(time + Int64(version * 37))
                    let epoch = time - 978_307_200
                    try context.writeRecord(
                        type: type, source: context.sources.healthMate, unit: "kg",
                        created: time + Int64(version * 3_600), start: time, end: time,
                        value: .quantity(kilograms + Double(version - 1) * 0.1),
                        metadata: [
                            ("Health Mate App Version", "6.2.0"),
                            ("Withings User Identifier", "12345"),
                            ("Modified Date", utcMeasure),
                            ("Withings Link", "withings-bd2://timeline/measure?userid=12345&date=\(epoch)&type=1"),
                            ("HKWasUserEntered", "0"),
                            ("HKMetadataKeySyncIdentifier", syncID),
                            ("HKMetadataKeySyncVersion", String(version)),
                        ])
                }
                context.tally.syncSuperseded += versions - 1
            }
            if day % 7 == 3 {
                let time = plan.wake + 3_000
                try context.writeRecord(
                    type: type, source: context.sources.health, unit: "lb", created: time + 40, start: time, end: time,
                    value: .quantity((random.double(170, 174) * 10).rounded() / 10),
                    metadata: [("HKWasUserEntered", "1")])
            }
        }
    }

    func writeScaleExtras(type: String, unit: String, range: ClosedRange<Double>) throws {
        for day in stride(from: 0, to: context.days, by: 2) {
            var random = context.random("body-composition", day: day)
            let time = context.plan(day).wake + Int64(random.int(120...900))
            try context.writeRecord(
                type: type, source: context.sources.healthMate, unit: unit, created: time + 3_600, start: time,
                end: time, value: .quantity(random.double(range.lowerBound, range.upperBound)),
                metadata: [("Health Mate App Version", "6.2.0"), ("HKWasUserEntered", "0")])
        }
    }

    func writeHeight() throws {
        let time = context.plan(0).wake + 7_200
        try context.writeRecord(
            type: "HKQuantityTypeIdentifierHeight", source: context.sources.health, unit: "cm", created: time + 5,
            start: time, end: time, value: .quantity(181), metadata: [("HKWasUserEntered", "1")])
    }

    func writeDietary(type: String, unit: String, pick: (Meal) -> Double) throws {
        for day in 0..<context.days {
            for meal in Self.meals(context: context, day: day) {
                try context.writeRecord(
                    type: type, source: context.sources.myFitnessPal, unit: unit, created: meal.created,
                    start: meal.time, end: meal.time, value: .quantity(pick(meal)), metadata: mealMetadata(meal))
            }
        }
    }

    /// MyFitnessPal writes both `Meal` and `meal` (near-duplicate keys seen in real files); the lower-case one can
    /// be left out, for importers that make a column per key and fail on the pair (healthkit-to-sqlite).
    func mealMetadata(_ meal: Meal) -> Metadata {
        guard context.options.includeCaseVariantKeys else {
            return [("Meal", meal.name), ("HKFoodType", meal.foodType)]
        }
        return [("Meal", meal.name), ("meal", meal.name.lowercased()), ("HKFoodType", meal.foodType)]
    }

    /// Water entries with sync identifiers (versions 1→2→3 on some), and one manual entry repeated eight times.
    func writeWater() throws {
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("water", day: day)
            for index in 0..<random.int(3...5) {
                let time = plan.wake + Int64(index * 9_000 + random.int(0...3_000))
                let versions = (day + index) % 9 == 0 ? 3 : ((day + index) % 4 == 1 ? 2 : 1)
                let syncID = random.uuid()
                for version in 1...versions {
                    try context.writeRecord(
                        type: "HKQuantityTypeIdentifierDietaryWater", source: context.sources.waterApp, unit: "mL",
                        created: time + Int64(version * 600), start: time, end: time,
                        value: .quantity(Double(250 + 50 * version)),
                        metadata: [
                            ("HKMetadataKeySyncIdentifier", syncID), ("HKMetadataKeySyncVersion", String(version)),
                        ])
                }
                context.tally.syncSuperseded += versions - 1
            }
            if day == min(1, context.days - 1) && context.options.includeDuplicates {
                let time = plan.wake + 20_000
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierDietaryWater", source: context.sources.health, unit: "mL",
                    created: time + 10, start: time, end: time, value: .quantity(500),
                    metadata: [("HKWasUserEntered", "1")], copies: 8)
            }
        }
    }

    /// `HKDataTypeSleepDurationGoal`: a non-SDK identifier (no `TypeIdentifier` in it) written as a Record in `hr`.
    func writeSleepGoal() throws {
        guard context.profile.isModern else { return }
        for day in stride(from: 0, to: context.days, by: 30) {
            let time = context.plan(day).start + 43_200
            try context.writeRecord(
                type: "HKDataTypeSleepDurationGoal", source: context.sources.health, unit: "hr", created: time,
                start: time, end: time, value: .quantity(day == 0 ? 8 : 7.5))
        }
    }

    /// Weekly six-minute-walk estimates with an NSDate metadata value (`… +0000`).
    func writeSixMinuteWalk() throws {
        guard context.profile.isModern else { return }
        for day in stride(from: 6, to: context.days, by: 7) {
            let plan = context.plan(day)
            var random = context.random("six-minute-walk", day: day)
            let earliest = context.plan(max(0, day - 6)).start + 7 * 3_600
            try context.writeRecord(
                type: "HKQuantityTypeIdentifierSixMinuteWalkTestDistance", source: context.sources.iPhone, unit: "m",
                created: plan.end - 3_600, start: plan.start + 3_600, end: plan.start + 3_600,
                value: .quantity(random.double(540, 610)),
                metadata: [
                    ("HKDateOfEarliestDataUsedForEstimate", ExportClock.utcDescription(earliest)),
                    ("HKMetadataKeyAppleDeviceCalibrated", "1"),
                ])
        }
    }
}
