extension Schema {
    /// What the export holds besides samples and workouts (types, Activity summaries, ECGs, clinical records,
    /// audiograms, prescriptions, State of Mind, `me`, documents), and the log of the runs that wrote them.
    package static let recordTables: [SchemaTable] = [
        SchemaTable(
            name: "data_types",
            doc: "The types that appear in the database, with the names a person reads: every sample, correlation "
                + "and workout statistic type, and every workout activity. Rebuilt by every run. Display names "
                + "follow the Health app where it has a name of its own (`BodyMass` → Weight, "
                + "`HeartRateVariabilitySDNN` → Heart Rate Variability); the others are the identifier without its "
                + "`HK…TypeIdentifier`/`HKWorkoutActivityType` prefix, split into words at capitals and digits "
                + "(`HKQuantityTypeIdentifierStepCount` → Step Count, `UVExposure` → UV Exposure, `VO2` kept whole), "
                + "with a leading \"Distance\" moved to the end (Cycling Distance) and a leading \"Dietary\" "
                + "dropped (Protein).",
            columns: [
                column(
                    "type", "TEXT NOT NULL",
                    "The identifier as exported (`HKQuantityTypeIdentifierStepCount`, "
                        + "`HKWorkoutActivityTypeRunning`)."),
                column(
                    "display_name", "TEXT NOT NULL",
                    "What the Health app calls it (`Step Count`, `Heart Rate "
                        + "Variability`, `Sleep`, `Running`)."),
                column(
                    "kind", "TEXT NOT NULL",
                    "`cumulative` (sum it), `discrete` (average it), `category`, `correlation`, or `workout` (an "
                        + "activity type)."),
                column(
                    "unit", "TEXT",
                    "The canonical unit values are stored in (`count`, `kg`, `count/min`); for types missing from "
                        + "the catalog, the unit of their first sample. NULL for categories, correlations and "
                        + "workouts."),
                column("row_table", "TEXT NOT NULL", "The table its rows are in."),
            ],
            constraints: ["PRIMARY KEY (type, row_table)"]),
        SchemaTable(
            name: "activity_summaries",
            doc: "Daily Activity rings. `date` is a calendar day with no time zone.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("date", "TEXT", "`dateComponents`."),
                column("active_energy_burned", "REAL", ""),
                column("active_energy_burned_goal", "REAL", ""),
                column("active_energy_burned_unit", "TEXT", "`kcal` once converted."),
                column("apple_move_time", "REAL", "Minutes."),
                column("apple_move_time_goal", "REAL", ""),
                column("apple_exercise_time", "REAL", "Minutes."),
                column("apple_exercise_time_goal", "REAL", ""),
                column("apple_stand_hours", "REAL", ""),
                column("apple_stand_hours_goal", "REAL", ""),
                column("other_json", "TEXT", "Attributes of other versions (`appleMoveMinutes`), as JSON."),
                column("raw_active_energy_burned_unit", "TEXT", "The energy unit as exported, when converted."),
            ]),
        SchemaTable(
            name: "ecg_recordings",
            doc: "ECG recordings from `electrocardiograms/*.csv`.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("file_name", "TEXT NOT NULL", ""),
                column("recorded_date", "TEXT", "UTC."),
                column("utc_offset", "TEXT", ""),
                column("local_date", "TEXT", ""),
                column("classification", "TEXT", "As written (localised)."),
                column("symptoms", "TEXT", ""),
                column("software_version", "TEXT", ""),
                column("device", "TEXT", ""),
                column("sample_rate_hz", "REAL", ""),
                column("lead", "TEXT", ""),
                column("unit", "TEXT", "Unit of the samples (`µV`)."),
                column("sample_count", "INTEGER NOT NULL", ""),
                column("samples", "BLOB", "The voltages as little-endian 32-bit floats, in `unit`."),
                column("header_json", "TEXT", "The header lines as written, as JSON [[label, value], …]."),
            ]),
        SchemaTable(
            name: "clinical_records",
            doc: "Health Records (FHIR) with their resource JSON.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("type", "TEXT", "`HKClinicalTypeIdentifierLabResultRecord`, …"),
                column("identifier", "TEXT", "FHIR resource id."),
                column("source_name", "TEXT", "The institution."),
                column("source_url", "TEXT", ""),
                column("fhir_version", "TEXT", ""),
                column("received_date", "TEXT", "UTC."),
                column("resource_file_path", "TEXT", ""),
                column("resource_json", "TEXT", "The FHIR resource (query with SQLite's JSON functions)."),
                column("problem", "TEXT", "Why the resource could not be read, if so."),
                column("xml_line", "INTEGER", ""),
            ]),
        SchemaTable(
            name: "audiograms",
            doc: "Hearing tests.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("type", "TEXT NOT NULL", ""),
            ] + sourceColumns + sampleTimeColumns + [
                column("xml_line", "INTEGER", "")
            ]),
        SchemaTable(
            name: "audiogram_points",
            doc: "`SensitivityPoint`s of audiograms.",
            columns: [
                column("audiogram_id", "INTEGER NOT NULL REFERENCES audiograms(id)", ""),
                column("frequency", "REAL", ""),
                column("frequency_unit", "TEXT", "`Hz`."),
                column("left_ear_value", "REAL", ""),
                column("left_ear_unit", "TEXT", "`dBHL`."),
                column("right_ear_value", "REAL", ""),
                column("right_ear_unit", "TEXT", ""),
                column("attributes_json", "TEXT", "All attributes as written, including masking and clamping."),
            ]),
        SchemaTable(
            name: "vision_prescriptions",
            doc: "Glasses and contact lens prescriptions (iOS 16+).",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("type", "TEXT", "`glasses` or `contacts`."),
                column("date_issued", "TEXT", "UTC."),
                column("expiration_date", "TEXT", "UTC."),
                column("brand", "TEXT", ""),
                column("attributes_json", "TEXT", "All attributes as written (including the undeclared `device`)."),
                column("right_eye_json", "TEXT", "`RightEye` attributes as JSON."),
                column(
                    "left_eye_json", "TEXT",
                    "`LeftEye` attributes as JSON. Apple's exporter writes `nearPD` from the right eye."),
                column("attachments_json", "TEXT", ""),
            ]),
        SchemaTable(
            name: "state_of_mind",
            doc: "State of Mind entries (iOS 18+), which Apple's export does not contain: read from a Health Auto "
                + "Export JSON file (`--state-of-mind`). Average `valence_shifted` or `valence_percent`, never "
                + "`valence`: on the raw [-1, 1] scale a very pleasant and a very unpleasant day average to "
                + "a misleading \"neutral\".",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("identifier", "TEXT", "The entry's `id` in its source."),
                column("source_name", "TEXT NOT NULL", "Where it came from (`Health Auto Export`)."),
                column("kind", "TEXT", "`dailyMood` or `momentaryEmotion`."),
                column("start_date", "TEXT", "UTC."),
                column("end_date", "TEXT", "UTC."),
                column("utc_offset", "TEXT", ""),
                column("local_date", "TEXT", ""),
                column("valence", "REAL", "In [-1, 1] (very unpleasant … very pleasant)."),
                column("valence_shifted", "REAL", "valence + 1, in [0, 2]."),
                column("valence_percent", "REAL", "valence_shifted / 2 × 100, in [0, 100]."),
                column("classification", "TEXT", "`valenceClassification` as written."),
                column("labels_json", "TEXT", "JSON array of labels (`Happy`, `Stressed`, …)."),
                column("associations_json", "TEXT", "JSON array of associations (`Work`, `Family`, …)."),
                column("metadata_json", "TEXT", "The entry's metadata object, as JSON."),
            ]),
        SchemaTable(
            name: "me",
            doc: "The characteristics (`Me`): one row per attribute.",
            columns: [
                column("key", "TEXT PRIMARY KEY", "`HKCharacteristicTypeIdentifierDateOfBirth`, …"),
                column(
                    "value", "TEXT",
                    "As exported (`\"\"` when unset). iOS 8/9 exports write HealthKit's enum numbers (sex `2` = "
                        + "male) and the birthday as `yyyyMMdd`."),
            ]),
        SchemaTable(
            name: "documents",
            doc: "Files kept as they are: `export_cda.xml` (not well formed as Apple writes it), byte for byte "
                + "whatever its size (streamed in, never read whole). Not stored, with a warning in "
                + "`import_warnings` naming the file and its size: a document larger than SQLite holds in one value "
                + "(1,000,000,000 bytes, SQLite's default length limit), and one whose bytes do not match the size "
                + "its zip entry or file announced (damaged, or changed while read).",
            columns: [
                column("name", "TEXT PRIMARY KEY", "The path relative to the export (`export_cda.xml`)."),
                column("content", "BLOB", "The file's bytes."),
            ]),
        SchemaTable(
            name: "import_runs",
            doc: "One row per `healthetl import`, whatever its outcome (a failed run's changes are rolled back, "
                + "but the attempt is recorded, so `healthetl status` can show it).",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("input_path", "TEXT", ""),
                column("input_size", "INTEGER", "Bytes on disk."),
                column("input_kind", "TEXT", "`zip`, `folder` or `xml`."),
                column("main_entry", "TEXT", "The export XML inside the input."),
                column("export_date", "TEXT", "`ExportDate`, UTC."),
                column("export_utc_offset", "TEXT", ""),
                column("locale", "TEXT", "`HealthData@locale`."),
                column("time_zone", "TEXT", "The zone used for `local_date`."),
                column("started_at", "TEXT", "UTC."),
                column("finished_at", "TEXT", "UTC."),
                column(
                    "outcome", "TEXT",
                    "`ok`; `unchanged` (the same export file as the last run: nothing to do); `refused` (older than "
                        + "the last import, without `--force`); `failed` (rolled back; see `error`)."),
                column("tool_version", "TEXT", ""),
                column("summary_json", "TEXT", "Counts per kind, warnings, timings (the `--json` summary)."),
                column(
                    "input_fingerprint", "TEXT",
                    "Hash of the zip's table of contents (every entry's name, CRC-32 and size) and of the options "
                        + "that shape the data; a run whose fingerprint equals the last successful run's has "
                        + "nothing to do."),
                column("error", "TEXT", "The error of a failed or refused run."),
                column("added", "INTEGER", "Rows added, all types (details: `import_run_changes`)."),
                column("replaced", "INTEGER", "Rows replaced by a higher sync version."),
                column("deleted", "INTEGER", "Rows no longer in the export, moved to `deleted_samples`."),
                column("unchanged", "INTEGER", "Rows already in the database."),
            ]),
        SchemaTable(
            name: "import_warnings",
            doc: "Counted warnings of each run (missing side files, unknown elements, flagged records, …).",
            columns: [
                column("run_id", "INTEGER NOT NULL REFERENCES import_runs(id)", ""),
                column("message", "TEXT NOT NULL", ""),
                column("count", "INTEGER NOT NULL", ""),
            ]),
    ]

    /// Indexes for the common queries (children by parent). One type over a date range is served by the
    /// sample tables' UNIQUE (type, start_date, identity).
    public static let indexes: [String] =
        [
            "CREATE INDEX metadata_rows_parent ON metadata_rows(parent_table_id, parent_id)",
            "CREATE INDEX hrv_beat_rows_sample ON hrv_beat_rows(sample_id)",
            "CREATE INDEX route_point_rows_route ON route_point_rows(route_id, seq)",
            "CREATE INDEX workouts_start ON workouts(start_date)",
            // For workout_overview: a workout's statistics and routes.
            "CREATE INDEX workout_statistics_workout ON workout_statistics(workout_id)",
            "CREATE INDEX workout_routes_workout ON workout_routes(workout_id)",
            "CREATE INDEX correlation_samples_correlation ON correlation_samples(correlation_id)",
            // For re-imports: finding a workout or correlation by identity, and what hangs off a deleted row.
            "CREATE INDEX workouts_identity ON workouts(identity)",
            "CREATE INDEX correlations_identity ON correlations(identity)",
            "CREATE INDEX correlation_samples_sample ON correlation_samples(sample_table, sample_id)",
            "CREATE INDEX sync_identifiers_row ON sync_identifiers(row_table, row_id)",
            "CREATE INDEX deleted_samples_run ON deleted_samples(run_id)",
            "CREATE INDEX rollups_period ON rollups(period, label)",
            "CREATE INDEX rollups_type ON rollups(type, period_start)",
        ] + FeedSchema.indexes
}
