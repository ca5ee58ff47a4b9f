/// One blood-pressure measurement. Regenerated from its day's stream both for the top-level Systolic/Diastolic
/// records and for the `Correlation` that repeats them, as the real export does.
struct BloodPressureReading {
    let time: Int64
    let created: Int64
    let systolic: Double
    let diastolic: Double
    let externalID: String
}

/// Heart and other vital-sign quantity types (the exporter's first category), and blood glucose (results).
struct VitalsRecords {
    let context: ExportContext

    static func bloodPressure(context: ExportContext, day: Int) -> [BloodPressureReading] {
        guard day % 3 == 1 else { return [] }
        var random = context.random("blood-pressure", day: day)
        let plan = context.plan(day)
        return (0..<random.int(1...2)).map { index in
            let time = plan.wake + Int64(index * 36_000 + random.int(600...3_000))
            return BloodPressureReading(
                time: time, created: time + Int64(random.int(20...600)), systolic: Double(random.int(112...138)),
                diastolic: Double(random.int(68...88)), externalID: random.uuid())
        }
    }

    /// Dense Watch heart rate: every few minutes while worn, every few seconds during workouts, with the motion
    /// context metadata (0 not set, 1 sedentary, 2 active).
    func writeHeartRate() throws {
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("heart-rate", day: day)
            let rest = Int64(max(60, (300 / context.scale).rounded()))
            let active = Int64(max(5, (10 / context.scale).rounded()))
            var cursor = plan.start + Int64(random.int(0...200))
            while cursor < plan.end {
                let workout = plan.workout(at: cursor)
                if plan.watchWorn(at: cursor) {
                    let asleep = cursor < plan.wake || cursor >= plan.bedtime
                    let bpm: Double
                    let motion: String
                    if workout != nil {
                        bpm = Double(random.int(118...172))
                        motion = "2"
                    } else if asleep {
                        bpm = Double(random.int(48...62))
                        motion = "0"
                    } else {
                        bpm = Double(random.int(58...96))
                        motion = random.chance(0.7) ? "1" : "0"
                    }
                    try context.writeRecord(
                        type: "HKQuantityTypeIdentifierHeartRate", source: context.sources.watch, unit: "count/min",
                        created: cursor + Int64(random.int(30...600)), start: cursor, end: cursor,
                        value: .quantity(bpm), metadata: [("HKMetadataKeyHeartRateMotionContext", motion)],
                        copies: context.copies(&random, probability: 0.006))
                }
                cursor += workout != nil ? active + Int64(random.int(0...3)) : rest + Int64(random.int(-90...90))
            }
        }
    }

    func writeDaily(type: String, unit: String, range: ClosedRange<Double>, modernOnly: Bool) throws {
        if modernOnly && !context.profile.isModern { return }
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("daily-vital", day: day)
            let time = plan.bedtime - Int64(random.int(600...3_600))
            try context.writeRecord(
                type: type, source: context.sources.watch, unit: unit, created: time + 60, start: plan.wake,
                end: time,
                value: .quantity(
                    random.double(range.lowerBound, range.upperBound).rounded()
                        + PlantedIllness.shift(type, day: day, context)))
        }
    }

    /// Night-time readings: SpO2 as a fraction (0.97, unit `%`) and respiratory rate.
    func writeNightly(type: String, unit: String, every: Int64, range: ClosedRange<Double>) throws {
        guard context.profile.isModern else { return }
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("nightly-vital", day: day)
            var cursor = plan.sleepStart + every / 2
            while cursor < plan.wake {
                let value =
                    (random.double(range.lowerBound, range.upperBound) * 100).rounded() / 100
                    + PlantedIllness.shift(type, day: day, context)
                try context.writeRecord(
                    type: type, source: context.sources.watch, unit: unit, created: plan.wake + 600, start: cursor,
                    end: cursor + (unit == "%" ? 0 : 300), value: .quantity(value))
                cursor += every + Int64(random.int(-600...600))
            }
        }
    }

    /// A third-party thermometer whose name needs escaping (`&`, `<`), in degF, some with `HKTimeZone`.
    func writeBodyTemperature() throws {
        for day in stride(from: 0, to: context.days, by: 4) {
            var random = context.random("body-temperature", day: day)
            let time = context.plan(day).wake + Int64(random.int(300...1_800))
            let metadata: Metadata = day % 8 == 0 ? [("HKTimeZone", context.zoneName)] : []
            try context.writeRecord(
                type: "HKQuantityTypeIdentifierBodyTemperature", source: context.sources.thermometer, unit: "degF",
                created: time + 30, start: time, end: time, value: .quantity(random.double(97.4, 99.6)),
                metadata: metadata)
        }
    }

    func writeBloodPressure(systolic: Bool) throws {
        for day in 0..<context.days {
            for reading in Self.bloodPressure(context: context, day: day) {
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierBloodPressure" + (systolic ? "Systolic" : "Diastolic"),
                    source: context.sources.omron, unit: "mmHg", created: reading.created, start: reading.time,
                    end: reading.time, value: .quantity(systolic ? reading.systolic : reading.diastolic))
            }
        }
    }

    /// VO2 max in `mL/min·kg` (U+00B7 in the unit) after some outdoor walks and runs.
    func writeVO2Max() throws {
        for day in 0..<context.days {
            var random = context.random("vo2max", day: day)
            for workout in context.plan(day).workouts where workout.kind == .running && day % 2 == 0 {
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierVO2Max", source: context.sources.watch, unit: "mL/min·kg",
                    created: workout.end + 1_200, start: workout.end, end: workout.end,
                    value: .quantity(random.double(38, 47)), metadata: [("HKVO2MaxTestType", "2")])
            }
        }
    }

    func writeWristTemperature() throws {
        guard context.profile.isModern else { return }
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("wrist-temperature", day: day)
            try context.writeRecord(
                type: "HKQuantityTypeIdentifierAppleSleepingWristTemperature", source: context.sources.watch,
                unit: "degC", created: plan.wake + 900, start: plan.sleepStart, end: plan.wake,
                value: .quantity(
                    random.double(34.9, 35.9)
                        + PlantedIllness.shift(
                            "HKQuantityTypeIdentifierAppleSleepingWristTemperature", day: day, context)),
                metadata: [("HKTimeZone", context.zoneName)])
        }
    }

    /// A CGM app in `mmol<180.1558800000541>/L` and manual fingersticks in `mg/dL`: two units in one type.
    func writeBloodGlucose() throws {
        let cgm = Source(name: "Dexcom G7", version: "2.3.1", device: nil)
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("glucose", day: day)
            for index in 0..<4 {
                let time = plan.wake + Int64(index * 14_400 + random.int(0...1_200))
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierBloodGlucose", source: cgm, unit: "mmol<180.1558800000541>/L",
                    created: time + 300, start: time, end: time, value: .quantity(random.double(4.2, 8.9)))
            }
            if day % 3 == 0 {
                let time = plan.wake + 1_800
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierBloodGlucose", source: context.sources.health, unit: "mg/dL",
                    created: time + 120, start: time, end: time, value: .quantity(Double(random.int(78...140))),
                    metadata: [("HKBloodGlucoseMealTime", day % 2 == 0 ? "1" : "2"), ("HKWasUserEntered", "1")])
            }
        }
    }

    /// Written last, with each record's beat-to-beat list; see `HRVRecords`.
    func writeHeartRateVariability() throws {
        try HRVRecords(context: context).write()
    }
}

/// A short illness planted into chosen days (`GeneratorOptions.illnessDays`), as a watch sees one: resting heart
/// rate, respiratory rate and wrist temperature up, heart rate variability down. The shifts are several times
/// the generated day-to-day spread, so the days stand out against any normal made of the other days.
enum PlantedIllness {
    static func isIll(day: Int, _ context: ExportContext) -> Bool {
        context.options.illnessDays?.contains(day) ?? false
    }

    /// What is added to a value of `type` on `day`.
    static func shift(_ type: String, day: Int, _ context: ExportContext) -> Double {
        guard isIll(day: day, context) else { return 0 }
        switch type {
        case "HKQuantityTypeIdentifierRestingHeartRate": return 20
        case "HKQuantityTypeIdentifierRespiratoryRate": return 4
        case "HKQuantityTypeIdentifierAppleSleepingWristTemperature": return 1.6
        default: return 0
        }
    }

    /// What heart rate variability is multiplied by on `day`.
    static func hrvFactor(day: Int, _ context: ExportContext) -> Double { isIll(day: day, context) ? 0.3 : 1 }
}
