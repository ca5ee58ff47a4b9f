import HealthModel
import HealthSQLite

/// A dictionary table of schema 4 (`type_names`, `metadata_keys`): each name gets an integer id the first time
/// it is stored, and keeps it for good, so rows refer to it by a small integer instead of repeating its text.
///
/// A name is looked up among the few met last before the hash table: exports are grouped by type, metadata
/// keys repeat record after record, and the decoder hands over interned strings, so the comparison usually
/// ends at the first entry with identical storage.
struct NameDictionary {
    private let insert: SQLiteStatement
    private var ids: [String: Int64] = [:]
    private var lastID: Int64 = 0
    private var recent: [(name: String, id: Int64)] = []
    private var nextRecent = 0
    private static let recentCount = 8

    /// `hadData`: the database holds names of earlier runs, which are read.
    init(_ connection: SQLiteConnection, table: String, column: String, hadData: Bool) throws {
        insert = try connection.prepare("INSERT INTO \"\(table)\" (id, \"\(column)\") VALUES (?1, ?2)")
        recent.reserveCapacity(Self.recentCount)
        guard hadData else { return }
        for row in try connection.query("SELECT id, \"\(column)\" FROM \"\(table)\"") {
            guard case .integer(let id) = row[0], case .text(let name) = row[1] else { continue }
            ids[name] = id
            lastID = max(lastID, id)
        }
    }

    /// The id of `name`, stored first when it is new.
    @inline(__always) mutating func id(of name: String) throws -> Int64 {
        for entry in recent where entry.name == name { return entry.id }
        return try idAfterMiss(name)
    }

    private mutating func idAfterMiss(_ name: String) throws -> Int64 {
        let id: Int64
        if let known = ids[name] {
            id = known
        } else {
            lastID += 1
            id = lastID
            try insert.run([.integer(id), .text(name)])
            ids[name] = id
        }
        if recent.count < Self.recentCount {
            recent.append((name, id))
        } else {
            recent[nextRecent] = (name, id)
            nextRecent = (nextRecent + 1) % Self.recentCount
        }
        return id
    }
}
