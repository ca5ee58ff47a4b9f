import HealthModel

/// A person's normal for one daily metric, day by day (docs/baselines.md has the definitions, which this
/// follows word for word): the days before each day, its rank among the last year, and the trend of the last
/// 90 days. Pure: the days of one metric in, a row per day out.
package enum Baseline {
    /// Days before a day that make its normal (the day itself excluded).
    package static let normalDays = 28
    /// Days with a value a window needs before its statistics are given.
    package static let minimumDays = 14
    /// Days (the day included) the percentile ranks the day among.
    package static let rankDays = 365
    /// Days (the day included) the trend is fitted over.
    package static let trendDays = 90
    /// The median absolute deviation times this estimates the standard deviation of normal data.
    package static let madScale = 1.4826
    /// How far back a day's row reads: a value changed on day d changes the rows of d … d + 364 only.
    package static let reach = rankDays - 1

    /// One day of one metric.
    package struct Day: Sendable, Equatable {
        package var day: Int
        package var value: Double

        package init(day: Int, value: Double) {
            self.day = day
            self.value = value
        }
    }

    /// A day's row. Statistics of a window with fewer than `minimumDays` days are nil.
    package struct Row: Sendable, Equatable {
        package var day: Int
        package var value: Double
        package var n = 0
        package var mean: Double?
        package var sd: Double?
        package var median: Double?
        package var mad: Double?
        package var z: Double?
        package var n365 = 0
        package var percentile365: Double?
        package var n90 = 0
        package var slope30: Double?
        package var slopeLow: Double?
        package var slopeHigh: Double?
    }

    /// The rows of `days` (ascending by day, one value per day) for the days from `firstDay` on; the days
    /// before it are read as history only.
    package static func rows(_ days: [Day], from firstDay: Int = .min) -> [Row] {
        var rows: [Row] = []
        var window: [Double] = []
        var normalStart = 0
        var rankStart = 0
        var trendStart = 0
        for index in days.indices where days[index].day >= firstDay {
            let today = days[index]
            while days[normalStart].day < today.day - normalDays { normalStart += 1 }
            while days[rankStart].day < today.day - (rankDays - 1) { rankStart += 1 }
            while days[trendStart].day < today.day - (trendDays - 1) { trendStart += 1 }
            var row = Row(day: today.day, value: today.value)

            window.removeAll(keepingCapacity: true)
            for earlier in days[normalStart..<index] { window.append(earlier.value) }
            row.n = window.count
            if window.count >= minimumDays { describe(&window, into: &row) }

            row.n365 = index - rankStart + 1
            if row.n365 >= minimumDays {
                var below = 0
                var equal = 0
                for other in days[rankStart...index] {
                    if other.value < today.value { below += 1 } else if other.value == today.value { equal += 1 }
                }
                row.percentile365 = 100 * (Double(below) + 0.5 * Double(equal)) / Double(row.n365)
            }

            row.n90 = index - trendStart + 1
            if row.n90 >= minimumDays { fitTrend(days[trendStart...index], into: &row) }
            rows.append(row)
        }
        return rows
    }

    /// Mean, sample standard deviation, median, scaled MAD and z of the normal window (sorted in place).
    private static func describe(_ window: inout [Double], into row: inout Row) {
        window.sort()
        let count = Double(window.count)
        // Equal values have their own value as mean and no spread, exactly (a sum would round 0.1 × 14).
        let allEqual = window[0] == window[window.count - 1]
        let mean = allEqual ? window[0] : window.reduce(0, +) / count
        let squares = window.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let sd = allEqual ? 0 : (squares / (count - 1)).squareRoot()
        let median = middle(window)
        var deviations = window.map { abs($0 - median) }
        deviations.sort()
        row.mean = mean
        row.sd = sd
        row.median = median
        row.mad = madScale * middle(deviations)
        row.z = sd > 0 ? (row.value - mean) / sd : nil
    }

    /// The median of sorted values: the middle one, or the mean of the two middle ones.
    private static func middle(_ sorted: [Double]) -> Double {
        let half = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
    }

    /// t₀.₉₇₅ by degrees of freedom (index), worked out once: a trend has at most `trendDays` − 2.
    private static let t95: [Double] = (0...trendDays).map {
        $0 == 0 ? .nan : StudentT.quantile(central: 0.95, degrees: $0)
    }

    /// Ordinary least squares of value on day number; slope and its 95 % interval (t with n − 2 degrees of
    /// freedom), per 30 days.
    private static func fitTrend(_ days: ArraySlice<Day>, into row: inout Row) {
        let count = Double(days.count)
        let meanDay = days.reduce(0) { $0 + Double($1.day) } / count
        let meanValue = days.reduce(0) { $0 + $1.value } / count
        var sxx = 0.0
        var sxy = 0.0
        for day in days {
            let dx = Double(day.day) - meanDay
            sxx += dx * dx
            sxy += dx * (day.value - meanValue)
        }
        let slope = sxy / sxx
        var residuals = 0.0
        for day in days {
            let residual = day.value - meanValue - slope * (Double(day.day) - meanDay)
            residuals += residual * residual
        }
        let standardError = (residuals / (count - 2) / sxx).squareRoot()
        let t = t95[days.count - 2]
        row.slope30 = 30 * slope
        row.slopeLow = 30 * (slope - t * standardError)
        row.slopeHigh = 30 * (slope + t * standardError)
    }
}

/// Calendar days as whole numbers (days since 1970-01-01, proleptic Gregorian), for windows of days.
package enum CivilDay {
    /// `2024-03-31` → its day number; nil for text of another shape or a day that does not exist.
    package static func number(_ text: String) -> Int? { Timestamp.dayNumber(ofDate: text) }

    /// A day number → `2024-03-31`.
    package static func text(_ number: Int) -> String { TimestampFormatting.dayString(Int32(clamping: number)) }
}
