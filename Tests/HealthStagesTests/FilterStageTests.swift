import Testing

@testable import HealthModel
@testable import HealthStages

/// The filter stage on its own: samples, correlations and workouts kept or dropped by type, source and start
/// (from inclusive, to exclusive, to the second), everything else passed on, and what it drops counted.
struct FilterStageTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let pressure = "HKCorrelationTypeIdentifierBloodPressure"
    static let dropped = "records outside the pipeline's filters (not read)"
    /// 2024-03-25T00:00:00Z.
    static let monday: Int64 = 1_711_324_800

    static func source(_ name: String) -> SampleSource { SampleSource(id: 1, name: name, version: nil, device: nil) }

    static func sample(_ type: String = steps, source: String = "Watch", start: Int64?) -> ExportItem {
        var sample = Sample(type: type, source: Self.source(source), line: 1)
        sample.startDate = start.map { Timestamp(seconds: $0, offsetSeconds: 3600) }
        return .sample(sample)
    }

    /// The item form, one item at a time, or the batch form over the items as one batch.
    enum Path: CaseIterable { case items, batch }

    /// What passes `filter`, as "kind type source start" lines, and the stage's report.
    static func run(_ filter: SampleFilter, _ items: [ExportItem], _ path: Path) throws -> (
        kept: [String], report: [String: Int]
    ) {
        var stage = FilterStage(filter)
        var kept: [String] = []
        var output = items
        if path == .batch {
            var batch = SampleBatch.of(items)
            try stage.process(&batch)
            output = batch.items
        }
        for item in output {
            guard path == .items else {
                kept.append(describe(item))
                continue
            }
            try stage.process(item) { kept.append(describe($0)) }
        }
        return (kept, stage.report)
    }

    static func describe(_ item: ExportItem) -> String {
        switch item {
        case .sample(let s): "sample \(s.type) \(s.source.name) \(s.startDate?.seconds ?? -1)"
        case .correlation(let c): "correlation \(c.type) \(c.source.name) \(c.startDate?.seconds ?? -1)"
        case .workout(let w): "workout \(w.source.name) \(w.startDate?.seconds ?? -1)"
        case .activitySummary(let a): "activity \(a.date ?? "")"
        case .header: "header"
        default: "other"
        }
    }

    @Test(arguments: Path.allCases) func anEmptyFilterKeepsEverythingAndCountsNothing(path: Path) throws {
        let items = [Self.sample(start: nil), Self.sample(Self.heartRate, source: "Phone", start: 5)]
        let result = try Self.run(SampleFilter(), items, path)
        #expect(result.kept == ["sample \(Self.steps) Watch -1", "sample \(Self.heartRate) Phone 5"])
        #expect(result.report.isEmpty)
        #expect(FilterStage(SampleFilter()).name == "filter")
    }

    @Test(arguments: Path.allCases) func typesAndSourcesMustBothMatch(path: Path) throws {
        let filter = SampleFilter(types: [Self.steps, Self.pressure], sources: ["Watch"])
        let workout = Workout(activityType: "HKWorkoutActivityTypeRunning", source: Self.source("Watch"), line: 3)
        let items: [ExportItem] = [
            Self.sample(start: 10), Self.sample(Self.heartRate, start: 11), Self.sample(source: "Phone", start: 12),
            .correlation(Correlation(type: Self.pressure, source: Self.source("Watch"), line: 2)),
            .correlation(Correlation(type: Self.pressure, source: Self.source("Cuff"), line: 2)),
            .workout(workout),
        ]
        let result = try Self.run(filter, items, path)
        #expect(result.kept == ["sample \(Self.steps) Watch 10", "correlation \(Self.pressure) Watch -1"])
        #expect(result.report == [Self.dropped: 4])

        // Workouts are kept by their own type identifier.
        var workouts = filter
        workouts.types = [TypeCatalog.workoutType]
        let kept = try Self.run(workouts, items, path)
        #expect(kept.kept == ["workout Watch -1"])
        #expect(kept.report == [Self.dropped: 5])
    }

    /// `from` is inclusive and `to` exclusive, to the second; with either set, an item without a start is out.
    @Test(arguments: Path.allCases) func datesKeepStartsFromInclusiveToExclusive(path: Path) throws {
        let week = SampleFilter(from: Self.monday, to: Self.monday + 7 * 86_400)
        let starts: [Int64?] = [
            Self.monday - 1, Self.monday, Self.monday + 1, Self.monday + 7 * 86_400 - 1, Self.monday + 7 * 86_400, nil,
        ]
        let result = try Self.run(week, starts.map { Self.sample(start: $0) }, path)
        #expect(
            result.kept == [
                "sample \(Self.steps) Watch \(Self.monday)", "sample \(Self.steps) Watch \(Self.monday + 1)",
                "sample \(Self.steps) Watch \(Self.monday + 7 * 86_400 - 1)",
            ])
        #expect(result.report == [Self.dropped: 3])

        // One bound only.
        let since = try Self.run(SampleFilter(from: Self.monday), starts.map { Self.sample(start: $0) }, path)
        #expect(since.kept.count == 4)
        let until = try Self.run(SampleFilter(to: Self.monday), starts.map { Self.sample(start: $0) }, path)
        #expect(until.kept == ["sample \(Self.steps) Watch \(Self.monday - 1)"])
        #expect(until.report == [Self.dropped: 5])
        // A correlation and a workout are dated by their start too.
        var early = Workout(activityType: "HKWorkoutActivityTypeRunning", source: Self.source("Watch"), line: 3)
        early.startDate = Timestamp(seconds: Self.monday - 60, offsetSeconds: 0)
        var late = early
        late.startDate = Timestamp(seconds: Self.monday + 60, offsetSeconds: 0)
        let correlation = Correlation(
            type: Self.pressure, source: Self.source("Cuff"),
            startDate: Timestamp(seconds: Self.monday, offsetSeconds: 0),
            line: 2)
        let dated = try Self.run(week, [.workout(early), .workout(late), .correlation(correlation)], path)
        #expect(
            dated.kept == ["workout Watch \(Self.monday + 60)", "correlation \(Self.pressure) Cuff \(Self.monday)"])
    }

    /// What is not a sample, a correlation or a workout passes whatever the filter, uncounted.
    @Test(arguments: Path.allCases) func otherItemsPassUncounted(path: Path) throws {
        let filter = SampleFilter(types: ["nothing"], sources: ["nobody"], from: 0, to: 1)
        let items: [ExportItem] = [
            .header(locale: "en_US", exportDate: nil), .activitySummary(ActivitySummary(date: "2024-03-25", line: 4)),
            Self.sample(start: 0),
        ]
        let result = try Self.run(filter, items, path)
        #expect(result.kept == ["header", "activity 2024-03-25"])
        #expect(result.report == [Self.dropped: 1])
    }
}
