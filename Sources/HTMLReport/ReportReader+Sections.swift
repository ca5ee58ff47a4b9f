import HealthModel

/// Activity, sleep, heart and body: charts of rollup rows (and the Activity rings, which are no rollup).
extension ReportReader {
    static let quantity = "HKQuantityTypeIdentifier"
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    func activity(first: String, last: String) throws -> ReportSectionContent {
        var content = ReportSectionContent(section: .activity)
        let per = axis.resolution.perText
        if let (steps, unit) = try rollupSeries(type: Self.quantity + "StepCount", statistic: "sum", name: "Steps") {
            var series = [steps]
            var note =
                "Total \(per), one source per stretch of time (Watch, then iPhone, then apps: no double counting)."
            if axis.resolution == .day {
                series.append(
                    ReportSeries(
                        key: "StepCount_7day_avg", name: "7-day average",
                        points: Self.trailingMean(steps.points, days: 7)))
                note += " Line: mean of the days with data among the last 7."
            }
            content.charts.append(
                ReportChart(id: "steps", title: "Steps", unit: unit, note: note, style: .bars, series: series))
        }
        content.charts += try rings(first: first, last: last)
        if let (flights, unit) = try rollupSeries(
            type: Self.quantity + "FlightsClimbed", statistic: "sum", name: "Flights")
        {
            content.charts.append(
                ReportChart(
                    id: "flights", title: "Flights climbed", unit: unit, note: "Total \(per).", style: .bars,
                    series: [flights]))
        }
        return content
    }

    /// Active energy and exercise minutes against their goals, from `activity_summaries` (a row per day; for
    /// weeks and months the mean of the days, so the goal line stays a daily goal).
    private func rings(first: String, last: String) throws -> [ReportChart] {
        let rows = try connection.query(
            """
            SELECT date, active_energy_burned, active_energy_burned_goal, apple_exercise_time, apple_exercise_time_goal,
                   active_energy_burned_unit
            FROM activity_summaries WHERE date >= ?1 AND date <= ?2 ORDER BY date
            """, [.text(first), .text(last)])
        var columns = [[ReportPoint]](repeating: [], count: 4)
        for column in 0..<4 {
            let values = rows.compactMap { row -> (String, Double)? in
                guard let day = row[0].text, let value = row[column + 1].number else { return nil }
                return (day, value)
            }
            columns[column] = meanPerBucket(values)
        }
        let resolutionNote = axis.resolution == .day ? "" : " Mean per day of each \(axis.resolution.rawValue)."
        let energyUnit = rows.lazy.compactMap { $0[5].text }.first ?? "kcal"
        var charts: [ReportChart] = []
        if !columns[0].isEmpty {
            charts.append(
                ReportChart(
                    id: "active-energy", title: "Active energy", unit: energyUnit,
                    note: "Move ring (Activity summaries); line: the goal.\(resolutionNote)", style: .bars,
                    series: [
                        ReportSeries(
                            key: "activity_summaries.active_energy_burned", name: "Active energy", points: columns[0]),
                        ReportSeries(
                            key: "activity_summaries.active_energy_burned_goal", name: "Goal", points: columns[1]),
                    ]))
        }
        if !columns[2].isEmpty {
            charts.append(
                ReportChart(
                    id: "exercise", title: "Exercise", unit: "min",
                    note: "Exercise ring (Activity summaries); line: the goal.\(resolutionNote)", style: .bars,
                    series: [
                        ReportSeries(
                            key: "activity_summaries.apple_exercise_time", name: "Exercise", points: columns[2]),
                        ReportSeries(
                            key: "activity_summaries.apple_exercise_time_goal", name: "Goal", points: columns[3]),
                    ]))
        }
        return charts
    }

    /// Sleep stages per night, filed under the day the night ends (as the rollups file category time).
    func sleep() throws -> ReportSectionContent {
        var content = ReportSectionContent(section: .sleep)
        // Deepest at the bottom; colours from dark (deep) to light, awake in orange, in bed grey.
        let stages = [
            ("AsleepDeep_hours", "Deep", 1), ("AsleepCore_hours", "Core", 0), ("AsleepREM_hours", "REM", 2),
            ("AsleepUnspecified_hours", "Asleep", 3), ("Asleep_hours", "Asleep (before iOS 16)", 3),
            ("Awake_hours", "Awake", 5),
        ]
        var series: [ReportSeries] = []
        for (statistic, name, colour) in stages {
            if var (stage, _) = try rollupSeries(type: Self.sleepType, statistic: statistic, name: name) {
                stage.colour = colour
                series.append(stage)
            }
        }
        // In bed only where no stage was recorded: otherwise it would stack on top of the time asleep in it.
        if let (inBed, _) = try rollupSeries(type: Self.sleepType, statistic: "InBed_hours", name: "In bed") {
            let staged = Set(series.flatMap { $0.points.map(\.label) })
            var onlyInBed = inBed
            onlyInBed.colour = 4
            onlyInBed.points.removeAll { staged.contains($0.label) }
            if !onlyInBed.points.isEmpty { series.append(onlyInBed) }
        }
        if !series.isEmpty {
            let per = axis.resolution == .day ? "per night" : "in all nights of the \(axis.resolution.rawValue)"
            content.charts.append(
                ReportChart(
                    id: "sleep", title: "Sleep by stage", unit: "hr",
                    note: "Hours \(per), filed under the day the night ends; one source per stretch of time. "
                        + "In bed is shown only for nights without stages.",
                    style: .stacked, series: series))
        }
        return content
    }

    func heart() throws -> ReportSectionContent {
        try trends(
            .heart,
            [
                ("RestingHeartRate", "resting-heart-rate", "Resting heart rate"),
                ("HeartRateVariabilitySDNN", "hrv", "Heart rate variability (SDNN)"),
                ("WalkingHeartRateAverage", "walking-heart-rate", "Walking heart rate average"),
                ("VO2Max", "vo2max", "VO2 max"),
            ])
    }

    func body() throws -> ReportSectionContent {
        try trends(.body, [("BodyMass", "weight", "Weight"), ("BodyFatPercentage", "body-fat", "Body fat")])
    }

    /// One line chart per discrete type: the mean of the readings per bucket, every source counting.
    private func trends(_ section: ReportSection, _ types: [(String, String, String)]) throws -> ReportSectionContent {
        var content = ReportSectionContent(section: section)
        for (type, id, title) in types {
            guard let (series, unit) = try rollupSeries(type: Self.quantity + type, statistic: "avg", name: title)
            else {
                continue
            }
            var note = "Mean of the readings \(axis.resolution.perText), every source counting."
            // The database keeps percentages as fractions (docs/schema.md); say so rather than scale them.
            if unit == "%" { note += " As stored: a 0–1 fraction, 0.20 = 20 %." }
            content.charts.append(
                ReportChart(
                    id: id, title: title, unit: unit == "%" ? "fraction" : unit, note: note, style: .lines,
                    series: [series]))
        }
        return content
    }

    /// Per bucket of the axis, the mean of the values of its days (for days: the value itself).
    func meanPerBucket(_ values: [(day: String, value: Double)]) -> [ReportPoint] {
        var sums: [String: (Double, Int)] = [:]
        var order: [String] = []
        for (day, value) in values {
            guard let label = ReportCalendar.label(ofDay: day, axis.resolution) else { continue }
            if sums[label] == nil { order.append(label) }
            let (sum, count) = sums[label] ?? (0, 0)
            sums[label] = (sum + value, count + 1)
        }
        return order.map { label in
            let (sum, count) = sums[label]!
            return ReportPoint(label, count == 1 ? sum : sum / Double(count))
        }
    }

    /// For each day with a value, the mean of the values of that day and the days before it, within `days`
    /// calendar days (days without a value are left out, not counted as zero).
    static func trailingMean(_ points: [ReportPoint], days: Int) -> [ReportPoint] {
        let numbered = points.compactMap { point in Timestamp.dayNumber(ofDate: point.label).map { ($0, point) } }
        var result: [ReportPoint] = []
        var windowStart = 0
        var sum = 0.0
        for (index, (day, point)) in numbered.enumerated() {
            sum += point.value
            while numbered[windowStart].0 <= day - days {
                sum -= numbered[windowStart].1.value
                windowStart += 1
            }
            result.append(ReportPoint(point.label, sum / Double(index - windowStart + 1)))
        }
        return result
    }
}
