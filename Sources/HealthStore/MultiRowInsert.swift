import HealthSQLite

/// The INSERT of a table whose rows come many at a time (a route's points, an HRV record's beats, a sample's
/// metadata entries), run for several rows at once.
///
/// Each step of a statement has a fixed cost in SQLite (the VM's set-up, opening and closing cursors on the
/// table and its indexes, halting), as large as a small row's own work. A statement of `rowsPerStep` rows
/// pays it once for all of them. Rows are still inserted one after the other, in order, so row ids and the
/// result are the same as one statement per row; only whole groups of rows go through the wide statement,
/// and the rest through the one-row statement.
struct MultiRowInsert {
    let oneRow: SQLiteStatement
    let manyRows: SQLiteStatement
    let rowsPerStep: Int
    let columns: Int32

    init(_ connection: SQLiteConnection, table: SchemaTable, rowsPerStep: Int) throws {
        let names = table.columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        let width = table.columnNames.count
        func values(_ rows: Int) -> String {
            (0..<rows).map { row in
                "(" + (1...width).map { "?\(row * width + $0)" }.joined(separator: ", ") + ")"
            }.joined(separator: ", ")
        }
        oneRow = try connection.prepare("INSERT INTO \"\(table.name)\" (\(names)) VALUES \(values(1))")
        manyRows = try connection.prepare("INSERT INTO \"\(table.name)\" (\(names)) VALUES \(values(rowsPerStep))")
        self.rowsPerStep = rowsPerStep
        columns = Int32(width)
    }

    /// Inserts `count` rows: `bind(statement, firstParameter, row)` binds the columns of row number `row`
    /// (0..<count) at parameters `firstParameter`, `firstParameter + 1`, ….
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
