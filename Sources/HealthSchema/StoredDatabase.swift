import Foundation
import HealthModel
import HealthSQLite

/// What a SQLite file is to healthetl, read from `PRAGMA user_version` and its tables: the one answer to
/// "is this a healthetl database of this version" that every command opening a database relies on.
package enum SchemaState: Equatable, Sendable {
    /// No table at all: a new file (whatever its `user_version`).
    case empty
    /// Written by this version of healthetl.
    case current
    /// Written by an earlier version (`user_version` 1 … current − 1): the next import migrates it.
    case older(Int64)
    /// Written by a later version of healthetl.
    case newer(Int64)
    /// Another application's tables (`user_version` 0, or no run log): never written into.
    case foreign

    package init(of connection: SQLiteConnection) throws {
        let tables = try connection.scalar("SELECT count(*) FROM sqlite_master").integer ?? 0
        let version = try connection.scalar("PRAGMA user_version").integer ?? 0
        if tables == 0 {
            self = .empty
        } else if version <= 0 {
            self = .foreign
        } else if version > Schema.userVersion {
            self = .newer(version)
        } else if try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'import_runs'") != .integer(1)
        {
            self = .foreign
        } else {
            self = version == Schema.userVersion ? .current : .older(version)
        }
    }

    /// The one-line error of a command that reads the database as this version writes it; nil when it can.
    package func readingError(path: String) -> ImportError? {
        let expected = "expected schema version \(Schema.userVersion)"
        switch self {
        case .current:
            return nil
        case .empty:
            return ImportError(.input, "an empty database", file: path, hint: "run healthetl import first")
        case .foreign:
            return ImportError(.input, "not a healthetl database (it holds another application's tables)", file: path)
        case .older(let version):
            return ImportError(
                .input, "a database of an earlier healthetl (schema version \(version), \(expected))", file: path,
                hint: "the next healthetl import upgrades it")
        case .newer(let version):
            return ImportError(
                .input, "a database of a later healthetl (schema version \(version), \(expected))", file: path,
                hint: "use the healthetl version that wrote it")
        }
    }
}

/// Opening a healthetl database to read it (CSV, report, Datasette, status, the MCP server): one way to find the
/// file, check it and name what is wrong in one line.
package enum StoredDatabase {
    /// A connection to the database at `path` that never writes, after checking that it is a database of this
    /// version holding `tables`. `readOnly` opens it read-only at the SQLite level (the file could not be written
    /// through it whatever is executed); otherwise `query_only` guards it.
    package static func openForReading(
        _ path: String, requiring tables: [String] = [], readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 10_000
    ) throws -> SQLiteConnection {
        try requireFile(path)
        guard access(path, R_OK) == 0 else {
            throw ImportError(.input, "cannot read the database: \(SystemError.describe(errno))", file: path)
        }
        return try read(path) {
            let connection = try SQLiteConnection(path: path, create: false, readOnly: readOnly)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            if !readOnly { try connection.execute("PRAGMA query_only = ON") }
            if let error = try SchemaState(of: connection).readingError(path: path) { throw error }
            if !tables.isEmpty {
                let names = try connection.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
                let present = Set(names.compactMap { $0.first?.text })
                if let missing = tables.first(where: { !present.contains($0) }) {
                    throw ImportError(.input, "the database has no table \(missing)", file: path)
                }
            }
            return connection
        }
    }

    /// Refuses a path with no database, saying so (and who is creating it, when an import is).
    package static func requireFile(_ path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        if let holder = DatabaseLock.currentHolder(ofDatabase: path) {
            let running = RunningImport(pid: holder.pid, since: holder.since, command: holder.command)
            throw ImportError(
                .usage, "no database here yet: \(running) is creating it", file: path,
                hint: "wait for it to finish")
        }
        throw ImportError(.usage, "no database here", file: path, hint: "run healthetl import first")
    }

    /// Runs a reading step, turning SQLite's errors into one-line errors that name the database.
    package static func read<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw ImportError(
                error.isBusy ? .locked : .input, "cannot read the database: \(error)", file: path,
                hint: error.isBusy ? "wait for the import to finish" : nil)
        }
    }
}
