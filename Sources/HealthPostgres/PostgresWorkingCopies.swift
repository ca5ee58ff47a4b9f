import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthSchema
import HealthStore

/// Working copies kept between runs on this machine (`--working-copy DIR`, opt-in: it is a copy of the
/// person's health data on the importer's disk, owner-only).
///
/// A kept copy replaces the check-out only when it provably holds what the server holds for the person: the
/// run bookkeeping (every `import_runs` row with its summary, warnings and changes), the anchors (row counts
/// and fingerprints per type) and the settings must be equal. Every run of any importer adds an
/// `import_runs` row, so a run elsewhere since — or a run here that failed to publish — makes them differ, and
/// the copy is checked out again.
struct PostgresWorkingCopies {
    let directory: String

    /// The tables compared with the server's before a kept copy is trusted.
    static let comparedTables: Set = PostgresImport.bookkeepingTables.union(["anchors"])

    init(directory: String) throws {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard mkdir(directory, 0o700) == 0 else {
                throw ImportError(
                    .output, "cannot create the working-copy folder: \(SystemError.last)",
                    file: directory)
            }
        } else if !isDirectory.boolValue {
            throw ImportError(.output, "not a folder", file: directory, hint: "--working-copy names a folder")
        }
        self.directory = directory
    }

    /// The person's file: named by a hash of the database and person (an id may hold any character).
    func path(database: String, person: String) -> String {
        var hasher = StableHasher()
        hasher.combine(database)
        hasher.combine(person)
        return directory + "/person-" + String(UInt64(bitPattern: hasher.finish()), radix: 16) + ".sqlite"
    }

    /// Whether the kept copy at `path` equals the server's data of the person (see the type's comment);
    /// `scratch` is a file to check the server's bookkeeping out into.
    static func isCurrent(_ path: String, session: PostgresSession, scratch: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = try PostgresCheckout.checkout(
            session.connection, person: session.destination.person, into: scratch, only: comparedTables)
        let server = try SQLiteConnection(path: scratch, create: false)
        // Anything wrong with the kept file (damaged, another version, no change log) makes it not current.
        do {
            let kept = try SQLiteConnection(path: path, create: false)
            guard try SchemaState(of: kept) == .current,
                try kept.scalar("SELECT count(*) FROM sqlite_master WHERE name = '\(PostgresCheckout.changeLog)'")
                    == .integer(1)
            else { return false }
            for table in Schema.tables where comparedTables.contains(table.name) {
                let order = (1...table.columns.count).map(String.init).joined(separator: ", ")
                let sql = "SELECT * FROM \"\(table.name)\" ORDER BY \(order)"
                guard try kept.query(sql) == server.query(sql) else { return false }
            }
            return true
        } catch {
            return false
        }
    }

    /// Readies a trusted copy for the next run: an empty change log.
    static func reuse(_ path: String) throws {
        try SQLiteConnection(path: path, create: false).execute("DELETE FROM \(PostgresCheckout.changeLog)")
    }

    /// A first import's new database gets the change log that a check-out would have installed.
    static func keep(_ path: String) throws {
        let database = try SQLiteConnection(path: path, create: false)
        try database.execute("BEGIN")
        try PostgresCheckout.installChangeLog(database)
        try database.execute("COMMIT")
    }

    static func discard(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
