import Testing

@testable import HealthRollups

/// The pure parts of the baselines: the t quantile, day numbers, and the windows' edges (the full definitions
/// are checked against an independent recomputation in `BaselineReferenceTests`).
struct BaselineTests {
    /// Published two-sided 95 % quantiles of Student's t.
    @Test(arguments: [(1, 12.7062), (2, 4.3027), (5, 2.5706), (12, 2.1788), (30, 2.0423), (88, 1.9873)])
    func tQuantiles(degrees: Int, expected: Double) {
        let t = StudentT.quantile(central: 0.95, degrees: degrees)
        #expect(abs(t - expected) < 0.00006, "\(degrees): \(t)")
        #expect(abs(StudentT.centralProbability(t, degrees: degrees) - 0.95) < 1e-12)
    }

    @Test func dayNumbersRoundTrip() {
        #expect(CivilDay.number("1970-01-01") == 0)
        #expect(CivilDay.number("2024-03-01")! - CivilDay.number("2024-02-28")! == 2)
        #expect(CivilDay.number("2023-03-01")! - CivilDay.number("2023-02-28")! == 1)
        #expect(CivilDay.number("1969-12-31") == -1)
        #expect(CivilDay.number("2024-13-01") == nil)
        #expect(CivilDay.number("2024-03") == nil)
        for day in stride(from: -719_162, to: 2_932_897, by: 997) {  // 0001-01-01 … 9999-12-31
            #expect(CivilDay.number(CivilDay.text(day)) == day)
        }
    }

    /// 14 days with a value make a normal; 13 do not. The day itself is never part of its own normal.
    @Test func windowsNeedFourteenDays() {
        let days = (0..<15).map { Baseline.Day(day: 100 + $0, value: $0 == 14 ? 50 : Double($0 % 2)) }
        let rows = Baseline.rows(days)
        #expect(rows.count == 15)
        #expect(rows[13].n == 13 && rows[13].mean == nil && rows[13].percentile365 != nil)
        #expect(rows[12].percentile365 == nil && rows[12].slope30 == nil && rows[13].slope30 != nil)
        let last = rows[14]
        #expect(last.n == 14 && last.mean == 0.5 && last.median == 0.5 && last.mad == 1.4826 * 0.5)
        #expect(last.percentile365 == 100 * 14.5 / 15)
        // Days further back than 28 leave the normal window.
        let sparse = [Baseline.Day(day: 0, value: 1)] + (40..<55).map { Baseline.Day(day: $0, value: 2) }
        #expect(Baseline.rows(sparse).last?.n == 14)
        #expect(Baseline.rows(sparse).last?.sd == 0 && Baseline.rows(sparse).last?.z == nil)
        // Rows only from a day on, the earlier days read as history.
        #expect(Baseline.rows(days, from: 110).map(\.day) == Array(110...114))
        #expect(Baseline.rows(days, from: 110).last == last)
    }
}
