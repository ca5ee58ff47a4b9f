extension Schema {
    package static let sampleTables: [SchemaTable] = [
        sampleTable(
            "cumulative_samples",
            "Quantity samples of cumulative types (steps, distance, energy, …): values that add up over time. "
                + "Sum them; never average them.",
            valueType: "REAL", valueDoc: "The quantity."),
        sampleTable(
            "discrete_samples",
            "Quantity samples of discrete types (heart rate, body mass, …) and of types missing from the catalog. "
                + "Average, min or max them; never sum them.",
            valueType: "REAL", valueDoc: "The quantity."),
        sampleTable(
            "category_samples",
            "Category samples (sleep stages, stand hours, mindful sessions, heart-rate events, …).",
            valueType: "TEXT",
            valueDoc: "The category value string (`HKCategoryValueSleepAnalysisAsleepCore`); NULL for types "
                + "that have none (mindful sessions, heart-rate events). iOS 8/9 exports wrote the enum's number "
                + "instead; it is stored as the name exports of that time wrote (sleep `0` → "
                + "`HKCategoryValueSleepAnalysisInBed`, `1` → `HKCategoryValueSleepAnalysisAsleep`; NotApplicable "
                + "`0` → NULL), or as written when the catalog has no name for it (counted in the warnings).",
            rawValueDoc: "The value exactly as exported: the number of an iOS 8/9 record (`1`), else the same as "
                + "`value`."),
        SchemaTable(
            name: "metadata",
            doc: "`MetadataEntry` children of samples, correlations, workouts, their events/activities and routes. "
                + "In iOS 8/9 exports, which wrote metadata as attributes, every attribute of a `Record` beyond "
                + "its standard ones (`HKWasUserEntered`, `sessionId`, …), including the pre-aggregated records' "
                + "`recordCount`, `min`, `max` and `average`; `number` of the last three is converted like the "
                + "record's value, which is `average` when the record has no `value`.",
            columns: [
                column("parent_table", "TEXT NOT NULL", "The table of the element the entry belongs to."),
                column("parent_id", "INTEGER NOT NULL", "Its `id` in that table."),
                column("key", "TEXT NOT NULL", "Metadata key as exported (`HKTimeZone`, `Health Mate App Version`)."),
                column("value", "TEXT", "Value as exported."),
                column(
                    "number", "REAL",
                    "The number of a `<number> <unit>` or plain numeric value, converted to a standard unit (m, kg, s, "
                        + "degC, kcal, m/s, …) when the unit is known; `HKWeatherHumidity` written ×100 is divided back."
                ),
                column("number_unit", "TEXT", "The unit of `number`, when the value had one."),
            ]),
        SchemaTable(
            name: "sources",
            doc: "Apps and devices that wrote data. `device_*` columns split the `HKDevice` description.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("name", "TEXT NOT NULL", "`sourceName`."),
                column("version", "TEXT", "`sourceVersion`."),
                column("device_name", "TEXT", ""),
                column("device_manufacturer", "TEXT", ""),
                column("device_model", "TEXT", "`iPhone`, `Watch`, …"),
                column("device_hardware", "TEXT", "`iPhone10,4`, `Watch6,7`, …"),
                column("device_software", "TEXT", ""),
                column("device", "TEXT", "The device description without its per-record `0x…` address."),
            ]),
        SchemaTable(
            name: "correlations",
            doc: "Blood pressure and food correlations. Their child records also appear at top level in the "
                + "export and are stored once, in the sample tables, linked by `correlation_samples`.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("type", "TEXT NOT NULL", "`HKCorrelationTypeIdentifierBloodPressure`, `…Food`."),
            ] + sourceColumns + sampleTimeColumns + [
                column("flags", "INTEGER NOT NULL DEFAULT 0", "As in the sample tables."),
                column("xml_line", "INTEGER", ""),
                column(
                    "identity", "INTEGER NOT NULL DEFAULT 0",
                    "Fingerprint of the correlation and its children (see docs/identity.md)."),
            ]),
        SchemaTable(
            name: "correlation_samples",
            doc: "Which samples belong to which correlation.",
            columns: [
                column("correlation_id", "INTEGER NOT NULL REFERENCES correlations(id)", ""),
                column(
                    "sample_table", "TEXT NOT NULL", "`cumulative_samples`, `discrete_samples` or `category_samples`."),
                column("sample_id", "INTEGER NOT NULL", ""),
            ]),
        SchemaTable(
            name: "sync_identifiers",
            doc: "The sync identifier (`HKMetadataKeySyncIdentifier`) of each app's samples and routes, with the "
                + "version kept: among records of one source with the same identifier only the highest "
                + "`HKMetadataKeySyncVersion` is stored, as HealthKit itself does.",
            columns: [
                column("source_name", "TEXT NOT NULL", "The app (source name); versions of the app share identifiers."),
                column("sync_identifier", "TEXT NOT NULL", ""),
                column("version", "INTEGER NOT NULL", "The version kept."),
                column("row_table", "TEXT NOT NULL", "Where the kept record is."),
                column("row_id", "INTEGER NOT NULL", ""),
            ],
            constraints: ["PRIMARY KEY (source_name, sync_identifier)"]),
        SchemaTable(
            name: "hrv_beats",
            doc: "Beat-to-beat readings of HRV (SDNN) records.",
            columns: [
                column("sample_id", "INTEGER NOT NULL", "The HRV record in `discrete_samples`."),
                column("seq", "INTEGER NOT NULL", "Order within the record."),
                column("bpm", "REAL", "Instantaneous beats per minute."),
                column(
                    "time", "TEXT",
                    "The beat's instant, UTC, with centiseconds: the first beat anchored to the record's start, "
                        + "later ones by their difference (the export writes a bare, localised time of day)."),
                column("raw_time", "TEXT", "The time of day exactly as exported (`6:14:48.94 PM`)."),
            ]),
    ]
}
