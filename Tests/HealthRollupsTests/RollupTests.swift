import Foundation
import Testing

@testable import HealthModel
@testable import HealthRollups

/// Source resolution and proportional splitting of cumulative and category rollups, on hand-made days.
struct RollupTests {
    typealias F = RollupFixture
    static let watch = ("Anna’s Apple Watch", 0)
    static let iPhone = ("Anna’s iPhone", 1)

    func sample(_ start: String, _ end: String, _ value: Double, _ source: (String, Int), category: String? = nil)
        -> RollupSample
    {
        RollupSample(
            start: F.at(start), end: F.at(end), value: value, category: category, sourceName: source.0,
            sourceClass: source.1)
    }

    /// `count` back-to-back samples of `minutes` each from a Berlin local time on 2024-05-10.
    func run(from hour: Int, count: Int, minutes: Int, source: (String, Int), value: (Int) -> Double)
        -> [RollupSample]
    {
        let base = F.at("2024-05-10 00:00:00 +0200") + Int64(hour * 3600)
        return (0..<count).map { index in
            let start = base + Int64(index * minutes * 60)
            return RollupSample(
                start: start, end: start + Int64(minutes * 60), value: value(index),
                sourceName: source.0, sourceClass: source.1)
        }
    }

    func rollUp(
        _ samples: [RollupSample], kind: TypeCatalog.SampleKind = .cumulative,
        type: String = F.steps, zone: TimeZone = F.berlin
    ) throws -> [RollupRow] {
        try RollupEngine.rollUp(
            samples.sorted { $0.start < $1.start }, typeIdentifier: type, kind: kind,
            timeZone: zone)
    }

    @Test func oneSourceIsThePlainSum() throws {
        var random = RollupRandom(seed: 7)
        var samples: [RollupSample] = []
        var start = F.at("2023-12-20 00:00:00 +0100")
        for _ in 0..<100_000 {
            start += Int64(random.next(900))
            let value = Double(random.next(100_000)) / 37
            samples.append(
                RollupSample(
                    start: start, end: start + Int64(random.next(1200)), value: value,
                    sourceName: Self.watch.0, sourceClass: 0))
        }
        let plain = samples.reduce(0.0) { $0 + $1.value }
        let rows = try rollUp(samples)
        for period in RollupPeriod.allCases {
            let total = rows.filter { $0.period == period }.reduce(0.0) { $0 + $1.value }
            #expect(F.close(total, plain), "\(period): \(total) vs \(plain)")
        }
        #expect(Set(rows.map(\.sources)) == [[Self.watch.0]])
        #expect(F.row(rows, .month, "2024-01") != nil)
    }

    @Test func watchWinsWhereBothCoverTheSameTime() throws {
        let watch = run(from: 8, count: 72, minutes: 10, source: Self.watch) { 100 + Double($0 % 9) }
        let phone = run(from: 8, count: 24, minutes: 30, source: Self.iPhone) { _ in 250 }
        let rows = try rollUp(watch + phone)
        let day = try #require(F.row(rows, .day, "2024-05-10"))
        #expect(F.close(day.value, watch.reduce(0) { $0 + $1.value }))
        #expect(day.sources == [Self.watch.0])
    }

    @Test func iPhoneFillsExactlyTheHoursTheWatchMissed() throws {
        let watch = run(from: 0, count: 144, minutes: 10, source: Self.watch) { 50 + Double($0 % 7) }
            .filter { !(F.at("2024-05-10 10:00:00 +0200")..<F.at("2024-05-10 12:00:00 +0200")).contains($0.start) }
        let phone = run(from: 0, count: 96, minutes: 15, source: Self.iPhone) { _ in 80 }
        let rows = try rollUp(watch + phone)
        for hour in 0..<24 {
            let label = String(format: "2024-05-10T%02d:00+02:00", hour)
            let row = try #require(F.row(rows, .hour, label))
            if hour == 10 || hour == 11 {
                #expect(F.close(row.value, 320))
                #expect(row.sources == [Self.iPhone.0])
            } else {
                let hourStart = F.at("2024-05-10 00:00:00 +0200") + Int64(hour * 3600)
                let expected = watch.filter { $0.start >= hourStart && $0.start < hourStart + 3600 }
                    .reduce(0) { $0 + $1.value }
                #expect(F.close(row.value, expected), "\(label)")
                #expect(row.sources == [Self.watch.0])
            }
        }
        let day = try #require(F.row(rows, .day, "2024-05-10"))
        #expect(F.close(day.value, watch.reduce(0) { $0 + $1.value } + 640))
        #expect(day.sources == [Self.watch.0, Self.iPhone.0].sorted())
    }

    @Test func handEnteredValuesRankLastEvenFromAnIPhone() throws {
        let priority = SourcePriority.default
        let manualClass = priority.sourceClass(sourceName: Self.iPhone.0, deviceModel: "iPhone", userEntered: true)
        let appClass = priority.sourceClass(sourceName: "Strava", deviceModel: nil, userEntered: false)
        #expect(manualClass == 3)
        #expect(appClass == 2)
        let rows = try rollUp([
            sample("2024-05-10 09:00:00 +0200", "2024-05-10 10:00:00 +0200", 5000, (Self.iPhone.0, manualClass)),
            sample("2024-05-10 09:00:00 +0200", "2024-05-10 09:15:00 +0200", 300, Self.iPhone),
            sample("2024-05-10 09:30:00 +0200", "2024-05-10 10:30:00 +0200", 1200, ("Strava", appClass)),
        ])
        // 09:00–09:15 the measured iPhone, 09:15–09:30 the hand entry, then Strava.
        #expect(F.close(F.value(rows, .hour, "2024-05-10T09:00+02:00"), 300 + 1250 + 600))
        #expect(F.close(F.value(rows, .hour, "2024-05-10T10:00+02:00"), 600))
        #expect(F.close(F.value(rows, .day, "2024-05-10"), 2750))
        #expect(F.row(rows, .day, "2024-05-10")?.sources == [Self.iPhone.0, "Strava"])
    }

    @Test func sameClassTiesGoToTheNameThatSortsFirst() throws {
        let apps = [
            sample("2024-05-10 09:00:00 +0200", "2024-05-10 10:00:00 +0200", 700, ("Zepp Life", 2)),
            sample("2024-05-10 09:00:00 +0200", "2024-05-10 10:00:00 +0200", 500, ("AutoSleep", 2)),
        ]
        for order in [apps, apps.reversed()] {
            let rows = try RollupEngine.rollUp(order, typeIdentifier: F.steps, kind: .cumulative, timeZone: F.berlin)
            #expect(F.value(rows, .day, "2024-05-10") == 500)
            #expect(F.row(rows, .day, "2024-05-10")?.sources == ["AutoSleep"])
        }
    }

    @Test func splitsAcrossMidnightInProportionToTime() throws {
        let rows = try rollUp([
            sample("2024-05-10 22:30:00 +0200", "2024-05-11 00:10:00 +0200", 100, Self.watch)
        ])
        #expect(F.close(F.value(rows, .day, "2024-05-10"), 90))
        #expect(F.close(F.value(rows, .day, "2024-05-11"), 10))
        #expect(F.close(F.value(rows, .hour, "2024-05-10T22:00+02:00"), 30))
        #expect(F.close(F.value(rows, .hour, "2024-05-10T23:00+02:00"), 60))
        #expect(F.close(F.value(rows, .hour, "2024-05-11T00:00+02:00"), 10))
        #expect(F.close(F.value(rows, .month, "2024-05"), 100))
    }

    @Test func instantaneousSamplesCountUnlessABetterSourceCoversThem() throws {
        let utc = TimeZone(identifier: "UTC")!
        func at(_ time: String) -> String { "2024-05-10 \(time) +0000" }
        let rows = try RollupEngine.rollUp(
            [
                sample(at("10:00:00"), at("10:00:00"), 5, Self.iPhone),  // alone: counts
                sample(at("11:00:00"), at("12:00:00"), 60, Self.watch),
                sample(at("11:30:00"), at("11:30:00"), 7, Self.iPhone),  // inside a better source: dropped
                sample(at("13:00:00"), at("13:00:00"), 3, Self.iPhone),  // same instant as a better one: dropped
                sample(at("13:00:00"), at("13:00:00"), 4, Self.watch),
                sample(at("14:00:00"), at("15:00:00"), 60, ("Strava", 2)),
                sample(at("14:20:00"), at("14:20:00"), 9, Self.watch),  // better than what covers it: both count
                sample(at("16:00:00"), at("17:00:00"), 60, Self.watch),
                sample(at("17:00:00"), at("17:00:00"), 2, Self.iPhone),  // at an end, which is not covered: counts
                sample(at("18:00:00"), at("18:00:00"), 8, Self.iPhone),  // a better sample starts at the same second
                sample(at("18:00:00"), at("18:30:00"), 30, Self.watch),
                sample(at("19:00:00"), at("20:00:00"), 60, Self.watch),
                sample(at("19:30:00"), at("19:20:00"), 5, Self.watch),  // end before start: instantaneous, own source
            ], typeIdentifier: F.steps, kind: .cumulative, periods: [.hour], timeZone: utc)
        let expected: [Int: Double] = [10: 5, 11: 60, 13: 4, 14: 69, 16: 60, 17: 2, 18: 30, 19: 65]
        #expect(rows.count == expected.count)
        for (hour, value) in expected {
            #expect(F.close(F.value(rows, .hour, String(format: "2024-05-10T%02d:00+00:00", hour)), value), "\(hour)")
        }
    }

    @Test func discreteReadingsAreAveragedOverEverySource() throws {
        let rows = try rollUp(
            [
                sample("2024-05-10 08:00:00 +0200", "2024-05-10 08:00:00 +0200", 60, Self.watch),
                sample("2024-05-10 08:30:00 +0200", "2024-05-10 08:30:00 +0200", 70, Self.watch),
                sample("2024-05-10 08:30:00 +0200", "2024-05-10 08:31:00 +0200", 90, Self.iPhone),
                sample("2024-05-10 09:10:00 +0200", "2024-05-10 09:10:00 +0200", 50, Self.iPhone),
                sample("2024-05-10 23:59:00 +0200", "2024-05-11 00:01:00 +0200", 80, Self.watch),
            ], kind: .discrete, type: F.heartRate)
        let hour = "2024-05-10T08:00+02:00"
        #expect(F.close(F.value(rows, .hour, hour, "avg"), 220.0 / 3))
        #expect(F.value(rows, .hour, hour, "min") == 60)
        #expect(F.value(rows, .hour, hour, "max") == 90)
        #expect(F.value(rows, .hour, hour, "count") == 3)
        #expect(F.row(rows, .hour, hour, "avg")?.sources == [Self.watch.0, Self.iPhone.0].sorted())
        // The reading that starts before midnight belongs to the day it starts.
        #expect(F.value(rows, .day, "2024-05-10", "count") == 5)
        #expect(F.close(F.value(rows, .day, "2024-05-10", "avg"), 70))
        #expect(F.row(rows, .day, "2024-05-11", "count") == nil)
        #expect(Set(rows.map(\.statistic)) == ["avg", "min", "max", "count"])
    }
}
