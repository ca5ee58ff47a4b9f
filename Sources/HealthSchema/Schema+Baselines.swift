extension Schema {
    /// The person's normal per daily metric and day (docs/baselines.md), kept with the rollups (`BaselineTable`):
    /// the public shape, a view of `baseline_rows` since schema 6 (`baselineRows`).
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
            ] + baselineStatistics)
    ]

    /// The columns after the metric and the day, the same in the view and in `baseline_rows`.
    private static let baselineStatistics = [
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
            "Ordinary least-squares slope of value on day over those 90 days, per 30 days (in the metric's unit)."),
        column("slope_low", "REAL", "Lower end of the slope's 95 % interval (t with n_90 − 2 degrees)."),
        column("slope_high", "REAL", "Upper end of the slope's 95 % interval."),
    ]

    /// The metrics of `baseline_rows`, by id: a dictionary like `type_names`.
    package static let baselineMetrics = SchemaTable(
        name: "baseline_metrics",
        doc: "The metrics of `baseline_rows`, by id (a metric keeps its id).",
        columns: [
            column("id", "INTEGER PRIMARY KEY", ""),
            column("type", "TEXT NOT NULL", "The HealthKit identifier, as `daily_rollups.type`."),
            column("column_name", "TEXT NOT NULL UNIQUE", "The metric, as `daily_rollups.column_name`."),
        ])

    /// Schema 6 stores `baselines` compactly: a row names its metric by id instead of repeating ~60 bytes of
    /// type and metric, and its (metric, date) key is the only index (schema 5 had a second, on (type, date)).
    /// A ten-year database's baselines took 60 MB in schema 5 and 27 MB here, and a first import inserts them
    /// in about half the time (docs/baselines.md, "Measured"). Rows stay in a rowid table: PostgreSQL's copy
    /// keys every row by its rowid (`PostgresSchema`).
    package static let baselineRows = CompactTable(
        publicName: "baselines",
        table: SchemaTable(
            name: "baseline_rows",
            doc: "The rows of the `baselines` view, stored compactly: the metric as an id (`baseline_metrics`).",
            columns: [
                column("metric_id", "INTEGER NOT NULL REFERENCES baseline_metrics(id)", "The metric."),
                column("date", "TEXT NOT NULL", "As in the view."),
            ] + baselineStatistics,
            constraints: ["UNIQUE (metric_id, date)"]),
        select: { d in
            """
            SELECT \(d.personColumn("b"))b.date, m.type, m.column_name, \
            \(baselineStatistics.map { "b." + $0.name }.joined(separator: ", "))
            FROM \(d.table("baseline_rows")) AS b JOIN \(d.table("baseline_metrics")) AS m ON m.id = b.metric_id\(d.samePerson("m", "b"))
            """
        })
}
