import HealthSQLite
import HealthSchema
import HealthStore

/// Every row of every data table (not the run history), for "the database is as it was" checks.
package func dataContent(of database: String) throws -> [String: [[SQLiteValue]]] {
    let db = try SQLiteConnection(path: database, create: false)
    var content: [String: [[SQLiteValue]]] = [:]
    for table in Schema.tables where !["import_runs", "import_warnings", "import_run_changes"].contains(table.name) {
        // Ordered by every column: the same rows in another insertion order are the same content.
        let order = (1...table.columns.count).map(String.init).joined(separator: ", ")
        content[table.name] = try db.query("SELECT * FROM \"\(table.name)\" ORDER BY \(order)")
    }
    return content
}
