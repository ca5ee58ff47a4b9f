extension Schema {
    /// The tables that make re-imports incremental and auditable (docs/incremental.md).
    package static let incrementalTables: [SchemaTable] = [
        SchemaTable(
            name: "anchors",
            doc: "Where the last runs left off, per data type (like a persisted `HKQueryAnchor`). A type whose "
                + "fingerprint a run finds unchanged is not written at all, so `export_date` is the export its "
                + "current content came from.",
            columns: [
                column(
                    "type", "TEXT PRIMARY KEY", "The HealthKit identifier (`HKWorkoutTypeIdentifier` for workouts)."),
                column("row_table", "TEXT NOT NULL", "Where its rows are."),
                column("row_count", "INTEGER NOT NULL", "Rows of the type in the database."),
                column("newest_end_date", "TEXT", "Latest `end_date` among them, UTC."),
                column("newest_creation_date", "TEXT", "Latest `creation_date` among them, UTC."),
                column(
                    "fingerprint", "TEXT NOT NULL",
                    "Order-independent hash of the identities of its rows: equal fingerprints, equal content."),
                column("export_date", "TEXT", "`ExportDate` of the export that last changed it, UTC."),
                column("run_id", "INTEGER", "The `import_runs` row that last changed it."),
            ]),
        SchemaTable(
            name: "deleted_samples",
            doc: "Rows a re-import removed, kept here so that nothing is lost silently (the export-file "
                + "equivalent of HealthKit's `HKDeletedObject`): samples, correlations and workouts that are no "
                + "longer in the newer export, and old versions replaced by a higher sync version.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("run_id", "INTEGER NOT NULL REFERENCES import_runs(id)", "The run that noticed it."),
                column(
                    "reason", "TEXT NOT NULL",
                    "`deleted` (not in the newer export), `replaced` (a higher `HKMetadataKeySyncVersion` came), "
                        + "`feed_superseded` (a Health Auto Export feed row whose time a newer full export covers) or "
                        + "`feed_resent` (a feed row a later feed file sent again differently, or no longer)."),
                column("row_table", "TEXT NOT NULL", "The table it was in."),
                column("row_id", "INTEGER NOT NULL", "Its `id` there."),
                column("type", "TEXT", "Its type (activity type for workouts)."),
                column("source_name", "TEXT", ""),
                column("start_date", "TEXT", "UTC."),
                column("end_date", "TEXT", "UTC."),
                column("local_date", "TEXT", ""),
                column("identity", "INTEGER", ""),
                column("row_json", "TEXT", "The whole row as a JSON object, column by column."),
                column("metadata_json", "TEXT", "Its metadata as a JSON array of [key, value] pairs."),
            ]),
        SchemaTable(
            name: "import_run_changes",
            doc: "What each run changed, per type.",
            columns: [
                column("run_id", "INTEGER NOT NULL REFERENCES import_runs(id)", ""),
                column("type", "TEXT NOT NULL", ""),
                column("row_table", "TEXT NOT NULL", ""),
                column("added", "INTEGER NOT NULL", "New rows."),
                column(
                    "replaced", "INTEGER NOT NULL",
                    "Rows replaced by a higher sync version; feed rows replaced by an export or a later feed file."),
                column("deleted", "INTEGER NOT NULL", "Rows no longer in the export (now in `deleted_samples`)."),
                column("unchanged", "INTEGER NOT NULL", "Rows the export still has, as they were."),
            ]),
        SchemaTable(
            name: "rollups",
            doc: "Statistics per type and period in the database's time zone, rebuilt by every run (docs/rollups.md): "
                + "cumulative types summed with one source per stretch of time (no iPhone + Watch double "
                + "counting), discrete types averaged, category types as hours per value. `daily_rollups` is "
                + "the daily part.",
            columns: [
                column("period", "TEXT NOT NULL", "`hour`, `day`, `week` or `month`."),
                column(
                    "label", "TEXT NOT NULL",
                    "`2024-03-31` (day), the Monday of an ISO week (`2024-03-25`), `2024-03` (month), or the local "
                        + "start of an hour with its offset (`2024-10-27T02:00+02:00`)."),
                column("period_start", "TEXT NOT NULL", "The period's start, UTC."),
                column("type", "TEXT NOT NULL", "The HealthKit identifier; `StateOfMind` for State of Mind."),
                column(
                    "statistic", "TEXT NOT NULL",
                    "`sum` (cumulative), `avg`/`min`/`max`/`count` (discrete, State of Mind), `<Value>_hours` "
                        + "(category: `AsleepCore_hours`)."),
                column("column_name", "TEXT NOT NULL", "The column of `daily.csv` (`StepCount`, `HeartRate_avg`)."),
                column("value", "REAL", ""),
                column("unit", "TEXT", "Unit of `value`: the type's unit, `count`, `hr` for hours, `%`."),
                column("sources", "TEXT", "The sources that contributed, joined by `; `."),
            ]),
        SchemaTable(
            name: "settings",
            doc: "Settings of the database that later runs keep using.",
            columns: [
                column(
                    "key", "TEXT PRIMARY KEY",
                    "`time_zone`: the zone `local_date` and the rollups are computed in; `rollups`: the rollup "
                        + "options (periods, source priority) as JSON; `last_id:<table>`: the highest id given out, "
                        + "so the id of a deleted row is never given to another; `units`: `converted` or `as exported`, "
                        + "which every later run must keep."),
                column("value", "TEXT", ""),
            ]),
    ]

    /// Tables filled from scratch on every run: small, without a stable identity in the export, and
    /// always complete in it. (`state_of_mind` only when the run reads a State of Mind file.)
    package static let snapshotTables = [
        "activity_summaries", "ecg_recordings", "clinical_records", "audiograms", "audiogram_points",
        "vision_prescriptions", "me", "documents",
    ]
}
