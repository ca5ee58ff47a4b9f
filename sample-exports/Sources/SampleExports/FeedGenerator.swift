import Foundation

/// A top-level record as the export writes it, before writing (`ExportContext.recordObserver`).
struct CapturedRecord {
    let type: String
    let source: Source
    let unit: String?
    let start: Int64
    let end: Int64
    let value: RecordValue
    let metadata: Metadata
}

/// Writes what Health Auto Export's automation would have sent after an export: JSON in its REST/file format
/// (`data.metrics`, per-minute buckets), from the same truth as a later export of the same person (the same
/// options: seed, start, profile, scale, zone), so a test can import an export, then the feed of the following
/// days, and compare with a fresh import of the later export.
///
/// Buckets are HealthKit's statistics: for cumulative types, per minute, one source per stretch of time (the
/// Watch, else the iPhone, else other apps, hand entries last: the rule healthetl's rollups apply) with values
/// spread uniformly over each sample; heart rate per minute as Min/Avg/Max of every reading. Dates are written
/// in the home zone's offset of each instant, as the phone writes them; units are the phone's (the profile's).
public struct FeedGenerator {
    /// Options of the later export; `days` is the last day the feed reaches.
    public var options: GeneratorOptions
    /// The number of days of the export the feed follows (`--feed-of`).
    public var exportDays: Int
    /// One file per day (each with the previous day too, as the default automation sends it), or one file.
    public var dailyFiles = true

    public init(options: GeneratorOptions, exportDays: Int) {
        self.options = options
        self.exportDays = exportDays
    }

    /// The metrics the feed carries: (HealthKit type, the app's name).
    static let cumulative: [(String, String)] = [
        ("HKQuantityTypeIdentifierStepCount", "step_count"),
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", "walking_running_distance"),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", "active_energy"),
        ("HKQuantityTypeIdentifierBasalEnergyBurned", "basal_energy_burned"),
        ("HKQuantityTypeIdentifierFlightsClimbed", "flights_climbed"),
        ("HKQuantityTypeIdentifierAppleExerciseTime", "apple_exercise_time"),
    ]
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// Writes the feed into `folder` (created): `HealthAutoExport-<day>.json` per day, or one
    /// `HealthAutoExport-<first>-<last>.json`. Returns the files written and the points per metric.
    @discardableResult
    public func write(to folder: String) throws -> (files: [String], points: [String: Int]) {
        guard exportDays >= 1, exportDays <= options.days else {
            throw GeneratorError.badOption("--feed-of must be between 1 and --days")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The export's day: the day it happens on (its last day with exportTimeOfDay, else the morning after).
        let exportDay = options.exportTimeOfDay == nil ? exportDays : exportDays - 1
        let firstDay = max(0, exportDay - 1)
        let truth = try capture(fromDay: firstDay)
        var files: [String] = []
        var points: [String: Int] = [:]
        let ranges: [(Int, Int)] =
            dailyFiles
            ? (exportDay..<options.days).map { (max(firstDay, $0 - 1), $0) } : [(firstDay, options.days - 1)]
        for (from, through) in ranges {
            let start = truth.dayStart(from)
            let end = truth.dayStart(through + 1)
            let name =
                dailyFiles
                ? "HealthAutoExport-\(truth.dayText(through)).json"
                : "HealthAutoExport-\(truth.dayText(from))-\(truth.dayText(through)).json"
            let path = (folder as NSString).appendingPathComponent(name)
            try writeFile(path, truth: truth, from: start, to: end, points: &points)
            files.append(path)
        }
        return (files, points)
    }

    /// The records of the feed's types from the start of `fromDay`, read from a full generation of the later
    /// export into nowhere.
    private func capture(fromDay: Int) throws -> FeedTruth {
        var options = self.options
        options.exportTimeOfDay = nil
        guard let clock = ExportClock(offset: options.exportOffset) else {
            throw GeneratorError.badOption("exportOffset must look like +0100")
        }
        let writer = XMLWriter(sink: NullSink(), clock: clock)
        let context = ExportContext(options: options, days: options.days, writer: writer)
        let truth = FeedTruth(context: context)
        let from = context.plan(fromDay).start
        let wanted = Set(Self.cumulative.map(\.0) + [Self.heartRate])
        let sources = context.sources
        context.recordObserver = { record in
            guard wanted.contains(record.type), record.end > from, case .quantity(let value) = record.value else {
                return
            }
            let manual = record.metadata.contains { $0.key == "HKWasUserEntered" && $0.value == "1" }
            let rank =
                manual
                ? 3 : record.source.name == sources.watch.name ? 0 : record.source.name == sources.iPhone.name ? 1 : 2
            truth.add(
                record.type,
                FeedTruth.Reading(
                    start: record.start, end: record.end, value: value, unit: record.unit ?? "",
                    rank: rank, source: record.source.name))
        }
        try ExportGenerator(options: options).writeXML(context)
        return truth
    }

    private func writeFile(
        _ path: String, truth: FeedTruth, from: Int64, to: Int64, points: inout [String: Int]
    ) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw GeneratorError.io("cannot write \(path)") }
        defer { try? handle.close() }
        var text = "{\n  \"data\" : {\n    \"metrics\" : [\n"
        var first = true
        for (type, name) in Self.cumulative {
            let buckets = truth.cumulativeBuckets(type, from: from, to: to)
            guard !buckets.isEmpty else { continue }
            if !first { text += ",\n" }
            first = false
            let units = truth.unit(type)
            text +=
                "      {\n        \"name\" : \"\(name)\",\n        \"units\" : \"\(units == "Cal" ? "kcal" : units)\",\n"
            text += "        \"data\" : [\n"
            for (index, bucket) in buckets.enumerated() {
                text +=
                    (index == 0 ? "" : ",\n")
                    + "          {\n            \"date\" : \"\(truth.dateText(bucket.minute))\",\n"
                    + "            \"qty\" : \(bucket.value),\n            \"source\" : \"\(bucket.sources)\"\n          }"
                if text.utf8.count > 1 << 20 { try flush(&text, handle) }
            }
            text += "\n        ]\n      }"
            points[name, default: 0] += buckets.count
        }
        let beats = truth.heartRateBuckets(from: from, to: to)
        if !beats.isEmpty {
            if !first { text += ",\n" }
            text +=
                "      {\n        \"name\" : \"heart_rate\",\n        \"units\" : \"count/min\",\n        \"data\" : [\n"
            for (index, bucket) in beats.enumerated() {
                text +=
                    (index == 0 ? "" : ",\n")
                    + "          {\n            \"date\" : \"\(truth.dateText(bucket.minute))\",\n"
                    + "            \"Min\" : \(bucket.min),\n            \"Avg\" : \(bucket.avg),\n"
                    + "            \"Max\" : \(bucket.max),\n            \"source\" : \"\(bucket.sources)\"\n          }"
                if text.utf8.count > 1 << 20 { try flush(&text, handle) }
            }
            text += "\n        ]\n      }"
            points["heart_rate", default: 0] += beats.count
        }
        text += "\n    ],\n    \"workouts\" : [\n\n    ]\n  }\n}\n"
        try flush(&text, handle)
    }

    private func flush(_ text: inout String, _ handle: FileHandle) throws {
        try handle.write(contentsOf: Data(text.utf8))
        text = ""
    }
}

/// The feed's types as the export has them, and their per-minute statistics.
final class FeedTruth {
    struct Reading {
        let start: Int64
        let end: Int64
        let value: Double
        let unit: String
        /// 0 Watch, 1 iPhone, 2 other apps, 3 hand entries: the rollups' default order.
        let rank: Int
        let source: String
    }

    struct Bucket {
        let minute: Int64
        let value: Double
        let sources: String
    }

    struct Beats {
        let minute: Int64
        let min: Double
        let avg: Double
        let max: Double
        let sources: String
    }

    private let context: ExportContext
    private var readings: [String: [Reading]] = [:]

    init(context: ExportContext) { self.context = context }

    func add(_ type: String, _ reading: Reading) { readings[type, default: []].append(reading) }

    func unit(_ type: String) -> String { readings[type]?.first?.unit ?? "count" }

    func dayStart(_ day: Int) -> Int64 { context.plan(day).start }

    func dayText(_ day: Int) -> String { CivilDate.dayText(context.firstDayNumber + day) }

    /// `2024-03-31 14:05:00 +0200`, in the home zone's offset at that instant.
    func dateText(_ time: Int64) -> String {
        let offset = context.options.homeZone.offset(at: time)
        let local = time + Int64(offset)
        let day = Int(CivilDate.floorDiv(local, 86_400))
        let second = Int(local - Int64(day) * 86_400)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset) / 60
        return CivilDate.dayText(day) + " " + NumberText.twoDigits(second / 3_600) + ":"
            + NumberText.twoDigits(second / 60 % 60) + ":" + NumberText.twoDigits(second % 60) + " " + sign
            + NumberText.twoDigits(magnitude / 60) + NumberText.twoDigits(magnitude % 60)
    }

    /// Per minute in [from, to): per stretch between consecutive sample boundaries, the best-ranked source
    /// (rank, then name) covering it counts, its samples spread uniformly; a sample without duration counts
    /// whole in its minute.
    func cumulativeBuckets(_ type: String, from: Int64, to: Int64) -> [Bucket] {
        let all = (readings[type] ?? []).filter { $0.end > from - 86_400 && $0.start < to + 86_400 }
            .sorted { $0.start < $1.start }
        var sums: [Int64: Double] = [:]
        var names: [Int64: Set<String>] = [:]
        func add(_ start: Int64, _ end: Int64, rate: Double, source: String) {
            var cursor = max(start, from)
            let stop = min(end, to)
            while cursor < stop {
                let minute = cursor - ((cursor % 60) + 60) % 60
                let next = min(minute + 60, stop)
                sums[minute, default: 0] += rate * Double(next - cursor)
                names[minute, default: []].insert(source)
                cursor = next
            }
        }
        var cuts = Set<Int64>()
        for reading in all {
            if reading.end <= reading.start {
                if reading.start >= from && reading.start < to {
                    let minute = reading.start - ((reading.start % 60) + 60) % 60
                    sums[minute, default: 0] += reading.value
                    names[minute, default: []].insert(reading.source)
                }
            } else {
                cuts.insert(reading.start)
                cuts.insert(reading.end)
            }
        }
        let timed = all.filter { $0.end > $0.start }
        let points = cuts.sorted()
        var active: [Reading] = []
        var next = 0
        for index in points.indices.dropLast() {
            let (a, b) = (points[index], points[index + 1])
            active.removeAll { $0.end <= a }
            while next < timed.count, timed[next].start <= a {
                if timed[next].end > a { active.append(timed[next]) }
                next += 1
            }
            guard b > from, a < to, let best = active.min(by: Self.ranksBefore) else { continue }
            let rate = active.filter { $0.rank == best.rank && $0.source == best.source }
                .reduce(0.0) { $0 + $1.value / Double($1.end - $1.start) }
            add(a, b, rate: rate, source: best.source)
        }
        return sums.keys.sorted().compactMap { minute in
            guard let value = sums[minute], value > 0 else { return nil }
            return Bucket(minute: minute, value: value, sources: (names[minute] ?? []).sorted().joined(separator: "|"))
        }
    }

    /// The rollups' order of sources: by rank, then by name (Unicode scalars).
    static func ranksBefore(_ left: Reading, _ right: Reading) -> Bool {
        if left.rank != right.rank { return left.rank < right.rank }
        return left.source.unicodeScalars.lexicographicallyPrecedes(right.source.unicodeScalars)
    }

    /// Heart rate per minute in [from, to): every reading of every source, by its start.
    func heartRateBuckets(from: Int64, to: Int64) -> [Beats] {
        var minutes: [Int64: (min: Double, max: Double, sum: Double, count: Int, sources: Set<String>)] = [:]
        for reading in readings[FeedGenerator.heartRate] ?? [] where reading.start >= from && reading.start < to {
            let minute = reading.start - ((reading.start % 60) + 60) % 60
            var bucket = minutes[minute] ?? (reading.value, reading.value, 0, 0, [])
            bucket.min = min(bucket.min, reading.value)
            bucket.max = max(bucket.max, reading.value)
            bucket.sum += reading.value
            bucket.count += 1
            bucket.sources.insert(reading.source)
            minutes[minute] = bucket
        }
        return minutes.keys.sorted().map { minute in
            // swift-format-ignore: NeverForceUnwrap
            let bucket = minutes[minute]!
            return Beats(
                minute: minute, min: bucket.min, avg: bucket.sum / Double(bucket.count), max: bucket.max,
                sources: bucket.sources.sorted().joined(separator: "|"))
        }
    }
}
