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

    /// The sliding windows give every row what a window built afresh for that day gives: a year and a half of
    /// days with gaps, repeated values and a wild day, computed whole and from days part of the way in, against
    /// the definitions applied to each day on its own.
    @Test func slidingWindowsEqualFreshWindows() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var days: [Baseline.Day] = []
        var day = 19_000
        for _ in 0..<420 {
            day += next() % 5 == 0 ? Int(next() % 20) + 2 : 1  // gaps of up to three weeks
            let value = next() % 7 == 0 ? 60 : Double(next() % 12) / 2 + (next() % 50 == 0 ? 200 : 0)
            days.append(Baseline.Day(day: day, value: value))
        }
        let whole = Baseline.rows(days)
        #expect(whole.count == days.count)
        for (index, row) in whole.enumerated() {
            let today = days[index]
            let normal = days[..<index].filter { $0.day >= today.day - Baseline.normalDays }.map(\.value)
            let year = days[...index].filter { $0.day > today.day - Baseline.rankDays }.map(\.value)
            #expect(row.n == normal.count && row.n365 == year.count, "day \(today.day)")
            if normal.count >= Baseline.minimumDays {
                let sorted = normal.sorted()
                let median =
                    sorted.count % 2 == 1
                    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
                #expect(row.median == median, "day \(today.day)")
            } else {
                #expect(row.median == nil)
            }
            if year.count >= Baseline.minimumDays {
                let below = year.filter { $0 < today.value }.count
                let equal = year.filter { $0 == today.value }.count
                #expect(row.percentile365 == 100 * (Double(below) + 0.5 * Double(equal)) / Double(year.count))
            }
        }
        for first in [days[0].day, days[1].day, days[200].day, days[200].day + 1, days[419].day, days[419].day + 1] {
            #expect(Baseline.rows(days, from: first) == whole.filter { $0.day >= first }, "from \(first)")
        }
        // In parts, as the importer computes a long metric.
        for part in [0..<1, 0..<100, 100..<250, 250..<419, 419..<420, 7..<7] {
            #expect(Baseline.rows(days, at: part) == Array(whole[part]), "\(part)")
        }
    }
}
