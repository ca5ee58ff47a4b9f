/// The canned queries of the Datasette metadata: the questions people ask first. They read the database's own
/// rollups (one source per stretch of time, sleep counted for the day the night ends: docs/rollups.md), so
/// their numbers agree with `daily.csv` and the rest of the tool.
public struct DatasetteQuery: Sendable {
    public var name: String
    public var title: String
    public var description: String
    public var sql: String
}

extension DatasetteMetadata {
    static let restingHeartRate = "HKQuantityTypeIdentifierRestingHeartRate"
    static let heartRateVariability = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"

    /// Sleep stages as the rollups name them (`RollupNaming.categoryStatistic`) → the query's columns.
    static let sleepStages: [(statistics: [String], column: String)] = [
        (["AsleepDeep_hours"], "deep_hours"), (["AsleepCore_hours"], "core_hours"), (["AsleepREM_hours"], "rem_hours"),
        // Before iOS 16 (and from apps without stages) sleep is only "asleep".
        (["AsleepUnspecified_hours", "Asleep_hours"], "asleep_unspecified_hours"), (["Awake_hours"], "awake_hours"),
        (["InBed_hours"], "in_bed_hours"),
    ]

    public static let queries: [DatasetteQuery] = [
        DatasetteQuery(
            name: "steps_per_day", title: "Steps per day",
            description: "Steps per day, an iPhone and a Watch worn together counted once (the rollups take one "
                + "source per stretch of time).",
            sql: """
                SELECT date, value AS steps, sources FROM daily_rollups
                WHERE type = 'HKQuantityTypeIdentifierStepCount' AND statistic = 'sum'
                ORDER BY date DESC
                """),
        DatasetteQuery(
            name: "sleep_per_night", title: "Sleep per night, by stage",
            description: "Hours per sleep stage, for the day the night ends. `asleep_hours` adds up the stages "
                + "of sleep (deep, core, REM and unspecified); awake and in bed are not sleep.",
            sql: sleepPerNightSQL),
        DatasetteQuery(
            name: "resting_heart_rate_and_hrv", title: "Resting heart rate and HRV, per week",
            description: "Weekly averages (weeks start on Monday) of resting heart rate (count/min) and heart rate "
                + "variability (SDNN, ms): the trend, without the day-to-day noise.",
            sql: """
                SELECT label AS week_starting,
                       max(CASE WHEN type = '\(restingHeartRate)' THEN value END) AS resting_heart_rate,
                       max(CASE WHEN type = '\(heartRateVariability)' THEN value END) AS hrv_sdnn_ms
                FROM rollups
                WHERE period = 'week' AND statistic = 'avg' AND type IN ('\(restingHeartRate)', '\(heartRateVariability)')
                GROUP BY label ORDER BY label DESC
                """),
        DatasetteQuery(
            name: "weight", title: "Weight",
            description: "Body weight, the average of each day that has a measurement.",
            sql: """
                SELECT date, value AS weight, unit FROM daily_rollups
                WHERE type = 'HKQuantityTypeIdentifierBodyMass' AND statistic = 'avg'
                ORDER BY date DESC
                """),
        DatasetteQuery(
            name: "workouts_per_week", title: "Workouts per week, with distance",
            description: "Workouts per week (starting on Monday, in local time) and activity, with their total "
                + "distance, time and active energy. A workout that another app recorded too (Watch and Strava, "
                + "`workout_duplicates`) counts once.",
            sql: """
                SELECT date(local_date, '-6 days', 'weekday 1') AS week_starting, activity, count(*) AS workouts,
                       round(sum(distance_km), 2) AS distance_km, round(sum(duration_min), 1) AS minutes,
                       round(sum(active_energy_kcal)) AS active_energy_kcal
                FROM workout_overview
                WHERE workout_id NOT IN (SELECT workout_id FROM workout_duplicates)
                GROUP BY week_starting, activity ORDER BY week_starting DESC, activity
                """),
    ]

    static var sleepPerNightSQL: String {
        func list(_ statistics: [String]) -> String { statistics.map { "'\($0)'" }.joined(separator: ", ") }
        let asleep = sleepStages.filter { $0.column != "awake_hours" && $0.column != "in_bed_hours" }
            .flatMap(\.statistics)
        let stages = sleepStages.map {
            "sum(CASE WHEN statistic IN (\(list($0.statistics))) THEN value END) AS \($0.column)"
        }
        return """
            SELECT date AS night_ending,
                   sum(CASE WHEN statistic IN (\(list(asleep))) THEN value END) AS asleep_hours,
                   \(stages.joined(separator: ",\n       "))
            FROM daily_rollups WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
            GROUP BY date ORDER BY date DESC
            """
    }
}
