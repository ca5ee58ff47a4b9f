extension Schema {
    /// The views: the public tables stored compactly, then the views for people browsing with Datasette or
    /// the sqlite3 shell.
    public static let viewDescriptions: [SchemaView] =
        compactViews + [
            SchemaView(
                name: "all_quantity_samples",
                doc: "`cumulative_samples` and `discrete_samples` together, with the table each row came from.",
                columns: [viewColumn("aggregation", "`cumulative` or `discrete`: the table the row is in.")]
                    + sampleTables[0].columns.map { viewColumn($0.name, $0.doc) },
                sql: { d in
                    """
                    CREATE VIEW \(d.table("all_quantity_samples")) AS
                        SELECT 'cumulative' AS aggregation, * FROM \(d.table("cumulative_samples"))
                        UNION ALL SELECT 'discrete' AS aggregation, * FROM \(d.table("discrete_samples"))
                    """
                }),
            SchemaView(
                name: "sleep",
                doc: "Sleep samples, one row per stretch of one stage, in hours.",
                columns: [
                    viewColumn("id", "The row in `category_samples`."),
                    viewColumn("source_name", "The app or device that recorded it."),
                    viewColumn("start_date", "UTC."),
                    viewColumn("end_date", "UTC."),
                    viewColumn("local_date", "Calendar day of the start."),
                    viewColumn(
                        "stage", "`InBed`, `AsleepUnspecified`, `AsleepCore`, `AsleepDeep`, `AsleepREM`, `Awake`."),
                    viewColumn("hours", "Length of the stretch."),
                ],
                sql: { d in
                    """
                    CREATE VIEW \(d.table("sleep")) AS
                        SELECT \(d.personColumn())id, source_name, start_date, end_date, local_date,
                               replace(value, 'HKCategoryValueSleepAnalysis', '') AS stage,
                               \(d.hoursBetween("start_date", "end_date")) AS hours
                        FROM \(d.table("category_samples")) WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
                    """
                }),
            SchemaView(
                name: "daily_rollups",
                doc: "The daily part of `rollups`: one row per day, type and statistic.",
                columns: [
                    viewColumn(
                        "date", "The local calendar day (`2024-03-31`); sleep counts for the day the night ends."),
                    viewColumn("type", "The HealthKit identifier (`data_types` has its name)."),
                    viewColumn("statistic", "`sum`, `avg`, `min`, `max`, `count` or `<Value>_hours`."),
                    viewColumn("column_name", "The column of `daily.csv` (`StepCount`, `HeartRate_avg`)."),
                    viewColumn("value", ""),
                    viewColumn("unit", "Unit of `value`."),
                    viewColumn("sources", "The sources that contributed, joined by `; `."),
                ],
                sql: { d in
                    """
                    CREATE VIEW \(d.table("daily_rollups")) AS
                        SELECT \(d.personColumn())label AS date, type, statistic, column_name, value, unit, sources
                        FROM \(d.table("rollups")) WHERE period = 'day'
                    """
                }),
            workoutOverview,
        ]

    /// The DDL of the views.
    public static var views: [String] { viewDescriptions.map(\.sql) }

    /// The DDL of the same views in another dialect (PostgreSQL's), in the same order.
    package static func views(in dialect: ViewDialect) -> [String] { viewDescriptions.map { $0.sql(in: dialect) } }

    package static let heartRate = "'HKQuantityTypeIdentifierHeartRate'"

    /// One row per workout, in words and units a person reads. Heart rate comes from the workout's own
    /// statistics (iOS 16+), else from the heart-rate samples recorded during it (older exports).
    package static let workoutOverview = SchemaView(
        name: "workout_overview",
        doc: "One row per workout, as a person reads it: the activity's name, local start, duration, distance, "
            + "active energy, heart rate, elevation gain, indoor or not, source and route points. Distance and "
            + "energy are `workouts.total_distance` and `total_energy_burned`: the export's attributes up to iOS "
            + "15, the workout's statistics from iOS 16 on (see `workouts`).",
        columns: [
            viewColumn("workout_id", "The row in `workouts`."),
            viewColumn(
                "activity", "The activity as the Health app names it (`Running`, `Traditional Strength Training`)."),
            viewColumn("local_date", "Calendar day of the start, in the workout's own time zone."),
            viewColumn("local_start", "Local clock time of the start (`2024-03-05 07:12`)."),
            viewColumn("duration_min", "Duration in minutes, pauses excluded."),
            viewColumn("distance_km", "Total distance in kilometres; NULL for workouts without one."),
            viewColumn("active_energy_kcal", "Active energy in kilocalories."),
            viewColumn(
                "avg_heart_rate",
                "Average heart rate (count/min): the workout's statistic, else the average of "
                    + "the heart-rate samples recorded during it."),
            viewColumn("max_heart_rate", "Maximum heart rate (count/min), from the same place."),
            viewColumn("elevation_gain_m", "`HKElevationAscended` in metres."),
            viewColumn("indoor", "1 indoor, 0 outdoor (`HKIndoorWorkout`), NULL when not recorded."),
            viewColumn("source", "The app or device that recorded it."),
            viewColumn("route_points", "Locations of its routes (0 without a route)."),
            viewColumn("activity_type", "The HealthKit identifier (`HKWorkoutActivityTypeRunning`)."),
            viewColumn("start_date", "UTC."),
            viewColumn("end_date", "UTC."),
        ],
        sql: workoutOverviewSQL)

    /// The view's DDL in a dialect: in PostgreSQL's, a person column, and every look-up kept within the
    /// workout's person.
    package static func workoutOverviewSQL(_ dialect: ViewDialect) -> String {
        let schema = dialect.schema
        func same(_ alias: String) -> String { dialect.samePerson(alias, "w") }
        return """
            CREATE VIEW \(schema)workout_overview AS
                SELECT \(dialect.personColumn("w"))w.id AS workout_id,
                       coalesce((SELECT display_name FROM \(schema)data_types t WHERE t.type = w.activity_type
                                 AND t.row_table = 'workouts'\(same("t"))), w.activity_type) AS activity,
                       w.local_date,
                       replace(substr(w.local_start, 1, 16), 'T', ' ') AS local_start,
                       CASE w.duration_unit WHEN 'min' THEN w.duration WHEN 's' THEN w.duration / 60
                           WHEN 'hr' THEN w.duration * 60 END AS duration_min,
                       CASE w.total_distance_unit WHEN 'm' THEN w.total_distance / 1000 WHEN 'km' THEN w.total_distance
                           WHEN 'mi' THEN w.total_distance * 1.609344 WHEN 'yd' THEN w.total_distance * 0.0009144
                           END AS distance_km,
                       CASE w.total_energy_burned_unit WHEN 'kcal' THEN w.total_energy_burned
                           WHEN 'Cal' THEN w.total_energy_burned WHEN 'kJ' THEN w.total_energy_burned / 4.184
                           END AS active_energy_kcal,
                       coalesce(
                           (SELECT average FROM \(schema)workout_statistics s WHERE s.workout_id = w.id\(same("s"))
                            AND s.activity_id IS NULL AND s.type = \(heartRate)),
                           (SELECT avg(value) FROM \(schema)discrete_samples d WHERE d.type = \(heartRate)\(same("d"))
                            AND d.start_date >= w.start_date AND d.start_date <= w.end_date)) AS avg_heart_rate,
                       coalesce(
                           (SELECT maximum FROM \(schema)workout_statistics s WHERE s.workout_id = w.id\(same("s"))
                            AND s.activity_id IS NULL AND s.type = \(heartRate)),
                           (SELECT max(value) FROM \(schema)discrete_samples d WHERE d.type = \(heartRate)\(same("d"))
                            AND d.start_date >= w.start_date AND d.start_date <= w.end_date)) AS max_heart_rate,
                       (SELECT max(number) FROM \(schema)metadata m WHERE m.parent_table = 'workouts'
                        AND m.parent_id = w.id\(same("m")) AND m.key = 'HKElevationAscended' AND m.number_unit = 'm')
                           AS elevation_gain_m,
                       (SELECT max(CASE WHEN m.value IN ('1', 'true', 'YES') THEN 1 ELSE 0 END) FROM \(schema)metadata m
                        WHERE m.parent_table = 'workouts' AND m.parent_id = w.id\(same("m")) AND m.key = 'HKIndoorWorkout')
                           AS indoor,
                       w.source_name AS source,
                       (SELECT coalesce(sum(point_count), 0) FROM \(schema)workout_routes r
                        WHERE r.workout_id = w.id\(same("r"))) AS route_points,
                       w.activity_type, w.start_date, w.end_date
                FROM \(schema)workouts w
            """
    }
}
