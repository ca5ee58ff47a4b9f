/// Schema 4 keeps the six largest tables compactly and shows each through a view with its schema 3 name and
/// columns, so every query, CSV file, report and Datasette page written for schema 3 reads the same rows.
/// Schema 6 does the same for `baselines` (Schema+Baselines.swift).
///
/// What makes a row small: the type and the metadata key are integer ids into dictionaries (`type_names`,
/// `metadata_keys`, `parent_tables`) instead of ~40 bytes of text repeated on every row and index entry; the
/// source name is not repeated (`source_id` names it); end and creation instants are integer seconds, offsets
/// integer seconds, point and beat times integer centiseconds; `raw_value` and `raw_unit` are NULL where they
/// equal `value` and `unit`. `start_date` and `local_date` stay text: rows are looked up, filtered, ordered and
/// grouped by them, and a view column computed from an integer could not use the (type_id, start_date,
/// identity) index nor compare as cheaply (measured: a day's heart rate by `start_date` 0.2 ms as text,
/// 150 ms computed). Measured on a two-year export: samples with their index 2.6× smaller, metadata 3×.
extension Schema {
    /// A compact table and the view that shows it as the public table `publicName`.
    public struct CompactTable: Sendable {
        public var publicName: String
        public var table: SchemaTable
        /// The view's SELECT in a dialect, whose columns are those of the public table, in its order (after
        /// `person` in PostgreSQL).
        var select: @Sendable (ViewDialect) -> String
    }

    public static let compactTables: [CompactTable] = [
        sampleRows("cumulative_samples", "cumulative_rows", valueType: "REAL"),
        sampleRows("discrete_samples", "discrete_rows", valueType: "REAL"),
        sampleRows("category_samples", "category_rows", valueType: "TEXT"),
        CompactTable(
            publicName: "metadata",
            table: SchemaTable(
                name: "metadata_rows",
                doc: "The rows of the `metadata` view, stored compactly: the parent table and the key as ids.",
                columns: [
                    column(
                        "parent_table_id", "INTEGER NOT NULL REFERENCES parent_tables(id)",
                        "The table of the element the entry belongs to (`parent_tables`)."),
                    column("parent_id", "INTEGER NOT NULL", "Its `id` in that table."),
                    column("key_id", "INTEGER NOT NULL REFERENCES metadata_keys(id)", "The key (`metadata_keys`)."),
                    column("value", "TEXT", "As in `metadata`."),
                    column("number", "REAL", "As in `metadata`."),
                    column("number_unit", "TEXT", "As in `metadata`."),
                ]),
            select: { d in
                """
                SELECT \(d.personColumn("m"))p.name AS parent_table, m.parent_id, k.key, m.value, m.number, m.number_unit
                FROM \(d.table("metadata_rows")) AS m LEFT JOIN \(d.table("parent_tables")) AS p ON p.id = m.parent_table_id\(d.samePerson("p", "m"))
                    LEFT JOIN \(d.table("metadata_keys")) AS k ON k.id = m.key_id\(d.samePerson("k", "m"))
                """
            }),
        CompactTable(
            publicName: "hrv_beats",
            table: SchemaTable(
                name: "hrv_beat_rows",
                doc: "The rows of the `hrv_beats` view, stored compactly: the time as integer centiseconds.",
                columns: [
                    column("sample_id", "INTEGER NOT NULL", "The HRV record in `discrete_rows`."),
                    column("seq", "INTEGER NOT NULL", "Order within the record."),
                    column("bpm", "REAL", ""),
                    column("time_centis", "INTEGER", "The beat's instant, UTC, in hundredths of a second since 1970."),
                    column("raw_time", "TEXT", "As in `hrv_beats`."),
                ]),
            select: { d in
                """
                SELECT \(d.personColumn())sample_id, seq, bpm, \(d.centisecondText("time_centis")) AS time, raw_time FROM \(d.table("hrv_beat_rows"))
                """
            }),
        CompactTable(
            publicName: "route_points",
            table: SchemaTable(
                name: "route_point_rows",
                doc: "The rows of the `route_points` view, stored compactly: the time as integer centiseconds.",
                columns: [
                    column("route_id", "INTEGER NOT NULL REFERENCES workout_routes(id)", ""),
                    column("seq", "INTEGER NOT NULL", "Order within the route."),
                    column("time_centis", "INTEGER", "UTC, in hundredths of a second since 1970."),
                    column("latitude", "REAL NOT NULL", ""),
                    column("longitude", "REAL NOT NULL", ""),
                    column("elevation", "REAL", ""),
                    column("speed", "REAL", ""),
                    column("course", "REAL", ""),
                    column("horizontal_accuracy", "REAL", ""),
                    column("vertical_accuracy", "REAL", ""),
                ]),
            select: { d in
                """
                SELECT \(d.personColumn())route_id, seq, \(d.centisecondText("time_centis")) AS time, latitude, longitude, elevation, speed,
                       course, horizontal_accuracy, vertical_accuracy
                FROM \(d.table("route_point_rows"))
                """
            }),
        baselineRows,  // schema 6
    ]

    /// The public tables schema 4 made compact: what the upgrade from schema 3 converts (later ones, like
    /// `baselines`, come with their own version's step).
    package static let version4CompactNames: Set = [
        "cumulative_samples", "discrete_samples", "category_samples", "metadata", "hrv_beats", "route_points",
    ]

    /// Names stored once and referred to by id from the compact tables. Ids are never reused or renumbered.
    public static let dictionaryTables: [SchemaTable] = [
        SchemaTable(
            name: "type_names",
            doc: "The sample types of the compact sample tables, by id.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column(
                    "type", "TEXT NOT NULL UNIQUE", "The HealthKit identifier (`HKQuantityTypeIdentifierStepCount`)."),
            ]),
        SchemaTable(
            name: "metadata_keys",
            doc: "The keys of `metadata_rows`, by id.",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("key", "TEXT NOT NULL UNIQUE", "As exported (`HKTimeZone`, `Health Mate App Version`)."),
            ]),
        SchemaTable(
            name: "parent_tables",
            doc: "The tables metadata can belong to, by id (fixed).",
            columns: [
                column("id", "INTEGER PRIMARY KEY", ""),
                column("name", "TEXT NOT NULL UNIQUE", "The public table's name (`workouts`)."),
            ]),
        baselineMetrics,  // schema 6
    ]

    /// The dictionaries of schema 4 (`version4CompactNames`).
    package static let version4DictionaryNames: Set = ["type_names", "metadata_keys", "parent_tables"]

    /// The tables that own metadata, in the order of their fixed `parent_tables` ids (1, 2, …): new ones go at
    /// the end.
    package static let metadataParents = [
        "cumulative_samples", "discrete_samples", "category_samples", "correlations", "workouts", "workout_events",
        "workout_activities", "workout_routes", "audiograms", "vision_prescriptions",
    ]

    /// The `parent_tables` id of a public table that owns metadata.
    package static func parentTableID(_ name: String) -> Int64 {
        // swift-format-ignore: NeverForceUnwrap
        // Every caller names one of `metadataParents` (checked by the schema tests).
        Int64(metadataParents.firstIndex(of: name)! + 1)
    }

    /// The rows a new database's dictionaries start with.
    package static var dictionaryContents: [String] {
        metadataParents.enumerated().map { index, name in
            "INSERT INTO parent_tables (id, name) VALUES (\(index + 1), '\(name)')"
        }
    }

    /// The views with the public names of the compact tables.
    package static var compactViews: [SchemaView] {
        compactTables.map { compact in
            // swift-format-ignore: NeverForceUnwrap
            // Every compact table has a public table of this name (checked by the schema tests).
            let shape = publicTables.first { $0.name == compact.publicName }!
            return SchemaView(
                name: compact.publicName, doc: shape.doc + " (A view of `\(compact.table.name)`.)",
                columns: shape.columns.map { viewColumn($0.name, $0.doc) },
                sql: { d in "CREATE VIEW \(d.table(compact.publicName)) AS\n" + compact.select(d) })
        }
    }

    /// A compact sample table: its public columns are those of `sampleTable`.
    private static func sampleRows(_ publicName: String, _ name: String, valueType: String) -> CompactTable {
        CompactTable(
            publicName: publicName,
            table: SchemaTable(
                name: name,
                doc: "The rows of the `\(publicName)` view, stored compactly. Query the view; this table is faster "
                    + "to filter by `type_id` (`type_names`) and reads instants as integers.",
                columns: [
                    column("id", "INTEGER PRIMARY KEY", "As in the view."),
                    column("type_id", "INTEGER NOT NULL REFERENCES type_names(id)", "The type (`type_names`)."),
                    column("source_id", "INTEGER NOT NULL REFERENCES sources(id)", "The app or device that wrote it."),
                    column("start_date", "TEXT", "Start instant, UTC, ISO 8601, as in the view."),
                    column("end_seconds", "INTEGER", "End instant, UTC, seconds since 1970."),
                    column("creation_seconds", "INTEGER", "Creation instant, UTC, seconds since 1970."),
                    column("utc_offset_seconds", "INTEGER", "The offset the export wrote the dates in, in seconds."),
                    column("local_date", "TEXT", "As in the view."),
                    column("value", valueType, "As in the view."),
                    column("unit", "TEXT", "As in the view."),
                    column("raw_value", valueType, "The value as exported; NULL when it equals `value`."),
                    column("raw_unit", "TEXT", "The unit as exported; NULL when it equals `unit`."),
                    column("flags", "INTEGER NOT NULL DEFAULT 0", "As in the view."),
                    column("xml_line", "INTEGER", "As in the view."),
                    column("identity", "INTEGER NOT NULL", "As in the view."),
                    column("origin", "INTEGER NOT NULL DEFAULT 0", "As in the view (1: Health Auto Export's feed)."),
                ],
                constraints: ["UNIQUE (type_id, start_date, identity)"]),
            select: { d in
                let sourceName =
                    d.lookupsAsJoins
                    ? "s.name"
                    : "(SELECT s.name FROM \(d.table("sources")) AS s WHERE s.id = r.source_id\(d.samePerson("s", "r")))"
                let sourceJoin =
                    d.lookupsAsJoins
                    ? "\n    LEFT JOIN \(d.table("sources")) AS s ON s.id = r.source_id\(d.samePerson("s", "r"))" : ""
                return """
                    SELECT \(d.personColumn("r"))r.id, t.type, r.source_id, \(sourceName) AS source_name,
                           r.start_date, \(d.instantText("r.end_seconds")) AS end_date,
                           \(d.instantText("r.creation_seconds")) AS creation_date,
                           \(d.offsetText("r.utc_offset_seconds")) AS utc_offset, r.local_date, r.value, r.unit,
                           coalesce(r.raw_value, r.value) AS raw_value, coalesce(r.raw_unit, r.unit) AS raw_unit, r.flags,
                           r.xml_line, r.identity, r.origin
                    FROM \(d.table(name)) AS r LEFT JOIN \(d.table("type_names")) AS t ON t.id = r.type_id\(d.samePerson("t", "r"))\(sourceJoin)
                    """
            })
    }

    /// SQL for integer seconds as the text the public tables show (`2019-06-18T01:07:11Z`).
    package static func instantText(_ seconds: String) -> String {
        "strftime('%Y-%m-%dT%H:%M:%SZ', \(seconds), 'unixepoch')"
    }

    /// SQL for integer centiseconds as text with hundredths when there are any (`2019-06-18T01:07:11.94Z`).
    /// (Floor division, so that instants before 1970 read as they did too.)
    package static func centisecondText(_ centis: String) -> String {
        let hundredths = "((\(centis) % 100 + 100) % 100)"
        return "strftime('%Y-%m-%dT%H:%M:%S', (\(centis) - \(hundredths)) / 100, 'unixepoch') "
            + "|| CASE WHEN \(hundredths) = 0 THEN '' ELSE printf('.%02d', \(hundredths)) END || 'Z'"
    }

    /// SQL for an offset in seconds as text (`-04:00`).
    package static func offsetText(_ seconds: String) -> String {
        "CASE WHEN \(seconds) IS NOT NULL THEN printf('%s%02d:%02d', CASE WHEN \(seconds) < 0 THEN '-' ELSE '+' END, "
            + "abs(\(seconds)) / 3600, abs(\(seconds)) / 60 % 60) END"
    }
}
