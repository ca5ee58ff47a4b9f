import HealthSchema
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
    /// the sample tables' (person, type, start_date) doubled the time of a COPY). The compact sample tables get
    /// one on (person, type_id, start_date), which the sample views' filters on `type` and `start_date` reach
    /// through `type_names`; `baseline_rows` one on (person, metric_id, date), which the `baselines` view's
    /// filter on `column_name` reaches through `baseline_metrics`. Indexes that only serve the importer's own
    /// lookups are left out.
    package static let indexes: [String] =
        Schema.compactTables.map(\.table).filter { $0.columnNames.contains("type_id") }
        .map {
            "CREATE INDEX \($0.name)_person_type_start ON \(name).\($0.name) USING brin (person, type_id, start_date)"
        }
        + [
            "CREATE INDEX baseline_rows_person_metric_date ON \(name).baseline_rows USING brin (person, metric_id, date)"
        ]
        + Schema.indexes.compactMap { sql in
            let importerOnly: Set = ["workouts_identity", "correlations_identity", "sync_identifiers_row"]
            // `CREATE INDEX <index> ON <table>(<columns>)`
            guard sql.hasPrefix("CREATE INDEX "), let on = sql.range(of: " ON "),
                let open = sql[on.upperBound...].firstIndex(of: "(")
            else { return nil }
            let index = sql[sql.index(sql.startIndex, offsetBy: 13)..<on.lowerBound]
            // The feed's partial indexes serve the merge rule in the working copy, not queries.
            guard !importerOnly.contains(String(index)), !index.hasSuffix("_feed") else { return nil }
            return "CREATE INDEX \(index) ON \(name).\(sql[on.upperBound..<open]) USING brin (person, "
                + sql[sql.index(after: open)...]
        }

    /// The views: SQLite's, written in PostgreSQL's dialect (with `person`).
    static let views: [String] = Schema.views(in: .postgres)

    /// The DDL of a new healthetl schema, in order.
    package static var createStatements: [String] {
        ["CREATE SCHEMA IF NOT EXISTS \(name)"] + tables.map(\.createSQL) + indexes + views + [
            "CREATE TABLE \(name).schema_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "INSERT INTO \(name).schema_info VALUES ('schema_version', '\(Schema.userVersion)')",
        ]
    }
}
