import HealthModel
import HealthSQLite
import HealthSchema

/// The INSERT of a table whose rows come many at a time (a route's points, an HRV record's beats, a sample's
/// metadata entries), run for several rows at once.
///
/// Each step of a statement has a fixed cost in SQLite (the VM's set-up, opening and closing cursors on the
/// table and its indexes, halting), as large as a small row's own work. A statement of `rowsPerStep` rows
/// pays it once for all of them. Rows are still inserted one after the other, in order, so row ids and the
/// result are the same as one statement per row; only whole groups of rows go through the wide statement,
/// and the rest through the one-row statement.
///
/// Parameters are named after the columns and the row (`:seq_0`, `:seq_1`, …); a writer asks for the
/// `offset` of each column it binds once, and binds row `n`'s value at `first + offset`.
struct MultiRowInsert {
    let oneRow: SQLiteStatement
    let manyRows: SQLiteStatement
    let rowsPerStep: Int
    let table: SchemaTable
    private let columns: Int32

    init(_ connection: SQLiteConnection, table name: String, rowsPerStep: Int) throws {
        // swift-format-ignore: NeverForceUnwrap
        // Writers name tables of Schema.tables (checked by the schema tests).
        let table = Schema.tables.first { $0.name == name }!
        let names = table.columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        func values(_ rows: Int) -> String {
            (0..<rows).map { row in
                "(" + table.columnNames.map { ":\($0)_\(row)" }.joined(separator: ", ") + ")"
            }.joined(separator: ", ")
        }
        oneRow = try connection.prepare("INSERT INTO \"\(table.name)\" (\(names)) VALUES \(values(1))")
        manyRows = try connection.prepare("INSERT INTO \"\(table.name)\" (\(names)) VALUES \(values(rowsPerStep))")
        self.rowsPerStep = rowsPerStep
        self.table = table
        columns = Int32(table.columns.count)
    }

    /// Where `column`'s parameter is, counted from a row's first parameter.
    func offset(_ column: String) throws -> Int32 {
        let index = oneRow.parameterIndex(":\(column)_0")
        guard index > 0 else { throw ImportError(.internal, "no column \(column) in \(table.name)") }
        return index - 1
    }

    /// Inserts `count` rows: `bind(statement, firstParameter, row)` binds the columns of row number `row`
    /// (0..<count) at `firstParameter + offset(column)`.
    @inline(__always)
    func insert(count: Int, bind: (SQLiteStatement, Int32, Int) -> Void) throws {
        var row = 0
        while count - row >= rowsPerStep {
            for offset in 0..<rowsPerStep { bind(manyRows, Int32(offset) * columns + 1, row + offset) }
            try manyRows.run()
            row += rowsPerStep
        }
        while row < count {
            bind(oneRow, 1, row)
            try oneRow.run()
            row += 1
        }
    }
}
