import HealthSQLite

/// The SQLite schema: healthetl's public API. Changing a table here changes docs/schema.md (a test
/// regenerates it and compares) and needs a `userVersion` bump with a migration.
///
/// Two layers (schema 4): the public tables and views people query, with the names and columns they have had
/// since schema 3, and the stored tables under them, where the largest are kept compactly (`Schema+Compact`).
public enum Schema {
    /// `PRAGMA user_version` of databases this version writes.
    public static let userVersion = 6

    package static let sampleTimeColumns = [
        column("start_date", "TEXT", "Start instant, UTC, ISO 8601 (`2019-06-18T01:07:11Z`)."),
        column("end_date", "TEXT", "End instant, UTC, ISO 8601."),
        column("creation_date", "TEXT", "When the sample was saved on the phone, UTC; often absent."),
        column(
            "utc_offset", "TEXT",
            "The offset the export wrote the dates in (`-04:00`): the phone's offset at export time, the same for "
                + "every date in one export, so it says nothing about where the sample happened."),
        column(
            "local_date", "TEXT",
            "Calendar day (`YYYY-MM-DD`) of the start in the sample's own `HKTimeZone` metadata when it has "
                + "one, else in the import's time zone (`--timezone`, default the machine's)."),
    ]

    package static let sourceColumns = [
        column("source_id", "INTEGER NOT NULL REFERENCES sources(id)", "The app or device that wrote it."),
        column("source_name", "TEXT NOT NULL", "`sourceName` as exported (`Jonathan’s Apple Watch`, `Health`)."),
    ]

    package static func sampleTable(
        _ name: String, _ doc: String, valueType: String, valueDoc: String,
        rawValueDoc: String = "The value exactly as exported."
    ) -> SchemaTable {
        SchemaTable(
            name: name, doc: doc,
            columns: [
                column("id", "INTEGER PRIMARY KEY", "Row id, stable within one database."),
                column(
                    "type", "TEXT NOT NULL",
                    "The HealthKit identifier as exported (`HKQuantityTypeIdentifierStepCount`)."),
            ] + sourceColumns + sampleTimeColumns + [
                column("value", valueType, valueDoc),
                column(
                    "unit", "TEXT",
                    "Unit of `value`: the type's canonical unit (`kg`, `m`, `kcal`, `count/min`, `mg/dL`, `%` as a "
                        + "0–1 fraction…) once converted; NULL for categories."),
                column("raw_value", valueType, rawValueDoc),
                column("raw_unit", "TEXT", "The unit exactly as exported (the user's display unit)."),
                column(
                    "flags", "INTEGER NOT NULL DEFAULT 0",
                    "Bit set of problems found in the record, which is kept anyway: 1 start after end, 2 missing "
                        + "start, 4 missing end, 8 missing type, 16 missing source, 32 unparsable date (never taken for "
                        + "another record's exact duplicate), 64 "
                        + "missing or non-numeric value, 128 missing unit, 256 unit unreadable or of the wrong dimension "
                        + "(value and unit kept as exported). Not a problem: 512 entered by hand "
                        + "(`HKWasUserEntered` = 1), which the rollups rank last."),
                column("xml_line", "INTEGER", "Line of the `<Record` tag in the export XML."),
                column(
                    "identity", "INTEGER NOT NULL",
                    "Fingerprint of what the record says (type, source, device, UTC dates, exported value and "
                        + "unit, metadata): the export has no UUIDs. Unique per type and start: exact "
                        + "duplicates are stored once, except records with an unparsable date, whose copies get the "
                        + "next free identity (see docs/identity.md)."),
                FeedSchema.originColumn,  // Health Auto Export feed (FeedSchema.swift)
            ],
            constraints: ["UNIQUE (type, start_date, identity)"])
    }

    /// The relations people query, with schema 3's names and columns, in schema 3's order: what docs/schema.md
    /// describes first and the CSV folder holds (a file each). Seven of them are views over compact tables
    /// (`compactTables`); the others are stored as they are.
    public static let publicTables: [SchemaTable] =
        sampleTables + workoutTables + recordTables + incrementalTables + baselineTables

    /// The tables as stored (schema 4): the dictionaries, then the public tables with each of the large
    /// ones replaced by its compact table. What the DDL creates, PostgreSQL mirrors and an upgrade copies.
    public static let tables: [SchemaTable] =
        dictionaryTables
        + publicTables.map { table in compactTables.first { $0.publicName == table.name }?.table ?? table }

    /// The tables and views of a new database. `createIndexes` completes it (before or after loading rows).
    package static func createTables(_ connection: SQLiteConnection) throws {
        for table in tables { try connection.execute(table.createSQL) }
        for statement in dictionaryContents { try connection.execute(statement) }
        for view in views { try connection.execute(view) }
    }

    /// The indexes, and the version that marks the schema complete.
    package static func createIndexes(_ connection: SQLiteConnection) throws {
        for index in indexes { try connection.execute(index) }
        try connection.execute("PRAGMA user_version = \(userVersion)")
    }
}
