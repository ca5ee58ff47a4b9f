import HealthModel
import HealthSQLite
import HealthSchema

/// The `sources` table as the run writes it: each source gets its row the first time it is met (in a
/// re-import, the row an earlier run wrote for the same name, version and device). The decoder's source ids
/// count from 0 in every run; the database's are stable across runs, so the table keeps the mapping.
struct SourceTable {
    private let insert: SQLiteStatement
    /// The `sources` row id of each of the decoder's source ids (0: not met yet).
    private var rowIDs: [Int64] = []
    /// Every stored source by name, version and device (`key`), with the earlier runs' rows.
    private var rowIDsByKey: [String: Int64] = [:]
    private var lastRowID: Int64 = 0

    /// `hadData`: the database holds the sources of earlier runs, which are read.
    init(_ connection: SQLiteConnection, hadData: Bool) throws {
        // swift-format-ignore: NeverForceUnwrap
        let table = Schema.tables.first { $0.name == "sources" }!
        insert = try connection.prepare(
            table.insertSQL().replacingOccurrences(of: "INSERT INTO", with: "INSERT OR REPLACE INTO"))
        guard hadData else { return }
        for row in try connection.query("SELECT id, name, version, device FROM sources") {
            guard case .integer(let id) = row[0] else { continue }
            rowIDsByKey[Self.key(row[1].text, row[2].text, row[3].text)] = id
            lastRowID = max(lastRowID, id)
        }
    }

    /// The row id of a source already written (or found) in this run.
    @inline(__always) func rowID(_ source: SampleSource) -> Int64 { rowIDs[source.id] }

    /// The row id of `source`, writing its row first if it is new; `inserted` says whether a row was written.
    @inline(__always) mutating func write(_ source: SampleSource) throws -> (id: Int64, inserted: Bool) {
        if source.id < rowIDs.count, rowIDs[source.id] != 0 { return (rowIDs[source.id], false) }
        return try writeFirstMeeting(source)
    }

    private mutating func writeFirstMeeting(_ source: SampleSource) throws -> (id: Int64, inserted: Bool) {
        if source.id >= rowIDs.count {
            rowIDs.append(contentsOf: repeatElement(0, count: source.id - rowIDs.count + 1))
        }
        let device = source.device
        let key = Self.key(source.name, source.version, device?.key)
        if let existing = rowIDsByKey[key] {
            rowIDs[source.id] = existing
            return (existing, false)
        }
        lastRowID += 1
        let id = lastRowID
        rowIDsByKey[key] = id
        rowIDs[source.id] = id
        func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
        try insert.run([
            .integer(id), .text(source.name), text(source.version), text(device?.name),
            text(device?.manufacturer), text(device?.model), text(device?.hardware), text(device?.software),
            text(device?.key),
        ])
        return (id, true)
    }

    private static func key(_ name: String?, _ version: String?, _ device: String?) -> String {
        (name ?? "") + "\u{1F}" + (version ?? "") + "\u{1F}" + (device ?? "")
    }
}
