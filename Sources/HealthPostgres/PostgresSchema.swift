import HealthStore

/// The PostgreSQL schema, derived from `Schema` (the one description of the tables) rather than written twice:
/// every table gets a leading `person` column, its key and unique constraints are made per person, and the
/// SQLite types map to PostgreSQL's. Tables live in their own PostgreSQL schema, `healthetl`, so that names
/// like `sources` or `metadata` cannot collide with a study's other tables.
package enum PostgresSchema {
    package static let name = "healthetl"

    /// A table as stored in PostgreSQL.
    struct Table {
        let table: SchemaTable
        /// The column that identifies a row within one person: `id` where the SQLite table has an
        /// `INTEGER PRIMARY KEY`, else `row_key`, an extra column holding the SQLite rowid.
        let key: String
        var hasOwnKey: Bool { key == "id" }
        /// The columns after `person` and `row_key`, in `Schema` order, with their SQLite type.
        var columns: [(name: String, type: SQLiteType)] {
            table.columns.map { ($0.name, SQLiteType(declaration: $0.declaration)) }
        }
        var qualifiedName: String { "\(PostgresSchema.name).\"\(table.name)\"" }

        /// Every column after `person`: `row_key` (when there is one), then the table's columns.
        var storedColumnList: String {
            ((hasOwnKey ? [] : ["row_key"]) + table.columnNames).map { "\"\($0)\"" }.joined(separator: ", ")
        }

        var createSQL: String {
            // Byte order for the person: the key's first column is compared on every insert.
            var parts = ["person TEXT COLLATE \"C\" NOT NULL"]
            if !hasOwnKey { parts.append("row_key BIGINT NOT NULL") }
            for column in table.columns {
                parts.append("\"\(column.name)\" " + PostgresSchema.declaration(column.declaration))
            }
            // The only btree: deletes of changed rows find them by it. SQLite's unique keys are not repeated:
            // the working copy enforces them, and a second btree per table would double the loading cost
            // (measured: 0.63 s → 1.5 s for 255 k samples). Foreign keys are left out too (rows arrive table
            // by table; the importer keeps the links).
            parts.append("PRIMARY KEY (person, \(key))")
            return "CREATE TABLE \(qualifiedName) (\n    " + parts.joined(separator: ",\n    ") + "\n)"
        }
    }

    enum SQLiteType {
        case integer, real, text, blob

        init(declaration: String) {
            switch declaration.uppercased().split(separator: " ").first {
            case "INTEGER": self = .integer
            case "REAL": self = .real
            case "BLOB": self = .blob
            default: self = .text
            }
        }

        var postgres: String {
            switch self {
            case .integer: return "BIGINT"
            case .real: return "DOUBLE PRECISION"
            case .text: return "TEXT"
            case .blob: return "BYTEA"
            }
        }
    }

    static let tables: [Table] = Schema.tables.map { table in
        let ownKey = table.columns.contains { $0.name == "id" && $0.declaration.uppercased() == "INTEGER PRIMARY KEY" }
        return Table(table: table, key: ownKey ? "id" : "row_key")
    }

    /// `INTEGER NOT NULL REFERENCES sources(id)` → `BIGINT NOT NULL`.
    static func declaration(_ sqlite: String) -> String {
        var words = sqlite.split(separator: " ").map(String.init)
        let type = SQLiteType(declaration: sqlite).postgres
        words.removeFirst()
        var kept: [String] = [type]
        var index = 0
        while index < words.count {
            switch words[index].uppercased() {
            case "NOT" where index + 1 < words.count && words[index + 1].uppercased() == "NULL":
                kept.append("NOT NULL")
                index += 2
            case "DEFAULT" where index + 1 < words.count:
                kept.append("DEFAULT " + words[index + 1])
                index += 2
            case "PRIMARY" where index + 1 < words.count:
                kept.append("NOT NULL")  // the key becomes (person, column): see `createSQL`
                index += 2
            case "REFERENCES":
                index += 2
            default:
                index += 1
            }
        }
        return kept.joined(separator: " ")
    }

    /// Indexes for queries, person first, as BRIN: a person's rows are written together and in the order of
    /// these columns, so block-range summaries find them while costing almost nothing to load (a btree on
    /// the sample tables' (person, type, start_date) doubled the time of a COPY). The sample tables get one on
    /// (person, type, start_date). Indexes that only serve the importer's own lookups are left out.
    package static let indexes: [String] = ["cumulative_samples", "discrete_samples", "category_samples"].map {
        "CREATE INDEX \($0)_person_type_start ON \(name).\($0) USING brin (person, type, start_date)"
    } + Schema.indexes.compactMap { sql in
        let importerOnly: Set = ["workouts_identity", "correlations_identity", "sync_identifiers_row"]
        // `CREATE INDEX <index> ON <table>(<columns>)`
        guard sql.hasPrefix("CREATE INDEX "), let on = sql.range(of: " ON "),
            let open = sql[on.upperBound...].firstIndex(of: "(")
        else { return nil }
        let index = sql[sql.index(sql.startIndex, offsetBy: 13)..<on.lowerBound]
        guard !importerOnly.contains(String(index)) else { return nil }
        return "CREATE INDEX \(index) ON \(name).\(sql[on.upperBound..<open]) USING brin (person, "
            + sql[sql.index(after: open)...]
    }

    /// The SQLite views, rewritten for PostgreSQL (and with `person`).
    static let views: [String] = [
        """
        CREATE VIEW \(name).all_quantity_samples AS
            SELECT 'cumulative' AS aggregation, * FROM \(name).cumulative_samples
            UNION ALL SELECT 'discrete' AS aggregation, * FROM \(name).discrete_samples
        """,
        """
        CREATE VIEW \(name).sleep AS
            SELECT person, id, source_name, start_date, end_date, local_date,
                   replace(value, 'HKCategoryValueSleepAnalysis', '') AS stage,
                   extract(epoch FROM end_date::timestamptz - start_date::timestamptz) / 3600 AS hours
            FROM \(name).category_samples WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis'
        """,
        """
        CREATE VIEW \(name).daily_rollups AS
            SELECT person, label AS date, type, statistic, column_name, value, unit, sources
            FROM \(name).rollups WHERE period = 'day'
        """,
        Schema.workoutOverviewSQL(schema: "\(name).", person: true),
    ]

    /// Brings a schema of version 2 to version 3: what `SchemaMigration.fromVersion2` does for SQLite. Each
    /// person's new column and table are filled by their next import (the working copy does it).
    static var upgradeFromVersion2: [String] {
        let added: Set = ["workout_statistics_workout", "workout_routes_workout"]
        // swift-format-ignore: NeverForceUnwrap
        let dataTypes = tables.first { $0.table.name == "data_types" }!
        return [
            "ALTER TABLE \(name).workouts ADD COLUMN local_start TEXT",
            dataTypes.createSQL,
        ] + indexes.filter { index in added.contains { index.hasPrefix("CREATE INDEX \($0) ") } } + [
            Schema.workoutOverviewSQL(schema: "\(name).", person: true),
            "UPDATE \(name).schema_info SET value = '\(Schema.userVersion)' WHERE key = 'schema_version'",
        ]
    }

    /// Health Auto Export's feed added `origin` to the sample tables and `workouts` without a version bump
    /// (`FeedSchema`): a schema of this version written before it gets the column (FeedSchema.swift).
    static func addFeedOrigin(_ connection: PostgresConnection) throws {
        for table in FeedSchema.tables {
            let present = try connection.scalar(
                "SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 "
                    + "AND column_name = 'origin'", [name, table])
            guard present == "0" else { continue }
            try connection.execute(
                "ALTER TABLE \(name).\(table) ADD COLUMN origin \(declaration(FeedSchema.originColumn.declaration))")
        }
    }

    /// The DDL of a new healthetl schema, in order.
    package static var createStatements: [String] {
        ["CREATE SCHEMA IF NOT EXISTS \(name)"] + tables.map(\.createSQL) + indexes + views + [
            "CREATE TABLE \(name).schema_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "INSERT INTO \(name).schema_info VALUES ('schema_version', '\(Schema.userVersion)')",
        ]
    }
}
