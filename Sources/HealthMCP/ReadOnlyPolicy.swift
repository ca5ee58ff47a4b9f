import HealthSQLite

/// What SQL the server lets run on its connection: reading, and nothing else. Consulted by SQLite's authorizer
/// for every action of every statement as it is compiled, so it holds for the `sql` tool's queries and for the
/// server's own alike; the connection is also opened read-only, so this is the second of two locks.
package struct ReadOnlyPolicy {
    /// Functions that reach outside the database or change the process: refused by name whatever SQLite was built
    /// with (`load_extension` is also disabled on the connection; the others exist only in some builds or shells).
    static let refusedFunctions: Set<String> = [
        "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer", "sqlite_dbpage", "zipfile",
    ]

    /// PRAGMAs that only describe the schema or the file, allowed as a query (`PRAGMA table_info(workouts)`) or
    /// as a table-valued function (`pragma_table_info('workouts')`): `argument` is a table or index name.
    static let describingPragmas: Set<String> = [
        "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    ]

    /// PRAGMAs allowed only without a value (reading the setting; with a value they would change it).
    static let readingPragmas: Set<String> = [
        "user_version", "schema_version", "data_version", "page_count", "page_size", "freelist_count", "encoding",
        "journal_mode", "application_id", "collation_list", "function_list", "pragma_list", "table_list",
    ]

    /// Whether the server's own BEGIN/COMMIT is being compiled (set only around them by `HealthDatabase`): a
    /// query cannot end the read transaction it runs in, nor open another.
    package var allowsTransactionControl = false

    package init() {}

    package func allows(_ access: SQLiteAccess) -> Bool {
        // Only the database file and SQLite's own temp schema of the statement being compiled; an attached file
        // cannot exist (ATTACH is refused and the connection's limit is 0 attached databases).
        switch access.action {
        case .select, .recursive:
            return true
        case .read:
            return access.database == nil || access.database == "main" || access.database == "temp"
        case .function(let name):
            return !Self.refusedFunctions.contains(name.lowercased())
        case .pragma(let name, let argument):
            let pragma = name.lowercased()
            if Self.describingPragmas.contains(pragma) { return true }
            return argument == nil && Self.readingPragmas.contains(pragma)
        case .transaction:
            return allowsTransactionControl
        case .other:
            return false
        }
    }
}
