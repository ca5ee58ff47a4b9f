import CSQLite
import HealthModel

/// A prepared statement, reused for every row of a table during an import.
public final class SQLiteStatement {
    private let handle: OpaquePointer
    // Finalize must come before close: keep the connection alive.
    private let connection: SQLiteConnection
    public let sql: String
    /// One slot per parameter for short text: a bound string is copied here and bound without SQLite
    /// copying it again. SQLite's own copy (`SQLITE_TRANSIENT`) costs a malloc and a free per bound string,
    /// several per row on the writing thread. Because every parameter has its own slot, rebinding one
    /// never changes what another one points to, so the rule stays the one of `SQLITE_TRANSIENT`: the
    /// bytes are the caller's only during the call. Allocated on the first text bind.
    private var textSlots: UnsafeMutablePointer<UInt8>?
    private static let textSlotSize = 128

    /// What follows the first statement of `sql`, when it holds more than one (SQLite compiles only the first):
    /// a caller that accepts exactly one statement refuses the rest instead of silently ignoring it.
    package let trailingSQL: String

    package init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        var rest = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(
                connection.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            if let tail, tail.pointee != 0 { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK, let statement else { throw connection.error(code, sql: sql) }
        handle = statement
        self.connection = connection
        self.sql = sql
        trailingSQL = rest
    }

    deinit {
        sqlite3_finalize(handle)  // before the slots go: the bound values may point into them
        textSlots?.deallocate()
    }

    /// Binds `count` bytes of text at `bytes`: copied into the parameter's slot when short, else by SQLite.
    @inline(__always) private func bindCopiedText(_ index: Int32, _ bytes: UnsafePointer<UInt8>?, count: Int) {
        guard count <= Self.textSlotSize, index >= 1, let slot = slot(for: index) else {
            sqlite3_bind_text(handle, index, bytes, Int32(count), SQLITE_TRANSIENT)
            return
        }
        if count > 0, let bytes { slot.update(from: bytes, count: count) }
        sqlite3_bind_text(handle, index, slot, Int32(count), nil)
    }

    @inline(__always) private func slot(for index: Int32) -> UnsafeMutablePointer<UInt8>? {
        if let textSlots {
            return Int(index) <= parameterCount ? textSlots + (Int(index) - 1) * Self.textSlotSize : nil
        }
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
        guard parameterCount > 0, Int(index) <= parameterCount else { return nil }
        let slots = UnsafeMutablePointer<UInt8>.allocate(capacity: parameterCount * Self.textSlotSize)
        textSlots = slots
        return slots + (Int(index) - 1) * Self.textSlotSize
    }
    private var parameterCount = 0

    /// The index of the parameter named `name` (`:type_id`), 0 when the statement has none of that name.
    public func parameterIndex(_ name: String) -> Int32 { sqlite3_bind_parameter_index(handle, name) }

    /// The number of parameters (the highest index).
    public var parameterTotal: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: - Binding (1-based indexes, as in SQLite)

    @inline(__always) public func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always) public func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }

    @inline(__always) public func bind(_ index: Int32, _ value: Double?) {
        if let value, value.isFinite {
            sqlite3_bind_double(handle, index, value)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    @inline(__always) public func bind(_ index: Int32, _ value: String?) {
        guard let value else {
            sqlite3_bind_null(handle, index)
            return
        }
        var text = value
        text.withUTF8 { bytes in bindCopiedText(index, bytes.baseAddress, count: bytes.count) }
    }

    /// Binds text held in a caller's buffer (dates formatted without a `String`), copying it.
    @inline(__always) public func bindText(_ index: Int32, _ bytes: UnsafePointer<UInt8>, count: Int) {
        bindCopiedText(index, bytes, count: count)
    }

    /// Binds text without SQLite copying it at bind time.
    ///
    /// Lifetime: the caller guarantees `bytes` stays valid and unchanged until this statement has been
    /// stepped; SQLite reads it only during sqlite3_step (the sink's scratch slots and text caches do).
    @inline(__always) package func bindStaticText(_ index: Int32, _ bytes: UnsafePointer<UInt8>, count: Int) {
        sqlite3_bind_text(handle, index, bytes, Int32(count), nil)
    }

    public func bindBlob(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), SQLITE_TRANSIENT)
    }

    @inline(__always) public func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    /// Binds a blob of `count` zero bytes without allocating them, to be filled afterwards through
    /// `SQLiteBlob` (incremental blob I/O).
    package func bindZeroBlob(_ index: Int32, count: Int) {
        sqlite3_bind_zeroblob64(handle, index, sqlite3_uint64(count))
    }

    public func bind(_ index: Int32, _ value: SQLiteValue) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let number): sqlite3_bind_int64(handle, index, number)
        case .real(let number): sqlite3_bind_double(handle, index, number)
        case .text(let text): bind(index, text)
        case .blob(let bytes): bytes.withUnsafeBytes { bindBlob(index, $0) }
        }
    }

    /// Executes the bound statement (an INSERT/UPDATE/DELETE) and resets it for the next row.
    @inline(__always) public func run() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    public func run(_ arguments: [SQLiteValue]) throws {
        for (offset, value) in arguments.enumerated() { bind(Int32(offset + 1), value) }
        defer { sqlite3_clear_bindings(handle) }
        try run()
    }

    /// The first column of the bound query's first row as an integer, nil when there is no row (a lookup
    /// by key, without allocating).
    @inline(__always) package func firstInteger() throws -> Int64? {
        let code = sqlite3_step(handle)
        defer { sqlite3_reset(handle) }
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
        return sqlite3_column_int64(handle, 0)
    }

    /// Calls `body` with the first column of each row of the bound query, as an integer, streaming.
    package func forEachInteger(_ body: (Int64) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            try body(sqlite3_column_int64(handle, 0))
        }
    }

    /// Steps through the bound query's rows, streaming; `body` reads columns with the accessors below.
    package func forEachRow(_ body: (SQLiteStatement) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            try body(self)
        }
    }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    package func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    package func text(_ column: Int32) -> String? {
        sqlite3_column_text(handle, column).map { String(cString: $0) }
    }

    /// A column of the current row without copying it: text and blob bytes stay valid until the next step.
    package func columnView(_ column: Int32) -> SQLiteColumnView {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let base = sqlite3_column_text(handle, column)
            return .text(UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column))))
        case SQLITE_BLOB:
            let base = sqlite3_column_blob(handle, column)
            return .blob(UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column))))
        default: return .null
        }
    }

    /// Binds bytes as text or blob (SQLite copies them).
    package func bind(_ index: Int32, bytes: UnsafeRawBufferPointer, asBlob: Bool) {
        // An empty buffer may have no address, and a nil pointer would bind NULL instead of an empty value.
        if bytes.isEmpty {
            if asBlob {
                sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT)
            }
        } else if asBlob {
            sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), SQLITE_TRANSIENT)
        } else {
            sqlite3_bind_text(
                handle, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                SQLITE_TRANSIENT)
        }
    }

    /// A stored UTC instant (`2019-06-18T01:07:11Z`) as seconds since 1970, parsed from the column's bytes
    /// without making a `String`; nil for NULL or any other text.
    @inline(__always) package func utcSeconds(_ column: Int32) -> Int64? {
        guard let text = sqlite3_column_text(handle, column), sqlite3_column_bytes(handle, column) == 20 else {
            return nil
        }
        return StoredInstant.seconds(UnsafeRawBufferPointer(start: text, count: 20))
    }

    /// The first column of every row of the bound query, as integers.
    package func integers() throws -> [Int64] {
        try integers(where: { _ in true })
    }

    /// The first column of the rows whose value `include` accepts; the others are not held.
    package func integers(where include: (Int64) -> Bool) throws -> [Int64] {
        defer { sqlite3_reset(handle) }
        var result: [Int64] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            let value = sqlite3_column_int64(handle, 0)
            if include(value) { result.append(value) }
        }
    }

    /// The names of the result columns (their `AS` names).
    public var columnNames: [String] {
        (0..<sqlite3_column_count(handle)).map { sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? "" }
    }

    public func rows(_ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        for (offset, value) in arguments.enumerated() { bind(Int32(offset + 1), value) }
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var result: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            result.append((0..<sqlite3_column_count(handle)).map(column))
        }
    }

    /// Whether the statement cannot change the database file (`sqlite3_stmt_readonly`): true for SELECT and
    /// reading PRAGMAs, false for anything that writes, and for VACUUM, ATTACH and transaction control.
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// A column of the current row as a value (copied), while stepping with `forEachRow`.
    package func value(_ column: Int32) -> SQLiteValue { self.column(column) }

    /// The byte length of a text or blob column of the current row (without copying it).
    package func byteCount(_ column: Int32) -> Int { Int(sqlite3_column_bytes(handle, column)) }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let base = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }
}

/// One column of a row as `SQLiteStatement.columnView` hands it over.
package enum SQLiteColumnView {
    case null
    case integer(Int64)
    case real(Double)
    case text(UnsafeRawBufferPointer)
    case blob(UnsafeRawBufferPointer)
}
