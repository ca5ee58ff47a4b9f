import HealthJSON
import Testing

@testable import HealthMCP

/// The parts of issue 43's answers that need no database: the precision per unit, the summary's statistics and
/// trend (against numbers worked out by hand), the sources said once, and the budget's arithmetic.
struct SummaryUnitTests {
    @Test func numbersHaveThePrecisionOfTheirUnit() {
        #expect(Precision.rounding(unit: "count")(19_647.102_838_646_108) == 19_647)
        #expect(Precision.rounding(unit: "count")(1.67) == 2)
        #expect(Precision.rounding(unit: "count/min")(62.444) == 62.4)
        #expect(Precision.rounding(unit: nil, statistic: "AsleepCore_hours")(6.474_444_444_444_444) == 6.47)
        #expect(Precision.rounding(unit: "count/min", statistic: "count")(1_234.4) == 1_234)
        #expect(Precision.rounding(unit: "degC")(0.123_45) == 0.123)
        #expect(Precision.rounding(unit: "%")(0.975_12) == 0.975)
        #expect(Precision.rounding(unit: "km")(10.544_9) == 10.54)
        #expect(Precision.rounding(unit: "kg")(78.94) == 78.9)
        #expect(TextRendering.value(37_484.136_666_666_665, Precision.rounding(unit: "count")) == "37,484")
        #expect(TextRendering.value(62.44, Precision.rounding(unit: "count/min")) == "62.4")
    }

    @Test func theSummaryMatchesAHandComputation() throws {
        // y = 1, 3, 2, 5, 4 on days 0…4: slope 0.8 a day, residual sum of squares 3.6, standard error
        // √(3.6 / 3 / 10); t₀.₉₇₅ with 3 degrees of freedom is 3.182446.
        let values = [1.0, 3, 2, 5, 4]
        let summary = SeriesSummary(
            values.enumerated().map {
                SeriesSummary.Point(day: Double($0.offset), label: "day \($0.offset)", value: $0.element)
            })
        #expect(summary.count == 5 && summary.mean == 3 && summary.median == 3)
        #expect(summary.minimum?.label == "day 0" && summary.maximum?.label == "day 3" && summary.last?.value == 4)
        let trend = try #require(summary.trend)
        let margin = 30 * 3.182_446 * (3.6 / 3 / 10).squareRoot()
        #expect(abs(trend.perThirtyDays - 24) < 1e-9)
        #expect(abs(trend.low - (24 - margin)) < 1e-5 && abs(trend.high - (24 + margin)) < 1e-5)
        // Fewer than three values: no trend; none: no numbers at all.
        #expect(
            SeriesSummary(Array(repeating: SeriesSummary.Point(day: 0, label: "a", value: 1), count: 2)).trend == nil)
        #expect(SeriesSummary([]).text(Precision.whole) == "no data")
    }

    @Test func sourcesAreSaidOnceAndTheUsualSetIsStable() {
        var sources = SourceIndex()
        let watchAndPhone = sources.add(["Watch", "Phone"])
        _ = sources.add(["Phone"])
        _ = sources.add(["Watch", "Phone"])
        _ = sources.add(["Phone"])
        #expect(watchAndPhone == [0, 1])
        // A tie between {Watch, Phone} and {Phone}: the larger set, whatever the dictionary's order.
        #expect(sources.usual == [0, 1])
        #expect(sources.json == [["name": "Watch", "rows": 2], ["name": "Phone", "rows": 4]])
    }

    @Test func fittingDropsRowsUntilTheAnswerFits() {
        let rows = (0..<50).map { "row \($0) " + String(repeating: "x", count: 90) }
        let fitted = AnswerBudget.fit(kept: rows.count, budget: 2_000) { kept in
            ToolAnswer(structured: .object([("count", .integer(Int64(kept)))]), text: rows.prefix(kept).joined())
        }
        #expect(AnswerBudget.size(fitted.answer) <= 2_000 && fitted.kept > 15 && fitted.kept < 50)
    }
}
