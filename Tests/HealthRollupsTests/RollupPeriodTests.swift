import Foundation
import Testing

@testable import HealthRollups

/// Buckets in the user's zone: DST days, ISO weeks, labels, and streaming emission.
struct RollupPeriodTests {
    typealias F = RollupFixture

    /// A constant 100 steps an hour from `start` to `end`, as one sample.
    func constantRate(_ start: String, _ end: String, periods: [RollupPeriod] = RollupPeriod.allCases) throws
        -> [RollupRow]
    {
        let (from, to) = (F.at(start), F.at(end))
        let sample = RollupSample(
            start: from, end: to, value: Double(to - from) / 36, sourceName: "Watch",
            sourceClass: 0)
        return try RollupEngine.rollUp(
            [sample], typeIdentifier: F.steps, kind: .cumulative, periods: periods,
            timeZone: F.berlin)
    }

    @Test func springForwardDayHas23Hours() throws {
        let rows = try constantRate("2024-03-30 00:00:00 +0100", "2024-04-02 00:00:00 +0200")
        #expect(F.close(F.value(rows, .day, "2024-03-30"), 2400))
        #expect(F.close(F.value(rows, .day, "2024-03-31"), 2300))
        #expect(F.close(F.value(rows, .day, "2024-04-01"), 2400))
        #expect(F.row(rows, .day, "2024-03-31")?.periodStart == F.at("2024-03-31 00:00:00 +0100"))
        #expect(F.row(rows, .day, "2024-04-01")?.periodStart == F.at("2024-04-01 00:00:00 +0200"))
        let hours = rows.filter { $0.period == .hour && $0.label.hasPrefix("2024-03-31T") }.map(\.label)
        #expect(hours.count == 23)
        #expect(!hours.contains { $0.hasPrefix("2024-03-31T02:") })
        #expect(hours.contains("2024-03-31T01:00+01:00") && hours.contains("2024-03-31T03:00+02:00"))
        #expect(F.close(F.value(rows, .month, "2024-03"), 2300 + 2400))
        #expect(F.close(F.value(rows, .month, "2024-04"), 2400))
    }

    @Test func fallBackDayHas25HoursWithTwoDistinctTwoOClocks() throws {
        let rows = try constantRate("2024-10-26 00:00:00 +0200", "2024-10-29 00:00:00 +0100")
        #expect(F.close(F.value(rows, .day, "2024-10-26"), 2400))
        #expect(F.close(F.value(rows, .day, "2024-10-27"), 2500))
        #expect(F.close(F.value(rows, .day, "2024-10-28"), 2400))
        let hours = rows.filter { $0.period == .hour && $0.label.hasPrefix("2024-10-27T") }
        #expect(hours.count == 25)
        #expect(Set(hours.map(\.label)).count == 25)
        let first = try #require(F.row(rows, .hour, "2024-10-27T02:00+02:00"))
        let second = try #require(F.row(rows, .hour, "2024-10-27T02:00+01:00"))
        #expect(second.periodStart - first.periodStart == 3600)
        #expect(F.close(first.value, 100) && F.close(second.value, 100))
    }

    @Test func isoWeeksStartOnMonday() throws {
        // Monday 25 March to Monday 8 April 2024: the first week loses an hour to DST.
        let rows = try constantRate("2024-03-25 00:00:00 +0100", "2024-04-08 00:00:00 +0200", periods: [.week, .month])
        #expect(rows.filter { $0.period == .week }.map(\.label) == ["2024-03-25", "2024-04-01"])
        #expect(F.close(F.value(rows, .week, "2024-03-25"), 16_700))
        #expect(F.close(F.value(rows, .week, "2024-04-01"), 16_800))
        #expect(F.close(F.value(rows, .month, "2024-03"), 16_700))
        #expect(F.row(rows, .week, "2024-04-01")?.periodStart == F.at("2024-04-01 00:00:00 +0200"))

        // Across a new year the week keeps its Monday's date; Sunday still belongs to the week before.
        let instants = ["2024-12-29 12:00:00 +0100", "2024-12-30 12:00:00 +0100", "2025-01-01 12:00:00 +0100"].map {
            RollupSample(start: F.at($0), end: F.at($0), value: 1, sourceName: "Watch", sourceClass: 0)
        }
        let newYear = try RollupEngine.rollUp(
            instants, typeIdentifier: F.steps, kind: .cumulative,
            periods: [.week, .month], timeZone: F.berlin)
        #expect(Set(newYear.map(\.label)) == ["2024-12-23", "2024-12", "2024-12-30", "2025-01"])
        #expect(F.value(newYear, .week, "2024-12-30") == 2)
        #expect(F.value(newYear, .month, "2024-12") == 2)
    }

    @Test func hourLabelsCarryTheOffset() {
        let newYork = PeriodClock(period: .hour, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.label(start: F.at("2024-07-04 09:00:00 -0400")) == "2024-07-04T09:00-04:00")
        let kolkata = PeriodClock(period: .hour, timeZone: TimeZone(identifier: "Asia/Kolkata")!)
        #expect(kolkata.label(start: F.at("2024-07-04 09:00:00 +0530")) == "2024-07-04T09:00+05:30")
        let utc = PeriodClock(period: .hour, timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc.label(start: 0) == "1970-01-01T00:00+00:00")
    }

    @Test func bucketsAreEmittedOnceTheSweepHasPassedThem() throws {
        var engine = RollupEngine(
            typeIdentifier: F.steps, kind: .cumulative, periods: [.hour, .day],
            timeZone: F.berlin)
        var emitted: [RollupRow] = []
        var start = F.at("2024-01-01 00:00:00 +0100")
        for _ in 0..<(24 * 30 * 6) {
            try engine.add(RollupSample(start: start, end: start + 600, value: 10, sourceName: "Watch", sourceClass: 0))
            {
                emitted.append($0)
            }
            #expect(engine.openBucketCount <= 4)
            start += 600
        }
        // Before `finish`, every day but the last is out.
        #expect(emitted.filter { $0.period == .day }.count == 29)
        engine.finish { emitted.append($0) }
        #expect(emitted.filter { $0.period == .day }.count == 30)
        #expect(emitted.filter { $0.period == .hour }.allSatisfy { $0.value == 60 })
    }

    @Test func refusesUnsortedInputAndAddsAfterFinish() throws {
        var engine = RollupEngine(typeIdentifier: F.steps, kind: .cumulative, timeZone: F.berlin)
        try engine.add(RollupSample(start: 100, end: 200, value: 1, sourceName: "a", sourceClass: 0)) { _ in }
        #expect(throws: RollupError.unsorted(previousStart: 100, start: 50)) {
            try engine.add(RollupSample(start: 50, end: 60, value: 1, sourceName: "a", sourceClass: 0)) { _ in }
        }
        engine.finish { _ in }
        #expect(throws: RollupError.finished) {
            try engine.add(RollupSample(start: 300, end: 400, value: 1, sourceName: "a", sourceClass: 0)) { _ in }
        }
    }
}
