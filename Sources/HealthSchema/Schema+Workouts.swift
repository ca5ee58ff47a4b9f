extension Schema {
    package static let workoutTables: [SchemaTable] = [
        SchemaTable(
            name: "workouts",
            doc: "Workouts. iOS ≤ 15 exports carry their totals as attributes; iOS 16+ exports carry them as "
                + "`workout_statistics`, from which `total_distance` and `total_energy_burned` are filled when the "
                + "attributes are absent: the workout's own statistic (the distance type that matches the activity, "
                + "e.g. `DistanceSwimming` for a swim; else all its distance types added up, as for a swim-bike-run), "
                + "or, when the workout has none, the sum of its activities' statistics. `workout_overview` shows "
                + "them in km and kcal.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("activity_type", "TEXT NOT NULL", "`HKWorkoutActivityTypeRunning`, …"),
            ] + sourceColumns + sampleTimeColumns + [
                column("duration", "REAL", "Duration as exported (excludes pauses)."),
                column("duration_unit", "TEXT", "Unit of `duration` (`min`)."),
                column(
                    "total_distance", "REAL",
                    "Total distance, in metres once converted: the `totalDistance` attribute (iOS ≤ 15), else from "
                        + "the workout's distance statistics (iOS 16+)."),
                column("total_distance_unit", "TEXT", "`m` once converted."),
                column(
                    "total_energy_burned", "REAL",
                    "Active energy: the `totalEnergyBurned` attribute (iOS ≤ 15), else the workout's "
                        + "`ActiveEnergyBurned` statistic (iOS 16+)."),
                column("total_energy_burned_unit", "TEXT", "`kcal` once converted."),
                column("raw_total_distance", "REAL", "The total distance as exported, when converted to metres."),
                column("raw_total_distance_unit", "TEXT", ""),
                column("raw_total_energy_burned", "REAL", "The total energy as exported, when converted to kcal."),
                column("raw_total_energy_burned_unit", "TEXT", ""),
                column("flags", "INTEGER NOT NULL DEFAULT 0", "As in the sample tables."),
                column("xml_line", "INTEGER", ""),
                column(
                    "identity", "INTEGER NOT NULL DEFAULT 0",
                    "Fingerprint of the workout with everything nested in it (see docs/identity.md): how a "
                        + "re-import recognises it."),
                column(
                    "local_start", "TEXT",
                    "Local time of the start with its offset (`2024-03-05T07:12:00+01:00`), in the workout's "
                        + "`HKTimeZone` when it has one, else in the database's time zone."),
                FeedSchema.originColumn,  // Health Auto Export feed (FeedSchema.swift)
            ]),
        SchemaTable(
            name: "workout_duplicates",
            doc: "Workouts that probably record the same session from another app (Watch and Strava, say): linked, "
                + "never deleted. Two workouts of different sources are linked when they overlap by at least half "
                + "of the shorter one; `workout_id` is the later-imported one.",
            columns: [
                column("workout_id", "INTEGER NOT NULL REFERENCES workouts(id)", ""),
                column("probable_duplicate_of", "INTEGER NOT NULL REFERENCES workouts(id)", ""),
                column("overlap_fraction", "REAL NOT NULL", "Overlap divided by the shorter workout's span."),
            ]),
        SchemaTable(
            name: "workout_events",
            doc: "Pause/resume/lap/segment/marker events, of the workout or of one of its activities.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("workout_id", "INTEGER NOT NULL REFERENCES workouts(id)", ""),
                column("activity_id", "INTEGER REFERENCES workout_activities(id)", "Set when nested in an activity."),
                column("type", "TEXT NOT NULL", "`HKWorkoutEventTypePause`, …"),
                column("date", "TEXT", "Start of the event, UTC."),
                column("duration", "REAL", ""),
                column("duration_unit", "TEXT", ""),
            ]),
        SchemaTable(
            name: "workout_activities",
            doc: "The activities of multisport or interval workouts (iOS 16+).",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("workout_id", "INTEGER NOT NULL REFERENCES workouts(id)", ""),
                column("uuid", "TEXT", ""),
                column("start_date", "TEXT", ""),
                column("end_date", "TEXT", ""),
                column("duration", "REAL", ""),
                column("duration_unit", "TEXT", ""),
            ]),
        SchemaTable(
            name: "workout_statistics",
            doc: "Per-workout (or per-activity) statistics: `sum` for cumulative types, `average`/`minimum`/"
                + "`maximum` for discrete ones.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("workout_id", "INTEGER NOT NULL REFERENCES workouts(id)", ""),
                column("activity_id", "INTEGER REFERENCES workout_activities(id)", ""),
                column("type", "TEXT NOT NULL", "Quantity type identifier."),
                column("start_date", "TEXT", ""),
                column("end_date", "TEXT", ""),
                column("average", "REAL", ""),
                column("minimum", "REAL", ""),
                column("maximum", "REAL", ""),
                column("sum", "REAL", ""),
                column("unit", "TEXT", "The statistic type's canonical unit once converted."),
                column("raw_unit", "TEXT", "The unit as exported, when the values were converted from it."),
            ]),
        SchemaTable(
            name: "workout_routes",
            doc: "Routes of workouts: a GPX file (iOS 13+) or inline locations (iOS 12).",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("workout_id", "INTEGER NOT NULL REFERENCES workouts(id)", ""),
            ] + sourceColumns + [
                column("start_date", "TEXT", ""),
                column("end_date", "TEXT", ""),
                column("creation_date", "TEXT", ""),
                column("file_path", "TEXT", "`FileReference` path as exported."),
                column("point_count", "INTEGER NOT NULL", "Rows in `route_points`."),
                column("problem", "TEXT", "Why no points could be read (missing or broken GPX file), if so."),
            ]),
        SchemaTable(
            name: "route_points",
            doc: "Route locations.",
            columns: [
                column("route_id", "INTEGER NOT NULL REFERENCES workout_routes(id)", ""),
                column("seq", "INTEGER NOT NULL", "Order within the route."),
                column("time", "TEXT", "UTC, ISO 8601."),
                column("latitude", "REAL NOT NULL", ""),
                column("longitude", "REAL NOT NULL", ""),
                column("elevation", "REAL", "Metres."),
                column("speed", "REAL", "m/s; NULL where the device marked it invalid (-1)."),
                column("course", "REAL", "Degrees; NULL where invalid."),
                column("horizontal_accuracy", "REAL", "Metres."),
                column("vertical_accuracy", "REAL", "Metres."),
            ]),
    ]
}
