/// The iOS 8/9 export (reference §3.2), modelled on the public 2015 samples: no DOCTYPE, dates as
/// `yyyyMMddHHmmss±hhmm` in the export offset, `source=` instead of `sourceName=`, metadata as attributes of the
/// `Record` (before `value`), pre-aggregated records (`recordCount`; discrete ones with `min`/`max`/`average`
/// and no `value`), categories with `unit=""` and integer values, and `Me` values as integers.
///
/// Its traps for an importer: many records say the same thing apart from their dates (a default 1662 kcal day,
/// a one-reading heart-rate window of exactly 1 count/s, 0 flights), so an importer that cannot read the dates
/// sees them as duplicates; and `count/s` heart rates. Vendor keys with spaces, which made the real iOS 8
/// exporter write XML that is not well formed (radar 21431305), are left out: no XML parser reads those files.
struct LegacyExportWriter {
    let context: ExportContext
    var writer: XMLWriter { context.writer }

    static let phone = "Jonathan’s iPhone"
    static let heartRateApp = "Heart Rate"
    static let sleepApp = "Sleep Cycle"
    static let scale = "Withings"

    func write() throws {
        try writeHeader()
        try writeBody()
        try writeAggregates()
        try writeHeartRate()
        try writeSleep()
    }

    private func writeHeader() throws {
        try writer.raw(" <ExportDate value=\"")
        try writer.raw(context.clock.compact(context.exportTime))
        try writer.raw("\"/>\n")
        // HealthKit's enum raw values: male (2), O- (8), skin type not set (0); the birthday as yyyyMMdd.
        try writer.raw(
            " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"19840616\" HKCharacteristicTypeIdentifierBiologicalSex=\"2\""
                + " HKCharacteristicTypeIdentifierBloodType=\"8\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"0\"/>\n"
        )
    }

    /// Height once and body mass each morning, entered by hand; every third day also from the scale's app.
    private func writeBody() throws {
        var random = context.random("legacy-height", day: 0)
        let first = context.plan(0).wake + 600
        try record(
            "HKQuantityTypeIdentifierHeight", source: "Health", unit: "m", created: first + Int64(random.int(5...50)),
            start: first, end: first, attributes: [("HKWasUserEntered", "1")], value: "1.81")
        for day in 0..<context.days {
            var random = context.random("legacy-body-mass", day: day)
            let time = (context.plan(day).wake + Int64(random.int(300...1_500))) / 60 * 60
            let kilograms = (random.double(70.5, 72.5) * 10).rounded() / 10
            try record(
                "HKQuantityTypeIdentifierBodyMass", source: "Health", unit: "kg",
                created: time + Int64(random.int(5...59)), start: time, end: time,
                attributes: [("HKWasUserEntered", "1")], value: NumberText.g(kilograms))
            guard day % 3 == 0 else { continue }
            try record(
                "HKQuantityTypeIdentifierBodyMass", source: Self.scale, unit: "kg", created: time + 3_600,
                start: time + 20, end: time + 20,
                attributes: [("HKExternalUUID", "withings-\(context.seed)-\(day)"), ("HKWasUserEntered", "0")],
                value: NumberText.g(kilograms + 0.3))
        }
    }

    /// One pre-aggregated record per type and local day, as the phone kept its motion data then.
    private func writeAggregates() throws {
        let types: [(String, String)] = [
            ("HKQuantityTypeIdentifierStepCount", "count"), ("HKQuantityTypeIdentifierDistanceWalkingRunning", "m"),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal"), ("HKQuantityTypeIdentifierFlightsClimbed", "count"),
        ]
        for (type, unit) in types {
            for day in 0..<context.days {
                let plan = context.plan(day)
                var random = context.random("legacy-aggregates", day: day)
                let steps = random.int(1_500...16_000)
                let values: [String: Double] = [
                    "count": type.hasSuffix("StepCount")
                        ? Double(steps) : Double(day % 4 == 1 ? 0 : random.int(1...14)),
                    "m": (Double(steps) * 0.74 * 100).rounded() / 100,
                    // The phone's default on days it had nothing better: the same value day after day.
                    "kcal": day % 3 == 0 ? 1_662 : Double(random.int(1_700...2_900)),
                ]
                let value = values[unit]!
                try record(
                    type, source: Self.phone, unit: unit, created: nil, start: plan.start, end: plan.end,
                    attributes: [("recordCount", String(random.int(24...380)))], value: NumberText.g(value))
                context.tally.aggregatedRecords += 1
                if type.hasSuffix("StepCount") {
                    context.tally.addSteps(
                        day: CivilDate.dayText(context.clock.localDay(plan.start)), source: Self.phone, count: steps)
                }
            }
        }
    }

    /// Hourly heart-rate windows in `count/s` with their minimum, maximum and mean; a noon window with one
    /// reading of exactly 1 count/s every day.
    private func writeHeartRate() throws {
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("legacy-heart-rate", day: day)
            let noon = plan.start + 12 * 3_600 + 35 * 60
            try aggregateHeartRate(start: noon, readings: [1])
            for hour in [8, 10, 15, 18, 21] where random.chance(0.8) {
                let count = random.int(1...6)
                let readings = (0..<count).map { _ in (random.double(0.9, 2.4) * 1e4).rounded() / 1e4 }
                try aggregateHeartRate(start: plan.start + Int64(hour * 3_600), readings: readings)
            }
        }
    }

    private func aggregateHeartRate(start: Int64, readings: [Double]) throws {
        let average = readings.reduce(0, +) / Double(readings.count)
        try record(
            "HKQuantityTypeIdentifierHeartRate", source: Self.heartRateApp, unit: "count/s", created: nil,
            start: start, end: start + 3_600,
            attributes: [
                ("min", NumberText.g(readings.min()!)), ("max", NumberText.g(readings.max()!)),
                ("average", NumberText.g(average)), ("recordCount", String(readings.count)),
            ],
            value: nil)
        context.tally.aggregatedRecords += 1
    }

    /// Sleep Cycle nights: `unit=""`, the app's session id as an attribute, HealthKit's enum numbers as values:
    /// in bed (0) from a few minutes before falling asleep to a few after waking, asleep (1) in between.
    private func writeSleep() throws {
        for day in 1..<max(1, context.days) {
            let plan = context.plan(day)
            var random = context.random("legacy-sleep", day: day)
            let inBed = (
                start: plan.sleepStart - Int64(random.int(5...25)) * 60, end: plan.wake + Int64(random.int(2...10)) * 60
            )
            for (value, start, end) in [(0, inBed.start, inBed.end), (1, plan.sleepStart, plan.wake)] {
                try record(
                    "HKCategoryTypeIdentifierSleepAnalysis", source: Self.sleepApp, unit: "", created: inBed.end + 7,
                    start: start, end: end, attributes: [("sessionId", "p\(day)")], value: String(value))
                let night = CivilDate.dayText(context.clock.localDay(end))
                context.tally.addSleep(night: night, value: Self.sleepValueNames[value], seconds: end - start)
            }
        }
    }

    /// The names iOS 8–15 exports wrote for the sleep values this writer writes as numbers.
    static let sleepValueNames = ["HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleep"]

    private func record(
        _ type: String, source: String, unit: String, created: Int64?, start: Int64, end: Int64,
        attributes: [(String, String)], value: String?
    ) throws {
        try writer.raw(" <Record type=\"")
        try writer.raw(type)
        try writer.byte(0x22)
        try writer.attr("source", source)
        try writer.attr("unit", unit)
        if let created { try writer.attr("creationDate", context.clock.compact(created)) }
        try writer.attr("startDate", context.clock.compact(start))
        try writer.attr("endDate", context.clock.compact(end))
        for (name, text) in attributes {
            try writer.byte(0x20)
            try writer.raw(name)
            try writer.raw("=\"")
            try writer.escaped(text)
            try writer.byte(0x22)
        }
        if let value { try writer.attr("value", value) }
        try writer.raw("/>\n")
        context.tally.addRecord(type: type, isCategory: type.hasPrefix("HKCategoryTypeIdentifier"))
        context.tally.metadataAttributes += attributes.count
    }
}

extension ExportClock {
    /// The iOS 8/9 exporter's `yyyyMMddHHmmss±hhmm`, in the export offset.
    func compact(_ time: Int64) -> String {
        let local = time + Int64(offsetSeconds)
        let days = CivilDate.floorDiv(local, 86_400)
        let seconds = Int(local - days * 86_400)
        let (year, month, day) = CivilDate.civil(days: Int(days))
        let t2 = NumberText.twoDigits
        let clock = t2(seconds / 3_600) + t2(seconds / 60 % 60) + t2(seconds % 60)
        return String(year) + t2(month) + t2(day) + clock + String(decoding: offsetText, as: UTF8.self)
    }
}
