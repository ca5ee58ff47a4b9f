extension Schema {
    /// The tables that make re-imports incremental and auditable (docs/incremental.md).
    static let incrementalTables: [SchemaTable] = [
        SchemaTable(
            name: "anchors",
            doc: "Where the last runs left off, per data type (like a persisted `HKQueryAnchor`). A type whose "
                + "fingerprint a run finds unchanged is not written at all, so `export_date` is the export its "
                + "current content came from.",
            columns: [
                column("type", "TEXT PRIMARY KEY", "The HealthKit identifier (`HKWorkoutTypeIdentifier` for workouts)."),
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
                    "`deleted` (not in the newer export) or `replaced` (a higher `HKMetadataKeySyncVersion` came)."),
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
                column("replaced", "INTEGER NOT NULL", "Rows replaced by a higher sync version."),
                column("deleted", "INTEGER NOT NULL", "Rows no longer in the export (now in `deleted_samples`)."),
                column("unchanged", "INTEGER NOT NULL", "Rows the export still has, as they were."),
            ]),
        SchemaTable(
            name: "settings",
            doc: "Settings of the database that later runs keep using.",
            columns: [
                column("key", "TEXT PRIMARY KEY", "`time_zone`: the zone `local_date` is computed in."),
                column("value", "TEXT", ""),
            ]),
    ]

    /// Tables filled from scratch on every run: small, without a stable identity in the export, and
    /// always complete in it. (`state_of_mind` only when the run reads a State of Mind file.)
    static let snapshotTables = [
        "activity_summaries", "ecg_recordings", "clinical_records", "audiograms", "audiogram_points",
        "vision_prescriptions", "me", "documents",
    ]
}
