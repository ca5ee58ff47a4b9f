import CSQLite

/// What a statement being compiled asks to do, as SQLite's authorizer reports it (`sqlite3_set_authorizer`).
package struct SQLiteAccess: Sendable, CustomStringConvertible {
    package enum Action: Sendable, Equatable {
        case select
        /// A column of a table is read (also inside views).
        case read(table: String, column: String)
        case function(name: String)
        /// `argument` is nil for a PRAGMA that only reads (`PRAGMA user_version`), the value otherwise.
        case pragma(name: String, argument: String?)
        /// BEGIN, COMMIT or ROLLBACK.
        case transaction(operation: String)
        /// The recursive part of a `WITH RECURSIVE` (a read; its cost is what the progress handler limits).
        case recursive
        /// Anything else: INSERT, UPDATE, DELETE, CREATE…, DROP…, ATTACH, DETACH, ALTER, ANALYZE, SAVEPOINT…,
        /// named as SQLite's action code (`SQLITE_INSERT` → "insert").
        case other(code: Int32, name: String)
    }

    package var action: Action
    /// The schema the action is in (`main`, `temp`), when SQLite says.
    package var database: String?

    package var description: String {
        switch action {
        case .select: return "SELECT"
        case .read(let table, let column): return "reading \(table).\(column)"
        case .function(let name): return "the function \(name)()"
        case .pragma(let name, let argument): return "PRAGMA \(name)" + (argument.map { " = \($0)" } ?? "")
        case .transaction(let operation): return operation
        case .recursive: return "a recursive query"
        case .other(_, let name): return name
        }
    }

    /// The names of SQLite's authorizer action codes that `Action` does not spell out.
    static let names: [Int32: String] = [
        SQLITE_CREATE_INDEX: "CREATE INDEX", SQLITE_CREATE_TABLE: "CREATE TABLE",
        SQLITE_CREATE_TEMP_INDEX: "CREATE TEMP INDEX", SQLITE_CREATE_TEMP_TABLE: "CREATE TEMP TABLE",
        SQLITE_CREATE_TEMP_TRIGGER: "CREATE TEMP TRIGGER", SQLITE_CREATE_TEMP_VIEW: "CREATE TEMP VIEW",
        SQLITE_CREATE_TRIGGER: "CREATE TRIGGER", SQLITE_CREATE_VIEW: "CREATE VIEW", SQLITE_DELETE: "DELETE",
        SQLITE_DROP_INDEX: "DROP INDEX", SQLITE_DROP_TABLE: "DROP TABLE", SQLITE_DROP_TEMP_INDEX: "DROP TEMP INDEX",
        SQLITE_DROP_TEMP_TABLE: "DROP TEMP TABLE", SQLITE_DROP_TEMP_TRIGGER: "DROP TEMP TRIGGER",
        SQLITE_DROP_TEMP_VIEW: "DROP TEMP VIEW", SQLITE_DROP_TRIGGER: "DROP TRIGGER", SQLITE_DROP_VIEW: "DROP VIEW",
        SQLITE_INSERT: "INSERT", SQLITE_UPDATE: "UPDATE", SQLITE_ATTACH: "ATTACH", SQLITE_DETACH: "DETACH",
        SQLITE_ALTER_TABLE: "ALTER TABLE", SQLITE_REINDEX: "REINDEX", SQLITE_ANALYZE: "ANALYZE",
        SQLITE_CREATE_VTABLE: "CREATE VIRTUAL TABLE", SQLITE_DROP_VTABLE: "DROP VIRTUAL TABLE",
        SQLITE_SAVEPOINT: "SAVEPOINT",
    ]

    package init(action: Action, database: String?) {
        self.action = action
        self.database = database
    }

    init(code: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?, database: UnsafePointer<CChar>?)
    {
        let firstText = first.map { String(cString: $0) }
        let secondText = second.map { String(cString: $0) }
        self.database = database.map { String(cString: $0) }
        switch code {
        case SQLITE_SELECT: action = .select
        case SQLITE_READ: action = .read(table: firstText ?? "", column: secondText ?? "")
        // > SQLITE_FUNCTION: NULL, function name
        case SQLITE_FUNCTION: action = .function(name: secondText ?? "")
        case SQLITE_PRAGMA: action = .pragma(name: firstText ?? "", argument: secondText)
        case SQLITE_TRANSACTION: action = .transaction(operation: firstText ?? "")
        case SQLITE_RECURSIVE: action = .recursive
        default: action = .other(code: code, name: Self.names[code] ?? "action \(code)")
        }
    }
}

/// Limits of one connection (`sqlite3_limit`).
package enum SQLiteLimit {
    /// Databases that may be attached (0: ATTACH always fails).
    case attached
    /// The longest string or blob, in bytes (a runaway `group_concat` fails at it instead of filling memory).
    case length

    var code: Int32 {
        switch self {
        case .attached: return SQLITE_LIMIT_ATTACHED
        case .length: return SQLITE_LIMIT_LENGTH
        }
    }
}

/// Guards for a connection that runs SQL written by someone else (the MCP server's `sql` tool): what a statement
/// may do, how long it may run, what SQLite may load.
extension SQLiteConnection {
    private final class Authorizer {
        let allows: (SQLiteAccess) -> Bool
        init(_ allows: @escaping (SQLiteAccess) -> Bool) { self.allows = allows }
    }

    private final class ProgressCheck {
        let shouldStop: () -> Bool
        init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
    }

    /// Asks `allows` about every action of every statement compiled from now on; a denied action makes the
    /// statement fail to compile ("not authorized"). The connection keeps the closure.
    ///
    /// The corresponding C function is `sqlite3_set_authorizer`.
    package func setAuthorizer(_ allows: @escaping (SQLiteAccess) -> Bool) {
        let box = Authorizer(allows)
        callbackOwners.append(box)
        // Lifetime: `box` is in `callbackOwners`, released only after the connection is closed in `deinit`.
        let context = Unmanaged.passUnretained(box).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, code, first, second, database, _ in
                guard let context else { return SQLITE_DENY }
                let authorizer = Unmanaged<Authorizer>.fromOpaque(context).takeUnretainedValue()
                let access = SQLiteAccess(code: code, first, second, database: database)
                return authorizer.allows(access) ? SQLITE_OK : SQLITE_DENY
            }, context)
    }

    /// Calls `shouldStop` about every `instructions` virtual-machine steps of a running statement; when it
    /// returns true the statement stops with SQLITE_INTERRUPT. The connection keeps the closure.
    ///
    /// The corresponding C function is `sqlite3_progress_handler`.
    package func setProgressHandler(everyInstructions instructions: Int32, _ shouldStop: @escaping () -> Bool) {
        let box = ProgressCheck(shouldStop)
        callbackOwners.append(box)
        // Lifetime: as for the authorizer, `box` outlives the connection's last callback.
        let context = Unmanaged.passUnretained(box).toOpaque()
        sqlite3_progress_handler(
            handle, instructions,
            { context in
                guard let context else { return 1 }
                return Unmanaged<ProgressCheck>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
            }, context)
    }

    /// Sets a limit of this connection; returns the previous value.
    ///
    /// The corresponding C function is `sqlite3_limit`.
    @discardableResult
    package func setLimit(_ limit: SQLiteLimit, _ value: Int32) -> Int32 { sqlite3_limit(handle, limit.code, value) }

    /// No extension can be loaded (`load_extension()` fails whatever the build allows), and the defensive mode
    /// is on (no writable schema, no raw page access through `sqlite_dbpage`, no changing the schema by PRAGMA);
    /// functions used in the schema's views are restricted to the harmless ones (untrusted schema).
    ///
    /// The corresponding C function is `sqlite3_db_config` with `SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`,
    /// `SQLITE_DBCONFIG_DEFENSIVE` and `SQLITE_DBCONFIG_TRUSTED_SCHEMA`.
    package func hardenForUntrustedSQL() throws {
        for (option, value) in [
            (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, Int32(0)), (SQLITE_DBCONFIG_DEFENSIVE, 1),
            (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0),
        ] {
            let code = csqlite_db_config_int(handle, option, value)
            guard code == SQLITE_OK else { throw error(code, sql: nil) }
        }
    }

    /// Caps the memory SQLite allocates in this process (all connections): an allocation past it fails with
    /// SQLITE_NOMEM instead of growing the process.
    ///
    /// The corresponding C function is `sqlite3_hard_heap_limit64`.
    package static func limitHeap(bytes: Int64) { _ = sqlite3_hard_heap_limit64(bytes) }

    /// Whether an error is SQLite's "interrupted" (a progress handler or `sqlite3_interrupt` stopped it).
    package static func isInterruption(_ error: SQLiteError) -> Bool { error.code & 0xFF == SQLITE_INTERRUPT }

    /// Whether an error is SQLite's "not authorized" (the authorizer denied an action).
    package static func isDenied(_ error: SQLiteError) -> Bool { error.code & 0xFF == SQLITE_AUTH }
}
