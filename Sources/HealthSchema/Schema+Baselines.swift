extension Schema {
    /// The person's normal per daily metric and day (docs/baselines.md), kept with the rollups (`BaselineTable`).
    package static let baselineTables: [SchemaTable] = [
        SchemaTable(
            name: "baselines",
            doc: "Each day's value of each metric of `daily_rollups` against the person's normal: the 28 days "
                + "before it (mean, standard deviation, median, robust spread, z-score), its percentile among the "
                + "last 365 days, and the trend of the last 90 days (slope per 30 days with its 95 % interval). "
                + "Statistics of a window with fewer than 14 days with a value are NULL. Kept with the rollups; "
                + "docs/baselines.md defines every number, so it can be recomputed from `daily_rollups` alone.",
            columns: [
                column("date", "TEXT NOT NULL", "The local calendar day, as `daily_rollups.date`."),
                column("type", "TEXT NOT NULL", "The HealthKit identifier, as `daily_rollups.type`."),
                column("column_name", "TEXT NOT NULL", "The metric, as `daily_rollups.column_name` (`HeartRate_avg`)."),
                column("value", "REAL", "The day's value: `daily_rollups.value`."),
                column("n", "INTEGER NOT NULL", "Days with a value among the 28 days before `date`."),
                column("mean", "REAL", "Mean of those days' values."),
                column("sd", "REAL", "Their sample standard deviation (divided by n − 1)."),
                column("median", "REAL", "Their median."),
                column("mad", "REAL", "Their median absolute deviation from the median × 1.4826."),
                column("z", "REAL", "(value − mean) / sd; NULL when sd is 0."),
                column("n_365", "INTEGER NOT NULL", "Days with a value among the 365 days ending with `date`."),
                column(
                    "percentile_365", "REAL",
                    "100 × (days of those below value + ½ × days equal to it, `date` included) / n_365."),
                column("n_90", "INTEGER NOT NULL", "Days with a value among the 90 days ending with `date`."),
                column(
                    "slope_30d", "REAL",
                    "Ordinary least-squares slope of value on day over those 90 days, per 30 days (in the metric's "
                        + "unit)."),
                column("slope_low", "REAL", "Lower end of the slope's 95 % interval (t with n_90 − 2 degrees)."),
                column("slope_high", "REAL", "Upper end of the slope's 95 % interval."),
            ],
            constraints: ["UNIQUE (column_name, date)"])
    ]

    /// For a re-import's update: one type's rows from a day on.
    package static let baselineIndexes = ["CREATE INDEX baselines_type ON baselines(type, date)"]
}
