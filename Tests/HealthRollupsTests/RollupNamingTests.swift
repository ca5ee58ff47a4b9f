import Testing

@testable import HealthModel
@testable import HealthRollups

/// Statistic and column names, and the source priority rules.
struct RollupNamingTests {
    @Test func shortNames() {
        #expect(RollupNaming.shortName(ofType: "HKQuantityTypeIdentifierStepCount") == "StepCount")
        #expect(RollupNaming.shortName(ofType: "HKCategoryTypeIdentifierSleepAnalysis") == "SleepAnalysis")
        #expect(RollupNaming.shortName(ofType: "HKDataTypeSleepDurationGoal") == "SleepDurationGoal")
        #expect(RollupNaming.shortName(ofType: "SomethingElse") == "SomethingElse")
    }

    @Test func categoryStatistics() {
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
        #expect(
            RollupNaming.categoryStatistic(value: "HKCategoryValueSleepAnalysisAsleepCore", typeIdentifier: sleep)
                == "AsleepCore_hours")
        #expect(
            RollupNaming.categoryStatistic(value: "HKCategoryValueSleepAnalysisAsleep", typeIdentifier: sleep)
                == "Asleep_hours")
        #expect(
            RollupNaming.categoryStatistic(value: nil, typeIdentifier: "HKCategoryTypeIdentifierMindfulSession")
                == "hours")
        #expect(
            RollupNaming.categoryStatistic(
                value: "HKCategoryValueSeverityMild",
                typeIdentifier: "HKCategoryTypeIdentifierHeadache") == "Mild_hours")
        #expect(
            RollupNaming.categoryStatistic(
                value: "HKCategoryValueVaginalBleedingLight",
                typeIdentifier: "HKCategoryTypeIdentifierMenstrualFlow") == "Light_hours")
        #expect(
            RollupNaming.categoryStatistic(
                value: "HKCategoryValueMenstrualFlowLight",
                typeIdentifier: "HKCategoryTypeIdentifierMenstrualFlow") == "Light_hours")
        #expect(RollupNaming.categoryStatistic(value: "Not Applicable", typeIdentifier: "X") == "Not_Applicable_hours")
    }

    @Test func metricColumns() {
        #expect(
            RollupNaming.metricColumn(typeIdentifier: "HKQuantityTypeIdentifierStepCount", statistic: "sum")
                == "StepCount")
        #expect(
            RollupNaming.metricColumn(typeIdentifier: "HKQuantityTypeIdentifierHeartRate", statistic: "avg")
                == "HeartRate_avg")
        #expect(
            RollupNaming.metricColumn(
                typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis",
                statistic: "AsleepCore_hours") == "SleepAnalysis_AsleepCore_hours")
    }

    @Test func priorityWordsRoundTrip() throws {
        let words = ["watch", "iphone", "source:Oura", "apps", "manual"]
        let priority = try SourcePriority(parsing: words)
        #expect(priority.rules == [.watch, .iPhone, .source("Oura"), .apps, .manual])
        #expect(priority.words == words)
        #expect(SourcePriority.default.words == ["watch", "iphone", "apps", "manual"])
        #expect(try SourcePriority(parsing: ["Watch", "source:My App: v2"]).rules == [.watch, .source("My App: v2")])
    }

    @Test func priorityErrorsListTheAllowedWords() {
        for word in ["phone", "source:", ""] {
            #expect(throws: SourcePriorityError(word: word)) { try SourcePriority(parsing: ["watch", word]) }
        }
        let message = SourcePriorityError(word: "phone").message
        #expect(message.contains("\"phone\"") && message.contains("watch, iphone, apps, manual, source:<name>"))
    }

    @Test func sourceClasses() throws {
        let priority = SourcePriority.default
        #expect(priority.sourceClass(sourceName: "Anna’s Apple Watch", deviceModel: "Watch", userEntered: false) == 0)
        #expect(priority.sourceClass(sourceName: "Anna’s iPhone", deviceModel: "iPhone", userEntered: false) == 1)
        #expect(priority.sourceClass(sourceName: "Strava", deviceModel: nil, userEntered: false) == 2)
        #expect(priority.sourceClass(sourceName: "Health", deviceModel: "Watch", userEntered: true) == 3)
        // A named source before `manual` keeps even its hand-entered samples.
        let named = try SourcePriority(parsing: ["source:Health", "watch", "manual"])
        #expect(named.sourceClass(sourceName: "Health", deviceModel: nil, userEntered: true) == 0)
        #expect(named.sourceClass(sourceName: "Scale", deviceModel: nil, userEntered: true) == 2)
        // Matching no rule ranks after every rule.
        #expect(named.sourceClass(sourceName: "Strava", deviceModel: nil, userEntered: false) == 3)
    }
}
