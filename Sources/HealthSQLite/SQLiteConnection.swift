import CSQLite

/// A value to bind to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue {
    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

/// An SQLite failure, with the message read at once (the next call would overwrite it).
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing `\(sql.prefix(120))`" }
        return text
    }

    /// SQLITE_BUSY / SQLITE_LOCKED: another process holds the database.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}

// SQLITE_TRANSIENT is a macro Swift cannot import: the destructor value -1 tells SQLite to copy the bytes.
// swift-format-ignore: AlwaysUseLowerCamelCase
let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One connection to a database file. Not thread-safe; one owner at a time.
public final class SQLiteConnection {
    let handle: OpaquePointer
    public let path: String
    /// Swift objects that SQLite calls back into (authorizer, progress handler): released after the close in
    /// `deinit`, so they outlive every callback (`SQLiteGuards.swift`).
    var callbackOwners: [AnyObject] = []

    /// Configures the SQLite library once per process, before the first connection (see the shim).
    private static let configured: Bool = {
        _ = csqlite_configure_for_bulk_load()
        return true
    }()

    /// `readOnly`: the connection never writes (and never creates the file).
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws {
        _ = Self.configured
        self.path = path
        var connection: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            // > Whether or not an error occurs when it is opened, resources associated with the database
            // > connection handle should be released by passing it to sqlite3_close().
            sqlite3_close_v2(connection)
            throw SQLiteError(code: code, message: message)
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    /// Waits up to `milliseconds` for another process's lock before failing with SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// The rows of a query, each as its column values (for small queries: status, tests, schema checks).
    public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        return try statement.rows(arguments)
    }

    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue {
        try query(sql, arguments).first?.first ?? .null
    }

    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// What a signal handler may hold to stop this connection's running statement: `sqlite3_interrupt` only
    /// sets a flag, so it is safe from another thread or a handler.
    package struct InterruptHandle {
        fileprivate let handle: OpaquePointer
        package func interrupt() { sqlite3_interrupt(handle) }
    }

    package var interruptHandle: InterruptHandle { InterruptHandle(handle: handle) }
}
