import Foundation
import Testing

@testable import HealthModel
@testable import HealthRollups

/// Helpers shared by the rollup tests.
enum RollupFixture {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    /// Unix seconds of an export-format date (`2024-03-31 01:00:00 +0100`).
    static func at(_ text: String) -> Int64 { Timestamp.parse(text)!.seconds }

    static func row(_ rows: [RollupRow], _ period: RollupPeriod, _ label: String, _ statistic: String = "sum")
        -> RollupRow?
    {
        rows.first { $0.period == period && $0.label == label && $0.statistic == statistic }
    }

    static func value(_ rows: [RollupRow], _ period: RollupPeriod, _ label: String, _ statistic: String = "sum")
        -> Double?
    {
        row(rows, period, label, statistic)?.value
    }

    static func close(_ a: Double?, _ b: Double, relative: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= relative * max(1, abs(a), abs(b))
    }
}

/// A seeded generator so the randomized tests are the same on every run.
struct RollupRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// The rollup rules written the slow, obvious way: walk time in fixed steps (all sample boundaries lie on the
/// step grid), ask Foundation for each step's bucket label, and apply the source rule to each step.
struct ReferenceRollup {
    let kind: TypeCatalog.SampleKind
    let type: String
    let timeZone: TimeZone
    let step: Int64
    let periods: [RollupPeriod]

    struct Entry: Equatable {
        var value = 0.0
        var sources: Set<String> = []
    }

    private let calendar: Calendar
    private let formatter = DateFormatter()

    init(kind: TypeCatalog.SampleKind, type: String, timeZone: TimeZone, step: Int64, periods: [RollupPeriod]) {
        (self.kind, self.type, self.timeZone, self.step, self.periods) = (kind, type, timeZone, step, periods)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
    }

    /// Where a category stretch ending at `end` is filed: its last second's day, except that a night of sleep
    /// ending from 18:00 local time on counts for the next day (this reference's own reading of the rule, with
    /// Foundation's calendar).
    func filed(_ end: Int64) -> Int64 {
        let last = Date(timeIntervalSince1970: TimeInterval(end - 1))
        guard type == RollupFixture.sleep, calendar.component(.hour, from: last) >= 18 else { return end - 1 }
        return Int64(calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: last))!.timeIntervalSince1970)
    }

    /// Labels by period and minute: every zone's bucket boundaries fall on whole minutes.
    private final class LabelCache { var labels: [String: String] = [:] }
    private let cache = LabelCache()

    func label(_ period: RollupPeriod, _ instant: Int64) -> String {
        let minute = instant >= 0 ? instant / 60 : (instant - 59) / 60
        let key = "\(period.rawValue)\(minute)"
        if let known = cache.labels[key] { return known }
        let text = formattedLabel(period, instant)
        cache.labels[key] = text
        return text
    }

    private func formattedLabel(_ period: RollupPeriod, _ instant: Int64) -> String {
        var date = Date(timeIntervalSince1970: TimeInterval(instant))
        switch period {
        case .hour: formatter.dateFormat = "yyyy-MM-dd'T'HH:00xxx"
        case .day: formatter.dateFormat = "yyyy-MM-dd"
        case .month: formatter.dateFormat = "yyyy-MM"
        case .week:
            formatter.dateFormat = "yyyy-MM-dd"
            let daysSinceMonday = (calendar.component(.weekday, from: date) + 5) % 7
            date = calendar.date(byAdding: .day, value: -daysSinceMonday, to: date)!
        }
        return formatter.string(from: date)
    }

    /// Rank order: class, then name by Unicode scalars.
    static func better(_ a: RollupSample, _ b: RollupSample) -> Bool {
        if a.sourceClass != b.sourceClass { return a.sourceClass < b.sourceClass }
        return a.sourceName.unicodeScalars.lexicographicallyPrecedes(b.sourceName.unicodeScalars)
    }

    static func sameSource(_ a: RollupSample, _ b: RollupSample) -> Bool {
        a.sourceClass == b.sourceClass && a.sourceName == b.sourceName
    }

    func rollUp(_ samples: [RollupSample]) -> [String: Entry] {
        var result: [String: Entry] = [:]
        func add(_ period: RollupPeriod, _ instant: Int64, _ statistic: String, _ amount: Double, _ source: String) {
            let key = "\(period.rawValue)|\(label(period, instant))|\(statistic)"
            result[key, default: Entry()].value += amount
            result[key, default: Entry()].sources.insert(source)
        }
        if kind == .discrete {
            for period in periods {
                let groups = Dictionary(grouping: samples) { label(period, $0.start) }
                for (name, readings) in groups {
                    let prefix = "\(period.rawValue)|\(name)|"
                    let values = readings.map(\.value)
                    let sources = Set(readings.map(\.sourceName))
                    result[prefix + "avg"] = Entry(value: values.reduce(0, +) / Double(values.count), sources: sources)
                    result[prefix + "min"] = Entry(value: values.min()!, sources: sources)
                    result[prefix + "max"] = Entry(value: values.max()!, sources: sources)
                    result[prefix + "count"] = Entry(value: Double(values.count), sources: sources)
                }
            }
            return result
        }
        let first = samples.map(\.start).min()!
        let last = samples.map { max($0.start, $0.end) }.max()!
        var instant = first
        while instant <= last {
            let covering = samples.filter { $0.start <= instant && instant < $0.end }
            let best = covering.min(by: Self.better)
            if kind == .cumulative {
                if let best {
                    let mine = covering.filter { Self.sameSource($0, best) }
                    let amount = mine.reduce(0.0) { $0 + $1.value * Double(step) / Double($1.end - $1.start) }
                    for period in periods { add(period, instant, "sum", amount, best.sourceName) }
                }
                let instants = samples.filter { $0.start == instant && $0.end <= $0.start }
                if let bestInstant = instants.min(by: Self.better), best.map({ !Self.better($0, bestInstant) }) ?? true
                {
                    let amount = instants.filter { Self.sameSource($0, bestInstant) }.reduce(0.0) { $0 + $1.value }
                    for period in periods { add(period, instant, "sum", amount, bestInstant.sourceName) }
                }
            } else if let best {
                let mine = covering.filter { Self.sameSource($0, best) }
                let statistics = Set(
                    mine.map { RollupNaming.categoryStatistic(value: $0.category, typeIdentifier: type) })
                for statistic in statistics {
                    let end = mine.filter {
                        RollupNaming.categoryStatistic(value: $0.category, typeIdentifier: type) == statistic
                    }.map(\.end).max()!
                    for period in periods {
                        add(
                            period, period == .hour ? instant : filed(end), statistic, Double(step) / 3600,
                            best.sourceName)
                    }
                }
            }
            instant += step
        }
        return result
    }
}

struct RollupReferenceTests {
    static let sources: [(name: String, sourceClass: Int)] = [
        ("Anna’s Apple Watch", 0), ("Anna’s iPhone", 1), ("AutoSleep", 2), ("Zepp Life", 2), ("Anna’s iPhone", 3),
    ]
    static let sleepValues: [String?] = [
        "HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleepCore",
        "HKCategoryValueSleepAnalysisAwake", nil,
    ]

    /// Random samples on a grid of `step` seconds from `start` over `span` seconds, sorted by start.
    static func randomSamples(
        seed: UInt64, count: Int, start: Int64, span: Int64, step: Int64,
        longest: Int64 = 86_400
    ) -> [RollupSample] {
        var random = RollupRandom(seed: seed)
        var samples: [RollupSample] = []
        for _ in 0..<count {
            let begin = start + Int64(random.next(Int(span / step))) * step
            let durationSteps: Int64 =
                switch random.next(20) {
                case 0, 1: 0
                case 2: Int64(random.next(Int(longest / step))) + 1
                case 3...7: Int64(random.next(Int(longest / 4 / step))) + 1
                default: Int64(random.next(Int(longest / 48 / step))) + 1
                }
            let source = sources[random.next(sources.count)]
            let value = Double(random.next(1_000_000)) / 997
            samples.append(
                RollupSample(
                    start: begin, end: begin + durationSteps * step, value: value,
                    category: sleepValues[random.next(sleepValues.count)],
                    sourceName: source.name, sourceClass: source.sourceClass))
        }
        return samples.sorted { $0.start < $1.start }
    }

    func compare(
        _ kind: TypeCatalog.SampleKind, type: String, samples: [RollupSample], step: Int64,
        timeZone: TimeZone, periods: [RollupPeriod] = RollupPeriod.allCases
    ) throws {
        let rows = try RollupEngine.rollUp(
            samples, typeIdentifier: type, kind: kind, periods: periods,
            timeZone: timeZone)
        let expected = ReferenceRollup(kind: kind, type: type, timeZone: timeZone, step: step, periods: periods)
            .rollUp(samples)
        var actual: [String: ReferenceRollup.Entry] = [:]
        for row in rows {
            let key = "\(row.period.rawValue)|\(row.label)|\(row.statistic)"
            #expect(actual[key] == nil, "duplicate row \(key)")
            actual[key] = ReferenceRollup.Entry(value: row.value, sources: Set(row.sources))
            #expect(row.sources == row.sources.sorted())
        }
        #expect(Set(actual.keys) == Set(expected.keys))
        for (key, entry) in expected {
            guard let mine = actual[key] else { continue }
            #expect(RollupFixture.close(mine.value, entry.value), "\(key): \(mine.value) vs \(entry.value)")
            #expect(mine.sources == entry.sources, "\(key)")
        }
    }

    /// Spring forward, the end of March and a Monday in one window; then fall back and the end of October.
    static let windows: [Int64] = [
        RollupFixture.at("2024-03-29 00:00:00 +0000"),
        RollupFixture.at("2024-10-24 00:00:00 +0000"),
    ]

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func cumulativeMatchesTheBruteForce(seed: UInt64) throws {
        let start = Self.windows[Int(seed) % 2]
        let samples = Self.randomSamples(seed: seed, count: 150, start: start, span: 7 * 86_400, step: 300)
        try compare(.cumulative, type: RollupFixture.steps, samples: samples, step: 300, timeZone: RollupFixture.berlin)
    }

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func categoryMatchesTheBruteForce(seed: UInt64) throws {
        let start = Self.windows[Int(seed) % 2]
        let samples = Self.randomSamples(seed: seed, count: 120, start: start, span: 7 * 86_400, step: 300)
        try compare(.category, type: RollupFixture.sleep, samples: samples, step: 300, timeZone: RollupFixture.berlin)
    }

    @Test func discreteMatchesTheBruteForce() throws {
        let samples = Self.randomSamples(seed: 21, count: 200, start: Self.windows[1], span: 7 * 86_400, step: 60)
        try compare(
            .discrete, type: RollupFixture.heartRate, samples: samples, step: 60, timeZone: RollupFixture.berlin)
    }

    /// Second-resolution boundaries in a zone whose hours start at half past in UTC.
    @Test(arguments: [31, 32] as [UInt64])
    func cumulativeAtSecondResolution(seed: UInt64) throws {
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        let start = RollupFixture.at("2024-05-31 20:00:00 +0000")
        let samples = Self.randomSamples(
            seed: seed, count: 60, start: start, span: 5 * 3600, step: 1, longest: 3 * 3600)
        try compare(
            .cumulative, type: RollupFixture.steps, samples: samples, step: 1, timeZone: kolkata,
            periods: [.hour, .day, .month])
    }
}
