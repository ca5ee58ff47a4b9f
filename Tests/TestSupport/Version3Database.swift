import Foundation
import HealthSQLite
import HealthSchema
import HealthStore

/// A database of schema version 3, as healthetl wrote it before schema 4, holding the rows of a current one:
/// the tables of `Tests/Fixtures/schema-v3.sql` (the DDL of version 3, taken from a database it wrote) filled
/// from the public tables and views of `database`.
package func makeVersion3Database(from database: String, at path: String) throws {
    let ddl = try String(contentsOfFile: Fixtures.repositoryRoot + "/Tests/Fixtures/schema-v3.sql", encoding: .utf8)
    let old = try SQLiteConnection(path: path)
    try old.execute(ddl)
    try old.execute("ATTACH '\(database)' AS current")
    for row in try old.query("SELECT name FROM main.sqlite_master WHERE type = 'table'") {
        guard let table = row[0].text else { continue }
        let columns = try old.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].text }
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        try old.execute("INSERT INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM current.\"\(table)\"")
    }
    try old.execute("DETACH current")
    try old.execute("PRAGMA user_version = 3")
}

/// Every row of every public table and view (schema 3's names and columns), ordered by every column: what a
/// reader sees, whatever the storage under it.
package func publicContent(of database: String) throws -> [String: [[SQLiteValue]]] {
    let db = try SQLiteConnection(path: database, create: false)
    var content: [String: [[SQLiteValue]]] = [:]
    for table in Schema.publicTables
    where !["import_runs", "import_warnings", "import_run_changes"].contains(table.name) {
        let order = (1...table.columns.count).map(String.init).joined(separator: ", ")
        let columns = table.columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        content[table.name] = try db.query("SELECT \(columns) FROM \"\(table.name)\" ORDER BY \(order)")
    }
    return content
}
