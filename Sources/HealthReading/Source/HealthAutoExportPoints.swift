import HealthModel

/// The points of one Health Auto Export metric, turned into samples one at a time.
///
/// A point is a bucket of HealthKit's statistics (per minute by default; the automation can also group by
/// second, hour or day) and carries only its start. The bucket's length is read from the points themselves:
/// the first point not on a whole minute makes the metric per second (instants), the first on a minute that is
/// not a whole hour makes it per minute; a metric whose points all fall on whole hours (of the point's own
/// offset) is hourly, on midnights daily. Until that is known, at most `bufferLimit` samples wait.
struct FeedPoints {
    private(set) var name = ""
    private var metric: HealthAutoExportMetrics.Metric?
    private var units = ""
    private var unit = (text: "", factor: 1.0)
    private(set) var count = 0
    /// Per type: the earliest start and latest end of what was emitted.
    private(set) var spans: [String: (start: Int64, end: Int64)] = [:]
    private var interval: Int64?
    private var sawWholeHours = false
    private var waiting: [Sample] = []
    static let bufferLimit = 4096

    mutating func start(name: String, metric: HealthAutoExportMetrics.Metric?, units: String) {
        self.name = name
        self.metric = metric
        self.units = units
        unit = Self.normalizedUnit(units, identifier: metric?.identifier ?? "")
        count = 0
        spans = [:]
        spanType = nil
        interval = nil
        sawWholeHours = false
        waiting.removeAll(keepingCapacity: true)
    }

    mutating func add(
        _ point: JSONFlatObject, line: Int, warnings: inout [String: Int], sources: FeedSources,
        emit: (consuming ExportItem) throws -> Void
    ) throws {
        guard point.isObject else {
            warnings["Health Auto Export points that are not JSON objects (skipped)", default: 0] += 1
            return
        }
        count += 1
        let source = sources.source(point)
        let line = Int32(clamping: line)
        switch metric?.shape {
        case .sleep:
            for sample in FeedSleep.samples(point, source: source, line: line, warnings: &warnings) {
                try send(sample, emit)
            }
            return
        case .duration:
            guard let start = point.timestamp("date") else { return missingDate(&warnings) }
            guard let metric, let quantity = point.double("qty"), quantity > 0 else {
                warnings["Health Auto Export duration points of 0 or without qty (nothing to store)", default: 0] += 1
                return
            }
            let perUnit: Double = units == "min" ? 60 : units == "s" ? 1 : 3_600  // hr, and `count` of stand hours
            var sample = Sample(type: metric.identifier, source: source, line: line)
            sample.textValue = metric.categoryValue
            sample.startDate = start
            sample.endDate = Timestamp(
                seconds: start.seconds + Int64((quantity * perUnit).rounded()), offsetSeconds: start.offsetSeconds)
            try send(sample, emit)
            return
        default:
            break
        }
        guard let start = point.timestamp("date") else { return missingDate(&warnings) }
        let identifier = metric?.identifier ?? ""
        noteAlignment(start)
        if metric?.shape == .quantity, let interval, waiting.isEmpty {
            // The common case, once the bucket length is known: one sample, straight on.
            var sample = quantitySample(identifier, source: source, line: line, start: start)
            setValue(&sample, point.double("qty"))
            sample.endDate = Timestamp(seconds: start.seconds + interval, offsetSeconds: start.offsetSeconds)
            return try send(sample, emit)
        }
        var samples: [Sample] = []
        switch metric?.shape {
        case .heartRate:
            var sample = quantitySample(identifier, source: source, line: line, start: start)
            let average = point.double("Avg") ?? point.double("qty")
            setValue(&sample, average)
            for (key, name) in [("Min", "min"), ("Max", "max")] {
                if let value = point.double(key) {
                    sample.metadata.append(MetadataEntry(key: name, value: "\(value * unit.factor)" + " " + unit.text))
                }
            }
            samples.append(sample)
        case .bloodPressure:
            for (key, type) in [
                ("systolic", "HKQuantityTypeIdentifierBloodPressureSystolic"),
                ("diastolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"),
            ] {
                var sample = quantitySample(type, source: source, line: line, start: start)
                sample.unit = units.isEmpty ? "mmHg" : unit.text
                setValue(&sample, point.double(key))
                samples.append(sample)
            }
        case .bloodGlucose:
            var sample = quantitySample(identifier, source: source, line: line, start: start)
            setValue(&sample, point.double("qty"))
            if let meal = point.string("mealTime"), !meal.isEmpty {
                sample.metadata.append(MetadataEntry(key: "mealTime", value: meal))
            }
            samples.append(sample)
        case .quantity:
            var sample = quantitySample(identifier, source: source, line: line, start: start)
            setValue(&sample, point.double("qty"))
            samples.append(sample)
        case nil, .sleep, .duration:
            // Not in the table: kept under its own name, every other field in metadata.
            var sample = quantitySample(
                HealthAutoExportMetrics.unknownIdentifier(name), source: source, line: line, start: start)
            setValue(&sample, point.double("qty"))
            for field in point.fields where !["date", "qty", "source"].contains(field.key) && field.kind != .null {
                sample.metadata.append(MetadataEntry(key: field.key, value: point.text(field.range)))
            }
            samples.append(sample)
        }
        for sample in samples {
            if let interval {
                var sample = sample
                sample.endDate = Timestamp(seconds: start.seconds + interval, offsetSeconds: start.offsetSeconds)
                try send(sample, emit)
            } else {
                waiting.append(sample)
            }
        }
        if interval == nil, waiting.count >= Self.bufferLimit { try decide(emit) }
        if interval != nil, !waiting.isEmpty { try flush(emit) }
    }

    mutating func finish(warnings: inout [String: Int], emit: (consuming ExportItem) throws -> Void) throws {
        if !waiting.isEmpty { try decide(emit) }
        closeSpan()
    }

    // MARK: - Buckets

    private mutating func noteAlignment(_ start: Timestamp) {
        guard interval == nil else { return }
        let local = start.seconds + Int64(start.offsetSeconds)
        if local % 60 != 0 {
            interval = 0
        } else if (local / 60) % 60 != 0 {
            interval = 60
        } else if (local / 3_600) % 24 != 0 {
            sawWholeHours = true
        }
    }

    private mutating func decide(_ emit: (consuming ExportItem) throws -> Void) throws {
        if interval == nil { interval = sawWholeHours ? 3_600 : 86_400 }
        try flush(emit)
    }

    private mutating func flush(_ emit: (consuming ExportItem) throws -> Void) throws {
        guard let interval else { return }
        let held = waiting
        waiting.removeAll(keepingCapacity: true)
        for var sample in held {
            if let start = sample.startDate {
                sample.endDate = Timestamp(seconds: start.seconds + interval, offsetSeconds: start.offsetSeconds)
            }
            try send(sample, emit)
        }
    }

    private mutating func send(_ sample: consuming Sample, _ emit: (consuming ExportItem) throws -> Void) throws {
        if let start = sample.startDate?.seconds {
            // What the file covers, by start (a later file replaces the feed rows whose start lies inside).
            if sample.type == spanType {
                span = (min(span.start, start), max(span.end, start))
            } else {
                closeSpan()
                spanType = sample.type
                span = spans[sample.type].map { (min($0.start, start), max($0.end, start)) } ?? (start, start)
            }
        }
        try emit(.sample(sample))
    }

    private var spanType: String?
    private var span: (start: Int64, end: Int64) = (0, 0)

    /// Moves the current type's span into `spans`.
    private mutating func closeSpan() {
        if let spanType { spans[spanType] = span }
        spanType = nil
    }

    // MARK: - Values

    private func quantitySample(_ type: String, source: SampleSource, line: Int32, start: Timestamp) -> Sample {
        var sample = Sample(type: type, source: source, line: line)
        sample.startDate = start
        sample.unit = unit.text.isEmpty ? nil : unit.text
        if sample.unit == nil { sample.flags.insert(.missingUnit) }
        return sample
    }

    private func setValue(_ sample: inout Sample, _ value: Double?) {
        if let value {
            sample.value = value * unit.factor
        } else {
            sample.flags.insert(.badValue)
        }
    }

    private func missingDate(_ warnings: inout [String: Int]) {
        warnings["Health Auto Export points without a readable date (skipped)", default: 0] += 1
    }

    /// Health Auto Export's unit names → HealthKit's unit strings (and a factor for `%`, which HealthKit
    /// stores as a 0–1 fraction while the app writes 0–100). Other units pass as written: the unit stage
    /// converts them, or flags them when it cannot.
    static func normalizedUnit(_ units: String, identifier: String) -> (text: String, factor: Double) {
        switch units {
        case "bpm", "BPM", "beats/min": return ("count/min", 1)
        case "%": return ("%", 0.01)
        case "steps": return ("count", 1)
        case "spm": return ("count/min", 1)
        case "hours", "hrs": return ("hr", 1)
        case "mins": return ("min", 1)
        case "sec", "secs": return ("s", 1)
        case "mph": return ("mi/hr", 1)
        case "kph", "km/h": return ("km/hr", 1)
        case "ml/(kg·min)", "mL/(kg·min)", "ml/kg/min", "mL/kg/min", "ml/(kg*min)": return ("mL/min·kg", 1)
        case "mmol/L" where identifier == "HKQuantityTypeIdentifierBloodGlucose",
            "mmol/l" where identifier == "HKQuantityTypeIdentifierBloodGlucose":
            return ("mmol<180.1558800000541>/L", 1)
        default: return (units, 1)
        }
    }
}

/// Sleep in the four shapes seen in real files.
enum FeedSleep {
    /// Stage names of the unaggregated shape (`value`) → HealthKit's category values.
    static let values: [String: String] = [
        "Core": "HKCategoryValueSleepAnalysisAsleepCore", "Deep": "HKCategoryValueSleepAnalysisAsleepDeep",
        "REM": "HKCategoryValueSleepAnalysisAsleepREM", "Awake": "HKCategoryValueSleepAnalysisAwake",
        "In Bed": "HKCategoryValueSleepAnalysisInBed", "InBed": "HKCategoryValueSleepAnalysisInBed",
        "Asleep": "HKCategoryValueSleepAnalysisAsleepUnspecified",
        "Unspecified": "HKCategoryValueSleepAnalysisAsleepUnspecified",
    ]

    static let type = "HKCategoryTypeIdentifierSleepAnalysis"

    /// One stage segment (`startDate`, `endDate`, `value`), or one night of hours per stage. A night's stages
    /// end at `sleepEnd` (so its hours count for the day the night ends, as in the Health app); `inBed` spans
    /// `inBedStart`…`inBedEnd` when given. `asleep` is stored (as unspecified sleep) only when the night has no
    /// stages: beside stages it restates their total, often from another app.
    static func samples(
        _ point: JSONFlatObject, source: SampleSource, line: Int32, warnings: inout [String: Int]
    ) -> [Sample] {
        func sample(_ value: String, _ start: Timestamp, _ end: Timestamp) -> Sample {
            var sample = Sample(type: type, source: source, line: line)
            sample.textValue = value
            sample.startDate = start
            sample.endDate = end
            return sample
        }
        if let start = point.timestamp("startDate"), let end = point.timestamp("endDate") {
            let written = point.string("value") ?? "Asleep"
            guard let value = values[written] else {
                warnings["Health Auto Export sleep values not known (stored as written): \(written)", default: 0] += 1
                return [sample(written, start, end)]
            }
            return [sample(value, start, end)]
        }
        guard let end = point.timestamp("sleepEnd") ?? point.timestamp("inBedEnd") else {
            warnings["Health Auto Export sleep entries without sleepEnd (skipped)", default: 0] += 1
            return []
        }
        func before(_ hours: Double) -> Timestamp {
            Timestamp(seconds: end.seconds - Int64((hours * 3_600).rounded()), offsetSeconds: end.offsetSeconds)
        }
        var result: [Sample] = []
        let stages = [
            ("deep", "HKCategoryValueSleepAnalysisAsleepDeep"), ("core", "HKCategoryValueSleepAnalysisAsleepCore"),
            ("rem", "HKCategoryValueSleepAnalysisAsleepREM"), ("awake", "HKCategoryValueSleepAnalysisAwake"),
        ]
        var hasStages = false
        for (key, value) in stages {
            guard let hours = point.double(key), hours > 0 else { continue }
            if key != "awake" { hasStages = true }
            result.append(sample(value, before(hours), end))
        }
        if !hasStages, let hours = point.double("asleep") ?? point.double("totalSleep"), hours > 0 {
            result.append(sample("HKCategoryValueSleepAnalysisAsleepUnspecified", before(hours), end))
        }
        if let inBedStart = point.timestamp("inBedStart"), let inBedEnd = point.timestamp("inBedEnd"),
            inBedStart < inBedEnd
        {
            result.append(sample("HKCategoryValueSleepAnalysisInBed", inBedStart, inBedEnd))
        } else if let hours = point.double("inBed"), hours > 0 {
            result.append(sample("HKCategoryValueSleepAnalysisInBed", before(hours), end))
        }
        return result
    }
}
