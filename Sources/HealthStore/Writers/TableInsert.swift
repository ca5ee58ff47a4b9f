import HealthModel
import HealthSQLite
import HealthSchema

/// The INSERT of one table of `Schema`, with a parameter named after each column (`:type_id`). Writers resolve
/// the parameters of the columns they bind once, when they are made (`parameter(_:)`, which refuses a name the
/// table does not have), and bind by them: nothing depends on the order of the columns in the schema, and the
/// per-row path is the same `sqlite3_bind_*` call as before.
struct TableInsert {
    let statement: SQLiteStatement
    let table: SchemaTable

    /// `verb`: `INSERT`, `INSERT OR IGNORE` (a row whose unique key is taken is not stored) or
    /// `INSERT OR REPLACE`.
    init(_ connection: SQLiteConnection, table name: String, verb: String = "INSERT") throws {
        guard let table = Schema.tables.first(where: { $0.name == name }) else {
            throw ImportError(.internal, "no table \(name) in the schema")
        }
        self.table = table
        statement = try connection.prepare(table.namedInsertSQL(verb))
    }

    /// The parameter of `column`; a name that is not a column of the table is a programming error, reported
    /// when the writer is made.
    func parameter(_ column: String) throws -> Int32 {
        let index = statement.parameterIndex(":" + column)
        guard index > 0 else { throw ImportError(.internal, "no column \(column) in \(table.name)") }
        return index
    }

    /// Binds a row given by column name and inserts it, for tables with few rows (the names are looked up by
    /// SQLite on each call). Columns not named are NULL.
    func run(_ row: KeyValuePairs<String, SQLiteValue>) throws {
        try run(columns: row.map { ($0.key, $0.value) })
    }

    func run(columns row: [(String, SQLiteValue)]) throws {
        defer { statement.clearBindings() }
        for (column, value) in row { statement.bind(try parameter(column), value) }
        try statement.run()
    }
}
