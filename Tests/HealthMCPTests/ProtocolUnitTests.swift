import HealthJSON
import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// The pure parts: JSON, JSON-RPC framing, dates and periods, combining rollups, names, the read-only policy.
@Suite struct ProtocolUnitTests {
    @Test func jsonRoundTripsAndKeepsIntegersAndKeyOrder() throws {
        let text = #"{"b":1,"a":[true,false,null,-2.5,"x\u00e9\n\"",{"c":1e3}],"id":9007199254740993}"#
        let value = try JSONParser.parse(text)
        #expect(value["id"] == .integer(9_007_199_254_740_993))
        #expect(value.serialized == #"{"b":1,"a":[true,false,null,-2.5,"xé\n\"",{"c":1000}],"id":9007199254740993}"#)
        #expect(try JSONParser.parse(value.serialized) == value)
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(JSON.real(.nan).serialized == "null")
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "\"\u{01}\"", "tru", "1 2", "\"\\x\"", "{\"a\":1}}"])
    func malformedJSONIsAParseError(text: String) {
        #expect(throws: JSONError.self) { try JSONParser.parse(text) }
        guard case .invalid(_, let error) = JSONRPC.message(fromLine: Array(text.utf8)) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.code == -32700)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONError.self) { try JSONParser.parse(deep) }
    }

    @Test func messagesAreClassified() {
        func message(_ text: String) -> JSONRPC.Message { JSONRPC.message(fromLine: Array(text.utf8)) }
        #expect(
            message(#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#) == .request(id: "a", method: "ping", params: nil))
        #expect(
            message(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                == .notification(method: "notifications/initialized", params: nil))
        #expect(message(#"{"jsonrpc":"2.0","id":3,"result":{}}"#) == .response)
        guard case .invalid(let id, let error) = message(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#) else {
            Issue.record("a batch was accepted")
            return
        }
        #expect(id == .null && error.code == -32600)
        guard case .invalid(let versionID, let versionError) = message(#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#)
        else {
            Issue.record("jsonrpc 1.0 was accepted")
            return
        }
        #expect(versionID == .integer(4) && versionError.code == -32600)
        guard case .invalid(_, let idError) = message(#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#) else {
            Issue.record("a fractional id was accepted")
            return
        }
        #expect(idError.code == -32600)
    }

    @Test func datesAndWeekdays() throws {
        let date = try #require(LocalDate("2024-03-24"))
        #expect(date.isoWeekday == 7)
        #expect(LocalDate(dayNumber: date.dayNumber) == date)
        #expect(LocalDate("2024-02-30") == nil && LocalDate("2023-02-29") == nil && LocalDate("2024-2-01") == nil)
        #expect(LocalDate("2024-02-29") != nil)
        for day in stride(from: -800_000, to: 800_000, by: 997) {
            #expect(LocalDate(dayNumber: day).dayNumber == day)
        }
        #expect(LocalDate(year: 1970, month: 1, day: 1).dayNumber == 0)
    }

    @Test func periodsOverlappingARange() throws {
        let range = try #require(LocalDate("2024-03-27"))...(try #require(LocalDate("2025-01-02")))
        #expect(SeriesPeriod.week.starts(overlapping: range).first?.description == "2024-03-25")
        #expect(SeriesPeriod.week.label(try #require(LocalDate("2024-03-25"))) == "2024-03-25")
        #expect(
            SeriesPeriod.month.starts(overlapping: range).map(SeriesPeriod.month.label).prefix(2) == [
                "2024-03", "2024-04",
            ])
        #expect(SeriesPeriod.year.starts(overlapping: range).map(SeriesPeriod.year.label) == ["2024", "2025"])
        for period in SeriesPeriod.allCases {
            #expect(period.count(overlapping: range) == period.starts(overlapping: range).count, "\(period)")
        }
        let centuries = LocalDate(year: 1000, month: 1, day: 1)...LocalDate(year: 9999, month: 12, day: 31)
        #expect(
            SeriesPeriod.day.starts(overlapping: centuries, limit: 3).map(\.description) == [
                "1000-01-01", "1000-01-02", "1000-01-03",
            ])
        #expect(SeriesPeriod.day.count(overlapping: centuries) == 9_000 * 365 + 2_182)  // 2,182 leap years
        // ISO week 1 of 2025 starts on Monday 2024-12-30.
        #expect(SeriesPeriod.week.start(of: try #require(LocalDate("2025-01-01"))).description == "2024-12-30")
        #expect(SeriesPeriod.month.next(after: try #require(LocalDate("2024-12-01"))).description == "2025-01-01")
    }

    @Test func rollupsCombinePerStatistic() {
        var sum = RollupCombination(statistic: "sum")
        var minimum = RollupCombination(statistic: "min")
        var maximum = RollupCombination(statistic: "max")
        var average = RollupCombination(statistic: "avg")
        var hours = RollupCombination(statistic: "AsleepCore_hours")
        for (value, count) in [(10.0, 1.0), (20.0, 3.0)] {
            sum.add(value, count: nil, sources: "Watch; iPhone")
            minimum.add(value, count: nil, sources: nil)
            maximum.add(value, count: nil, sources: nil)
            average.add(value, count: count, sources: "Watch")
            hours.add(value, count: nil, sources: nil)
        }
        #expect(sum.value == 30 && minimum.value == 10 && maximum.value == 20 && hours.value == 30)
        // (10 × 1 + 20 × 3) / 4 readings, not the mean of the two days' means (15).
        #expect(average.value == 17.5)
        #expect(sum.sources == ["Watch", "iPhone"])
        #expect(RollupCombination(statistic: "count").value == nil)
    }

    static let metrics = [
        Metric(
            identifier: "HKQuantityTypeIdentifierStepCount", displayName: "Step Count", shortName: "StepCount",
            kind: "cumulative", unit: "count", table: "cumulative_samples", sampleCount: 1,
            statistics: [("sum", "count")]),
        Metric(
            identifier: "HKCategoryTypeIdentifierSleepAnalysis", displayName: "Sleep", shortName: "SleepAnalysis",
            kind: "category", unit: nil, table: "category_samples", sampleCount: 1,
            statistics: [("AsleepCore_hours", "hr"), ("InBed_hours", "hr")]),
        Metric(
            identifier: "HKQuantityTypeIdentifierHeartRate", displayName: "Heart Rate", shortName: "HeartRate",
            kind: "discrete", unit: "count/min", table: "discrete_samples", sampleCount: 1,
            statistics: [("avg", nil), ("count", nil), ("max", nil), ("min", nil)]),
    ]

    @Test(arguments: ["HKQuantityTypeIdentifierStepCount", "StepCount", "Step Count", "step_count", "Steps", "steps"])
    func metricsResolveByAnyName(name: String) throws {
        #expect(try MetricResolver(metrics: Self.metrics).resolve(name).shortName == "StepCount")
    }

    @Test func unknownMetricsSuggestTheNearestNames() {
        let resolver = MetricResolver(metrics: Self.metrics)
        #expect(throws: ToolError.self) { try resolver.resolve("Stepz") }
        do {
            _ = try resolver.resolve("Stepz")
        } catch {
            #expect(error.message.contains("Step Count (StepCount)"), "\(error.message)")
        }
        #expect(Self.metrics[0].defaultStatistic == "sum" && Self.metrics[2].defaultStatistic == "avg")
        #expect(Self.metrics[1].defaultStatistic == nil)
    }

    @Test func routeSummaryMeasuresAndSamples() {
        var summary = RouteSummary()
        // 0.01° of latitude ≈ 1,112 m; elevation jitter below 3 m is not a climb.
        for (index, elevation) in [100.0, 101, 100, 104, 110, 109, 112].enumerated() {
            summary.add(.init(time: nil, latitude: 50 + Double(index) * 0.01, longitude: 8, elevation: elevation))
        }
        #expect(abs(summary.distanceMeters - 6 * 1_111.95) < 5)
        // Gains of 4, 6 and 3 m; the 1 m wobble and the 1 m dip do not count.
        #expect(summary.elevationGainMeters == 13)
        #expect(RouteSummary.sampledIndexes(count: 10, maximum: 4) == [0, 3, 6, 9])
        #expect(RouteSummary.sampledIndexes(count: 3, maximum: 4) == [0, 1, 2])
    }

    @Test func thePolicyAllowsOnlyReading() {
        var policy = ReadOnlyPolicy()
        func access(_ action: SQLiteAccess.Action, database: String? = "main") -> SQLiteAccess {
            SQLiteAccess(action: action, database: database)
        }
        #expect(policy.allows(access(.select)))
        #expect(policy.allows(access(.read(table: "workouts", column: "id"))))
        #expect(policy.allows(access(.function(name: "sum"))))
        #expect(policy.allows(access(.pragma(name: "table_info", argument: "workouts"))))
        #expect(policy.allows(access(.pragma(name: "user_version", argument: nil))))
        #expect(!policy.allows(access(.pragma(name: "user_version", argument: "7"))))
        #expect(!policy.allows(access(.pragma(name: "journal_mode", argument: "DELETE"))))
        #expect(!policy.allows(access(.pragma(name: "writable_schema", argument: nil))))
        #expect(!policy.allows(access(.function(name: "LOAD_EXTENSION"))))
        #expect(!policy.allows(access(.read(table: "t", column: "x"), database: "other")))
        #expect(!policy.allows(access(.other(code: 18, name: "INSERT"))))
        #expect(!policy.allows(access(.transaction(operation: "BEGIN"))))
        policy.allowsTransactionControl = true
        #expect(policy.allows(access(.transaction(operation: "BEGIN"))))
    }
}
