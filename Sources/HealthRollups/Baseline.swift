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
    ///
    /// The normal and the year are kept as sorted windows that slide with the day (each day adds one value and
    /// drops the ones that fell out), so a row costs a few binary searches and moves instead of sorting the
    /// normal and scanning the year again: the same numbers, summed in the same order, a third of the time.
    package static func rows(_ days: [Day], from firstDay: Int = .min) -> [Row] {
        rows(days, at: firstIndex(days, from: firstDay)..<days.count)
    }

    /// The index of the first of `days` on or after `firstDay` (`days.count` when there is none).
    package static func firstIndex(_ days: [Day], from firstDay: Int) -> Int {
        days.firstIndex { $0.day >= firstDay } ?? days.count
    }

    /// The rows of `days[indices]`, the days before them read as history: a long metric can be computed in
    /// parts (`BaselineWorker`), each the same as that part of the whole.
    package static func rows(_ days: [Day], at indices: Range<Int>) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(indices.count)
        var normal = SortedWindow()  // days[normal.lower..<index]
        var year = SortedWindow()  // days[year.lower...index]
        var deviations: [Double] = []
        var trendStart = 0
        for index in indices {
            let today = days[index]
            normal.slide(over: days, to: index, keeping: today.day - normalDays)
            year.slide(over: days, to: index + 1, keeping: today.day - (rankDays - 1))
            while days[trendStart].day < today.day - (trendDays - 1) { trendStart += 1 }
            var row = Row(day: today.day, value: today.value)

            row.n = normal.values.count
            if row.n >= minimumDays { describe(normal.values, deviations: &deviations, into: &row) }

            row.n365 = year.values.count
            if row.n365 >= minimumDays {
                let below = year.firstIndex(notBelow: today.value)
                let equal = year.firstIndex(above: today.value) - below
                row.percentile365 = 100 * (Double(below) + 0.5 * Double(equal)) / Double(row.n365)
            }

            row.n90 = index - trendStart + 1
            if row.n90 >= minimumDays { fitTrend(days[trendStart...index], into: &row) }
            rows.append(row)
        }
        return rows
    }

    /// The values of a run of days, sorted, as the run's ends move forward.
    struct SortedWindow {
        private(set) var values: [Double] = []
        /// The run is days[lower..<upper].
        private(set) var lower = 0
        private var upper = 0

        /// Moves the run's end to `end` and its start past the days before `firstDay`.
        mutating func slide(over days: [Day], to end: Int, keeping firstDay: Int) {
            if upper == 0, lower == 0 {
                // The first row of a partial rebuild: the run starts where its window does.
                while lower < end, days[lower].day < firstDay { lower += 1 }
                upper = lower
            }
            while upper < end {
                values.insert(days[upper].value, at: firstIndex(above: days[upper].value))
                upper += 1
            }
            while lower < upper, days[lower].day < firstDay {
                values.remove(at: firstIndex(notBelow: days[lower].value))
                lower += 1
            }
        }

        /// How many values are below `value`.
        func firstIndex(notBelow value: Double) -> Int { count { $0 < value } }

        /// How many values are at most `value`.
        func firstIndex(above value: Double) -> Int { count { $0 <= value } }

        /// How many values, from the smallest, satisfy `isBefore` (true for a prefix of the sorted values).
        @inline(__always) private func count(_ isBefore: (Double) -> Bool) -> Int {
            var (low, high) = (0, values.count)
            while low < high {
                let middle = (low + high) / 2
                if isBefore(values[middle]) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Mean, sample standard deviation, median, scaled MAD and z of the normal window (`sorted`).
    private static func describe(_ sorted: [Double], deviations: inout [Double], into row: inout Row) {
        let count = Double(sorted.count)
        // Equal values have their own value as mean and no spread, exactly (a sum would round 0.1 × 14).
        let allEqual = sorted[0] == sorted[sorted.count - 1]
        let mean = allEqual ? sorted[0] : sorted.reduce(0, +) / count
        let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let sd = allEqual ? 0 : (squares / (count - 1)).squareRoot()
        let median = middle(sorted)
        deviations.removeAll(keepingCapacity: true)
        for value in sorted { deviations.append(abs(value - median)) }
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
