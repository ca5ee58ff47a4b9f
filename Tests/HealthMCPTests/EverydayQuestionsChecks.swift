import HealthJSON
import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// The numbers of some everyday answers recomputed from SQL with this file's own arithmetic (medians, ranks, the
/// 28-day normal of docs/baselines.md), so a fault shared by the server's code and the expectation cannot hide.
extension EverydayQuestionsTests {
    /// A column's value per day from `daily_rollups`; time asleep is the sum of the asleep stages' hours.
    static func dailyValues(_ db: SQLiteConnection, column: String, from first: String, to last: String) throws
        -> [String: Double]
    {
        let sql =
            column.contains("*")
            ? """
            SELECT date, sum(value) FROM daily_rollups WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
            AND statistic LIKE 'Asleep%' AND value IS NOT NULL AND date BETWEEN ?2 AND ?3 AND ?1 = ?1 GROUP BY date
            """
            : "SELECT date, value FROM daily_rollups WHERE column_name = ?1 AND value IS NOT NULL AND date BETWEEN ?2 AND ?3"
        var values: [String: Double] = [:]
        for row in try db.query(sql, [.text(column), .text(first), .text(last)]) {
            if let date = row[0].text, let value = MCPClient.double(row[1]) { values[date] = value }
        }
        return values
    }

    static func day(_ db: SQLiteConnection, _ date: String, plus days: Int) throws -> String {
        try db.scalar("SELECT date(?, ?)", [.text(date), .text("\(days) days")]).text ?? ""
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// 10: each unusual day's signals: the value of the day, the median and scaled MAD of the 28 days before (at
    /// least 14 with a value), and a robust z past 2.5 in the signal's direction.
    static func checkUnusual(_ answer: JSON, _ db: SQLiteConnection) throws {
        for day in answer["days"]?.arrayValue ?? [] {
            let date = try #require(day["date"]?.stringValue)
            let signals = day["signals"]?.arrayValue ?? []
            #expect(signals.count >= 3 && day["signal_count"]?.integerValue == Int64(signals.count), "\(date)")
            for signal in signals {
                let column = try #require(signal["column"]?.stringValue)
                let window = try dailyValues(
                    db, column: column, from: try Self.day(db, date, plus: -28), to: try Self.day(db, date, plus: -1))
                let value = try dailyValues(db, column: column, from: date, to: date)[date]
                try #require(window.count >= 14, "\(date) \(column): \(window.count) days before")
                let center = median(Array(window.values))
                let mad = 1.4826 * median(window.values.map { abs($0 - center) })
                #expect(MCPClient.close(signal["value"]?.doubleValue, value), "\(date) \(column) value")
                #expect(MCPClient.close(signal["median"]?.doubleValue, center), "\(date) \(column) median")
                #expect(MCPClient.close(signal["mad"]?.doubleValue, mad), "\(date) \(column) mad")
                let z = try #require(value.map { ($0 - center) / mad })
                #expect(MCPClient.close(signal["robust_z"]?.doubleValue, z), "\(date) \(column) z")
                #expect(abs(z) >= 2.5, "\(date) \(column) z \(z)")
            }
        }
    }

    /// 13: the days with data, the means and their difference in each year, from `daily_rollups`.
    static func checkCompare(_ answer: JSON, _ db: SQLiteConnection) throws {
        var means: [Double] = []
        for (key, year) in [("first", "2023"), ("second", "2024")] {
            let row = try #require(
                try db.query(
                    """
                    SELECT count(*), avg(value) FROM daily_rollups WHERE type = 'HKQuantityTypeIdentifierStepCount'
                    AND statistic = 'sum' AND value IS NOT NULL AND substr(date, 1, 4) = ?
                    """, [.text(year)]
                ).first)
            #expect(answer[key]?["days_with_data"]?.integerValue == row[0].integer, "\(key)")
            #expect(MCPClient.close(answer[key]?["mean"]?.doubleValue, MCPClient.double(row[1])), "\(key)")
            means.append(MCPClient.double(row[1]) ?? .nan)
        }
        #expect(abs((answer["difference"]?.doubleValue ?? .nan) - (means[1] - means[0])) <= 1e-6)
    }

    /// 15: each day of the week against the 28 days before it: the value, n and the mean at the documented
    /// precision.
    static func checkBaseline(_ answer: JSON, _ db: SQLiteConnection) throws {
        let columns = answer["columns"]?.arrayValue.compactMap(\.stringValue) ?? []
        let metric = try #require(answer["metrics"]?.arrayValue.first)
        let column = try #require(metric["metric"]?["column"]?.stringValue)
        let unit = metric["metric"]?["unit"]?.stringValue
        let rows = metric["days"]?.arrayValue ?? []
        let expected = try dailyValues(db, column: column, from: "2024-12-25", to: "2024-12-31")
        #expect(metric["days_with_data"]?.integerValue == Int64(expected.count))
        #expect(rows.count == expected.count)
        func cell(_ row: JSON, _ name: String) -> JSON? { columns.firstIndex(of: name).map { row.arrayValue[$0] } }
        for row in rows {
            let date = try #require(cell(row, "date")?.stringValue)
            #expect(cell(row, "value")?.doubleValue == MCPClient.rounded(expected[date], unit: unit), "\(date)")
            let window = try dailyValues(
                db, column: column, from: try day(db, date, plus: -28), to: try day(db, date, plus: -1))
            #expect(cell(row, "n")?.integerValue == Int64(window.count), "\(date)")
            let mean = window.count >= 14 ? window.values.reduce(0, +) / Double(window.count) : nil
            #expect(cell(row, "mean")?.doubleValue == MCPClient.rounded(mean, unit: unit), "\(date)")
        }
    }

    /// 18: the heart rate of each month of 2024: the mean of all its readings (not of the days' means).
    static func checkMonths(_ points: [MCPClient.Point], _ db: SQLiteConnection) throws {
        let months = try db.query(
            """
            SELECT substr(local_date, 1, 7), avg(value) FROM discrete_samples
            WHERE type = 'HKQuantityTypeIdentifierHeartRate' AND local_date BETWEEN '2024-01-01' AND '2024-12-31'
            GROUP BY 1 ORDER BY 1
            """)
        #expect(points.map(\.label) == months.map { $0[0].text ?? "" })
        for (point, month) in zip(points, months) {
            #expect(point.value == MCPClient.rounded(MCPClient.double(month[1]), unit: "count/min"), "\(point.label)")
        }
    }

    /// 19: the distance walked and run in each year, the sum of its days.
    static func checkYears(_ points: [MCPClient.Point], _ db: SQLiteConnection) throws {
        let years = try db.query(
            """
            SELECT substr(date, 1, 4), sum(value), max(unit) FROM daily_rollups
            WHERE type = 'HKQuantityTypeIdentifierDistanceWalkingRunning' AND statistic = 'sum' AND value IS NOT NULL
            GROUP BY 1 ORDER BY 1
            """)
        #expect(points.count == 10)
        #expect(points.map(\.label) == years.map { $0[0].text ?? "" })
        for (point, year) in zip(points, years) {
            #expect(point.value == MCPClient.rounded(MCPClient.double(year[1]), unit: year[2].text), "\(point.label)")
        }
    }

    /// Ranks from 1, ties sharing the mean of their ranks: the number of smaller values and half the equal ones.
    static func midRanks(_ values: [Double]) -> [Double] {
        values.map { value in
            Double(values.filter { $0 < value }.count) + (Double(values.filter { $0 == value }.count) + 1) / 2
        }
    }

    /// 20: Spearman's rho of the days of 2024 with both values, computed here as Pearson's r of mid-ranks.
    static func checkCorrelation(_ answer: JSON, _ db: SQLiteConnection) throws {
        let pairs = try db.query(
            """
            SELECT x.value, y.value FROM daily_rollups x JOIN daily_rollups y ON y.date = x.date
            WHERE x.type = 'HKQuantityTypeIdentifierStepCount' AND x.statistic = 'sum'
            AND y.type = 'HKQuantityTypeIdentifierRestingHeartRate' AND y.statistic = 'avg'
            AND x.value IS NOT NULL AND y.value IS NOT NULL AND x.date BETWEEN '2024-01-01' AND '2024-12-31'
            """)
        #expect(answer["n"]?.integerValue == Int64(pairs.count))
        let x = midRanks(pairs.compactMap { MCPClient.double($0[0]) })
        let y = midRanks(pairs.compactMap { MCPClient.double($0[1]) })
        let (mx, my) = (x.reduce(0, +) / Double(x.count), y.reduce(0, +) / Double(y.count))
        let covariance = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let spread = (x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) } * y.reduce(0) { $0 + ($1 - my) * ($1 - my) })
        #expect(pairs.count > 100)
        #expect(abs((answer["rho"]?.doubleValue ?? .nan) - covariance / spread.squareRoot()) <= 1e-9)
    }
}
