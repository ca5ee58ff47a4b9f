import Foundation
import Testing

@testable import HealthRollups

/// Category durations: sleep stages from two sources, filed under the day the night ends.
struct RollupCategoryTests {
    typealias F = RollupFixture
    static let value = "HKCategoryValueSleepAnalysis"

    func stage(_ start: String, _ end: String, _ stage: String, _ source: String, _ sourceClass: Int) -> RollupSample {
        RollupSample(
            start: F.at("2024-05-\(start) +0200"), end: F.at("2024-05-\(end) +0200"),
            category: Self.value + stage, sourceName: source, sourceClass: sourceClass)
    }

    @Test func sleepStagesGoToTheDayTheNightEnds() throws {
        let watch = "Anna’s Apple Watch"
        let samples = [
            stage("10 22:30:00", "11 07:30:00", "InBed", "AutoSleep", 2),
            stage("10 22:45:00", "11 07:15:00", "AsleepUnspecified", "AutoSleep", 2),
            stage("10 23:00:00", "11 01:00:00", "AsleepCore", watch, 0),
            stage("11 01:00:00", "11 02:30:00", "AsleepDeep", watch, 0),
            stage("11 02:30:00", "11 04:00:00", "AsleepREM", watch, 0),
            stage("11 04:00:00", "11 04:15:00", "Awake", watch, 0),
            stage("11 04:15:00", "11 07:00:00", "AsleepCore", watch, 0),
        ]
        let rows = try RollupEngine.rollUp(samples, typeIdentifier: F.sleep, kind: .category, timeZone: F.berlin)
        // The Watch covers 23:00–07:00; AutoSleep only counts where the Watch has nothing.
        let day: [String: Double] = [
            "AsleepCore_hours": 4.75, "AsleepDeep_hours": 1.5, "AsleepREM_hours": 1.5, "Awake_hours": 0.25,
            "InBed_hours": 1.0, "AsleepUnspecified_hours": 0.5,
        ]
        let dayRows = rows.filter { $0.period == .day }
        #expect(Set(dayRows.map(\.label)) == ["2024-05-11"])
        #expect(dayRows.count == day.count)
        for (statistic, hours) in day {
            #expect(F.close(F.value(rows, .day, "2024-05-11", statistic), hours), "\(statistic)")
        }
        #expect(F.row(rows, .day, "2024-05-11", "AsleepCore_hours")?.sources == [watch])
        #expect(F.row(rows, .day, "2024-05-11", "InBed_hours")?.sources == ["AutoSleep"])
        #expect(F.close(F.value(rows, .week, "2024-05-06", "AsleepCore_hours"), 4.75))
        // Hours split by time: the evening's minutes stay in the evening's hours.
        #expect(F.close(F.value(rows, .hour, "2024-05-10T22:00+02:00", "InBed_hours"), 0.5))
        #expect(F.close(F.value(rows, .hour, "2024-05-10T22:00+02:00", "AsleepUnspecified_hours"), 0.25))
        #expect(F.close(F.value(rows, .hour, "2024-05-10T23:00+02:00", "AsleepCore_hours"), 1))
        #expect(F.row(rows, .hour, "2024-05-10T23:00+02:00", "InBed_hours") == nil)
        #expect(F.close(F.value(rows, .hour, "2024-05-11T07:00+02:00", "InBed_hours"), 0.5))
    }

    /// A Watch night is many short stage samples: those that end before midnight belong to the morning after
    /// too. From 18:00 local time on, a sleep counts for the next day; a nap ending earlier for its own day.
    /// Other categories keep the day their sample ends.
    @Test func aNightsEveningSamplesGoToTheMorningAfter() throws {
        let watch = "Anna’s Apple Watch"
        let rows = try RollupEngine.rollUp(
            [
                stage("10 14:00:00", "10 15:00:00", "AsleepUnspecified", watch, 0),  // a nap: the 10th
                stage("10 17:00:00", "10 17:59:59", "AsleepCore", watch, 0),  // ends before 18:00: the 10th
                stage("10 22:40:00", "10 23:10:00", "AsleepCore", watch, 0),  // the night: the 11th, all of it
                stage("10 23:10:00", "10 23:55:00", "AsleepDeep", watch, 0),
                stage("10 23:55:00", "11 06:30:00", "AsleepCore", watch, 0),
            ], typeIdentifier: F.sleep, kind: .category, periods: [.day, .week, .month], timeZone: F.berlin)
        #expect(F.close(F.value(rows, .day, "2024-05-10", "AsleepUnspecified_hours"), 1))
        #expect(F.close(F.value(rows, .day, "2024-05-10", "AsleepCore_hours"), 3599.0 / 3600))
        #expect(F.close(F.value(rows, .day, "2024-05-11", "AsleepCore_hours"), 0.5 + 6.5 + 5.0 / 60))
        #expect(F.close(F.value(rows, .day, "2024-05-11", "AsleepDeep_hours"), 0.75))
        #expect(F.row(rows, .day, "2024-05-10", "AsleepDeep_hours") == nil)
        // A month's last night counts for the next month.
        let endOfMonth = try RollupEngine.rollUp(
            [
                RollupSample(
                    start: F.at("2024-05-31 23:00:00 +0200"), end: F.at("2024-05-31 23:30:00 +0200"),
                    category: Self.value + "AsleepCore", sourceName: watch, sourceClass: 0)
            ], typeIdentifier: F.sleep, kind: .category, periods: [.month], timeZone: F.berlin)
        #expect(endOfMonth.map(\.label) == ["2024-06"])
        // A mindful session in the evening stays on its day.
        let mindful = try RollupEngine.rollUp(
            [
                RollupSample(
                    start: F.at("2024-05-10 21:00:00 +0200"), end: F.at("2024-05-10 21:20:00 +0200"),
                    category: nil, sourceName: watch, sourceClass: 0)
            ], typeIdentifier: "HKCategoryTypeIdentifierMindfulSession", kind: .category, periods: [.day],
            timeZone: F.berlin)
        #expect(mindful.map(\.label) == ["2024-05-10"])
    }

    @Test func overlappingSamplesOfOneValueCountTheirTimeOnce() throws {
        let rows = try RollupEngine.rollUp(
            [
                stage("11 01:00:00", "11 03:00:00", "InBed", "AutoSleep", 2),
                stage("11 02:00:00", "11 04:00:00", "InBed", "AutoSleep", 2),
            ], typeIdentifier: F.sleep, kind: .category, periods: [.day], timeZone: F.berlin)
        #expect(rows.map(\.value) == [3])
    }

    @Test func valuelessCategoriesAndMidnightEnds() throws {
        let mindful = "HKCategoryTypeIdentifierMindfulSession"
        let rows = try RollupEngine.rollUp(
            [
                RollupSample(
                    start: F.at("2024-05-10 23:50:00 +0200"), end: F.at("2024-05-11 00:00:00 +0200"),
                    sourceName: "Breathe", sourceClass: 2),
                RollupSample(
                    start: F.at("2024-05-11 08:00:00 +0200"), end: F.at("2024-05-11 08:00:00 +0200"),
                    sourceName: "Breathe", sourceClass: 2),
            ], typeIdentifier: mindful, kind: .category, periods: [.day], timeZone: F.berlin)
        // Ending at midnight is ending the day before; an instantaneous session adds no time.
        #expect(
            rows == [
                RollupRow(
                    period: .day, label: "2024-05-10", periodStart: F.at("2024-05-10 00:00:00 +0200"),
                    statistic: "hours", value: 10.0 / 60, sources: ["Breathe"])
            ])
    }
}
