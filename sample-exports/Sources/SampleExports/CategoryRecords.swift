/// Category records: no `unit`, `value` an enum string, or no `value` at all for NotApplicable types.
struct CategoryRecords {
    let context: ExportContext

    private let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    private func sleep(_ stage: String) -> RecordValue {
        .text("HKCategoryValueSleepAnalysis" + stage)
    }

    /// Overlapping sleep intervals from several sources: the phone's InBed, the Watch's stages (iOS 16+), AutoSleep's
    /// InBed + Asleep, and on iOS 12 `Clock` InBed plus manual `…Asleep` entries.
    func writeSleep() throws {
        let sources = context.sources
        let zone: Metadata = [("HKTimeZone", context.zoneName)]
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("sleep", day: day)
            let inBedStart = plan.sleepStart - Int64(random.int(300...1_500))
            let inBedEnd = plan.wake + Int64(random.int(60...900))
            if context.profile.isModern {
                try context.writeRecord(
                    type: sleepType, source: sources.iPhone, created: inBedEnd + 30, start: inBedStart, end: inBedEnd,
                    value: sleep("InBed"), metadata: zone)
                var cursor = plan.sleepStart
                let cycle = ["AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM", "Awake"]
                var index = 0
                while cursor < plan.wake {
                    let stage = cycle[index % cycle.count]
                    let minutes = stage == "Awake" ? random.int(1...5) : random.int(8...42)
                    let end = min(plan.wake, cursor + Int64(minutes * 60))
                    try context.writeRecord(
                        type: sleepType, source: sources.watch, created: plan.wake + 600, start: cursor, end: end,
                        value: sleep(stage), metadata: zone)
                    cursor = end
                    index += 1
                }
            } else {
                try context.writeRecord(
                    type: sleepType, source: sources.clock, created: inBedEnd + 5, start: inBedStart, end: inBedEnd,
                    value: sleep("InBed"), metadata: zone)
                if day % 5 == 2 {
                    try context.writeRecord(
                        type: sleepType, source: sources.health, created: plan.wake + 9_000, start: plan.sleepStart,
                        end: plan.wake, value: sleep("Asleep"), metadata: [("HKWasUserEntered", "1")])
                }
            }
            if day % 3 == 0 {
                let asleep = context.profile.isModern ? "AsleepUnspecified" : "Asleep"
                try context.writeRecord(
                    type: sleepType, source: sources.autoSleep, created: plan.wake + 4_000, start: inBedStart + 120,
                    end: inBedEnd - 60, value: sleep("InBed"))
                try context.writeRecord(
                    type: sleepType, source: sources.autoSleep, created: plan.wake + 4_000,
                    start: plan.sleepStart + 300, end: plan.wake - 120, value: sleep(asleep))
            }
        }
    }

    /// One record per awake hour while the Watch is worn.
    func writeStandHours() throws {
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("stand-hours", day: day)
            var hour = plan.start + 3_600 * ((plan.wake - plan.start) / 3_600 + 1)
            while hour + 3_600 <= plan.bedtime {
                if plan.watchWorn(at: hour + 1_800) {
                    let stood = random.chance(0.72)
                    try context.writeRecord(
                        type: "HKCategoryTypeIdentifierAppleStandHour", source: context.sources.watch,
                        created: hour + 3_600 + Int64(random.int(0...400)), start: hour, end: hour + 3_600,
                        value: .text("HKCategoryValueAppleStandHour" + (stood ? "Stood" : "Idle")))
                }
                hour += 3_600
            }
        }
    }

    /// No `value` attribute. One third-party app's name and note carry a U+000B when control characters are on.
    func writeMindfulSessions() throws {
        let note = context.options.includeControlCharacters ? "evening\u{0B}wind-down" : "evening wind-down"
        for day in 0..<context.days where day % 3 == 1 {
            let plan = context.plan(day)
            var random = context.random("mindful", day: day)
            let start = plan.bedtime - Int64(random.int(1_200...3_000))
            try context.writeRecord(
                type: "HKCategoryTypeIdentifierMindfulSession", source: context.sources.mindfulApp,
                created: start + 660, start: start, end: start + 600, value: .none,
                metadata: [
                    ("com.zenbreath.session_note", note),
                    ("com.fitstar.session_id", "FS-\(day)-\(random.int(1000...9999))"),
                ])
            if day % 6 == 1 {
                try context.writeRecord(
                    type: "HKCategoryTypeIdentifierMindfulSession", source: context.sources.health,
                    created: plan.wake + 7_000, start: plan.wake + 3_600, end: plan.wake + 3_900, value: .none,
                    metadata: [("HKWasUserEntered", "1")])
            }
        }
    }

    /// No `value` attribute; the threshold is a quantity metadata value (`120 count/min`).
    func writeHighHeartRateEvents() throws {
        for day in 0..<context.days where day % 10 == 5 {
            let plan = context.plan(day)
            let start = plan.wake + 5 * 3_600
            try context.writeRecord(
                type: "HKCategoryTypeIdentifierHighHeartRateEvent", source: context.sources.watch,
                created: start + 700, start: start, end: start + 600, value: .none,
                metadata: [("HKHeartRateEventThreshold", "120 count/min")])
        }
    }
}

/// Blood-pressure and food correlations. Their child Records were already written at top level; here they are
/// written again inside the Correlation, exactly as the real exporter duplicates them.
struct CorrelationRecords {
    let context: ExportContext

    func write() throws {
        for day in 0..<context.days {
            for reading in VitalsRecords.bloodPressure(context: context, day: day) {
                try open(
                    "HKCorrelationTypeIdentifierBloodPressure", source: context.sources.omron, created: reading.created,
                    start: reading.time, end: reading.time,
                    metadata: [("HKExternalUUID", reading.externalID), ("HKWasUserEntered", "0")])
                for (type, value) in [
                    ("HKQuantityTypeIdentifierBloodPressureDiastolic", reading.diastolic),
                    ("HKQuantityTypeIdentifierBloodPressureSystolic", reading.systolic),
                ] {
                    try context.writeRecord(
                        type: type, source: context.sources.omron, unit: "mmHg", created: reading.created,
                        start: reading.time, end: reading.time, value: .quantity(value), depth: 2)
                }
                try context.writer.raw(" </Correlation>\n")
            }
        }
        let body = BodyRecords(context: context)
        let profile = context.profile
        for day in 0..<context.days {
            for meal in BodyRecords.meals(context: context, day: day) {
                let source = context.sources.myFitnessPal
                try open(
                    "HKCorrelationTypeIdentifierFood", source: source, created: meal.created, start: meal.time,
                    end: meal.time, metadata: body.mealMetadata(meal))
                let energy = profile.dietaryEnergyUnit == "kJ" ? meal.energyKcal * 4.184 : meal.energyKcal
                for (type, unit, value) in [
                    ("HKQuantityTypeIdentifierDietaryEnergyConsumed", profile.dietaryEnergyUnit, energy),
                    ("HKQuantityTypeIdentifierDietaryCarbohydrates", "g", meal.carbohydrates),
                    ("HKQuantityTypeIdentifierDietaryProtein", "g", meal.protein),
                ] {
                    try context.writeRecord(
                        type: type, source: source, unit: unit, created: meal.created, start: meal.time,
                        end: meal.time, value: .quantity(value), metadata: body.mealMetadata(meal), depth: 2)
                }
                try context.writer.raw(" </Correlation>\n")
            }
        }
    }

    private func open(
        _ type: String, source: Source, created: Int64, start: Int64, end: Int64, metadata: Metadata
    ) throws {
        let writer = context.writer
        try writer.raw(" <Correlation type=\"")
        try writer.raw(type)
        try writer.byte(0x22)
        try context.writeSource(source)
        try writer.attrDate("creationDate", created)
        try writer.attrDate("startDate", start)
        try writer.attrDate("endDate", end)
        try writer.raw(">\n")
        try context.writeMetadata(metadata, depth: 2)
        context.tally.correlations += 1
    }
}
