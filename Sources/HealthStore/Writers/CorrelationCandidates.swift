import HealthSQLite
import HealthSchema

/// Top-level samples that a correlation may list again as children (blood pressure and dietary types), by
/// identity → (table, id): the last sample stored under an identity wins, as in the dictionary this replaces.
///
/// Kept in a TEMP table rather than in memory: their number grows with the export (85,920 in a 4.6 GB export,
/// whose dictionary held 6.3 MB at the peak of the run), while SQLite keeps a table in a bounded page cache and
/// a temporary file of its own (SQLite's temporary files are unlinked at once). Only the importing connection
/// sees it; it goes away with the connection.
struct CorrelationCandidates {
    private let store: SQLiteStatement
    private let find: SQLiteStatement

    init(_ connection: SQLiteConnection) throws {
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS correlation_candidates (identity INTEGER PRIMARY KEY, link INTEGER NOT NULL)"
        )
        try connection.execute("DELETE FROM temp.correlation_candidates")
        store = try connection.prepare(
            "INSERT OR REPLACE INTO temp.correlation_candidates (identity, link) VALUES (?1, ?2)")
        find = try connection.prepare("SELECT link FROM temp.correlation_candidates WHERE identity = ?1")
    }

    /// (table, id) in one integer: the table in the top byte (row ids stay far below 2^56).
    private static let tableShift: Int64 = 56

    subscript(identity: Int64) -> (table: TrackedTable, id: Int64)? {
        get throws {
            find.bind(1, identity)
            guard let link = try find.firstInteger(), let table = TrackedTable(rawValue: Int(link >> Self.tableShift))
            else { return nil }
            return (table, link & ((1 << Self.tableShift) - 1))
        }
    }

    func remember(_ identity: Int64, _ link: (table: TrackedTable, id: Int64)) throws {
        store.bind(1, identity)
        store.bind(2, Int64(link.table.rawValue) << Self.tableShift | link.id)
        try store.run()
    }
}
