import CSQLite

/// Steps through a query's rows one at a time and hands out each column's value without copying it, so a
/// table of millions of rows streams through constant memory (`SQLiteStatement.rows` collects every row).
/// Used by the CSV exporter and the lake, which need each value's storage class as well as its content.
package final class SQLiteRowReader {
    package enum Kind {
        case null, integer, real, text, blob
    }

    private let handle: OpaquePointer
    // Finalize must come before close: keep the connection alive.
    private let connection: SQLiteConnection
    package let sql: String

    package init(_ connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw connection.error(code, sql: sql) }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// Moves to the next row; false when there is none.
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw connection.error(code, sql: sql)
    }

    /// The current row's value of column `index`, for reading its storage class and content with one call into
    /// the statement: each `sqlite3_column_*` call looks the column up and checks for errors again, which was a
    /// fifth of the lake publish's time. Valid until the next `step`. (SQLite calls the value unprotected: safe
    /// here, where a connection is only ever used by one thread at a time.)
    @inline(__always) package func value(_ index: Int) -> Value { Value(sqlite3_column_value(handle, Int32(index))) }

    package struct Value {
        private let value: OpaquePointer?
        init(_ value: OpaquePointer?) { self.value = value }

        @inline(__always) package var kind: Kind {
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER: return .integer
            case SQLITE_FLOAT: return .real
            case SQLITE_TEXT: return .text
            case SQLITE_BLOB: return .blob
            default: return .null
            }
        }

        @inline(__always) package var integer: Int64 { sqlite3_value_int64(value) }
        @inline(__always) package var real: Double { sqlite3_value_double(value) }

        /// The UTF-8 bytes of a TEXT value: the text first, then its length, the order SQLite documents as safe.
        @inline(__always) package var text: UnsafeRawBufferPointer {
            let base = sqlite3_value_text(value)
            return UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : Int(sqlite3_value_bytes(value)))
        }

        /// The bytes of a BLOB value.
        @inline(__always) package var blob: UnsafeRawBufferPointer {
            let base = sqlite3_value_blob(value)
            return UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : Int(sqlite3_value_bytes(value)))
        }
    }
}
