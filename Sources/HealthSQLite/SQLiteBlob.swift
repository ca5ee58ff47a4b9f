import CSQLite

/// One blob of one row opened for incremental I/O (`sqlite3_blob_open`): its bytes are written or read in
/// pieces, so a value of hundreds of megabytes never sits in memory whole. The blob's length is fixed when
/// the row is written (`SQLiteStatement.bindZeroBlob`); writes cannot change it.
package final class SQLiteBlob {
    private let handle: OpaquePointer
    // The blob handle must be closed before the connection.
    private let connection: SQLiteConnection
    private var closed = false

    /// Opens `column` of the row with `rowid` in `table` of the main database, for writing when `writable`.
    package init(_ connection: SQLiteConnection, table: String, column: String, rowid: Int64, writable: Bool) throws {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(connection.handle, "main", table, column, rowid, writable ? 1 : 0, &blob)
        guard code == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw connection.error(code, sql: "blob \(table).\(column) of row \(rowid)")
        }
        handle = blob
        self.connection = connection
    }

    deinit { if !closed { sqlite3_blob_close(handle) } }

    /// The blob's length in bytes.
    package var count: Int { Int(sqlite3_blob_bytes(handle)) }

    /// Writes `bytes` at `offset`; the range must lie inside the blob.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let code = sqlite3_blob_write(handle, base, Int32(bytes.count), Int32(offset))
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }

    /// Reads `buffer.count` bytes from `offset`; the range must lie inside the blob.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let code = sqlite3_blob_read(handle, base, Int32(buffer.count), Int32(offset))
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }

    /// Closes the handle, reporting an error a write left pending.
    package func close() throws {
        guard !closed else { return }
        closed = true
        let code = sqlite3_blob_close(handle)
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }
}

extension SQLiteConnection {
    /// The rowid of the last row inserted on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// SQLite's limit on one value's (and one row's) length in bytes: 1,000,000,000 unless built otherwise.
    package var lengthLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1)) }

    /// Lowers the length limit (it cannot be raised past the build's); for tests of values beyond it.
    package func lowerLengthLimit(to bytes: Int) { sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: bytes)) }
}
