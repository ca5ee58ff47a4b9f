import CPostgres
import Foundation

/// A PostgreSQL failure: the server's or libpq's message, with the SQLSTATE when the server sent one.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var sqlState: String?
    /// The connection string itself is malformed (a usage error, not an unreachable server).
    public var isInvalidConnectionString = false

    /// libpq quotes the part of a connection string it cannot parse, which may be the password: such quoted
    /// parts are left out of anything healthetl prints.
    var withoutQuotedParts: PostgresError {
        var copy = self
        var result = ""
        var inQuote = false
        for character in message {
            if character == "\"" {
                result += inQuote ? "…\"" : "\""
                inQuote.toggle()
            } else if !inQuote {
                result.append(character)
            }
        }
        copy.message = result
        return copy
    }

    public var description: String {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\t", with: "")
        return sqlState.map { "PostgreSQL error \($0): \(text)" } ?? "PostgreSQL: \(text)"
    }
}

/// One connection through libpq (the only file that imports it). Not thread-safe; one owner at a time.
///
/// Every query goes through the extended protocol with parameters (no values spliced into SQL), except
/// `COPY`, whose SQL takes no parameters: callers quote with `literal`.
final class PostgresConnection {
    private let handle: OpaquePointer

    /// `connection` is a `postgresql://` URL or `key=value` string; empty means libpq's `PG*` environment
    /// variables and defaults, so no password needs to sit in a crontab.
    init(_ connection: String, applicationName: String) throws {
        if !connection.isEmpty {
            var failure: UnsafeMutablePointer<CChar>?
            guard let options = PQconninfoParse(connection, &failure) else {
                let reason = failure.map { String(cString: $0) } ?? "out of memory"
                if let failure { PQfreemem(failure) }
                throw PostgresError(message: reason, isInvalidConnectionString: true).withoutQuotedParts
            }
            PQconninfoFree(options)
        }
        // UTF-8 whatever the server's default: text travels as raw bytes in binary COPY. A cron job should not
        // hang on an unreachable server. The connection string comes last, so what it says wins.
        var keys = ["fallback_application_name", "client_encoding"]
        var values = [applicationName, "UTF8"]
        if ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil {
            keys.append("connect_timeout")
            values.append("15")
        }
        keys.append("dbname")
        values.append(connection)
        let handle = withCStrings(keys) { keyPointers in
            withCStrings(values) { valuePointers in
                // expand_dbname = 1: a URL or key=value string in `dbname` is expanded.
                PQconnectdbParams(keyPointers, valuePointers, 1)
            }
        }
        guard let handle else { throw PostgresError(message: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw PostgresError(message: message)
        }
        self.handle = handle
        // Notices (e.g. "relation already exists, skipping") would go to stderr, unasked.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection to the server was lost.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// The rows of a statement, every value as text (nil for NULL). `parameters` are sent separately from
    /// the SQL (`$1`, `$2`…), as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        let result = withOptionalCStrings(parameters) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        var rows: [[String?]] = []
        for row in 0..<PQntuples(result) {
            rows.append(
                (0..<PQnfields(result)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return rows
    }

    /// Runs statements that return no rows (several may be separated by `;`, none with parameters).
    func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement without parameters; returns the number of rows it inserted, updated or deleted.
    func execute(counting sql: String) throws -> Int {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func scalar(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try query(sql, parameters).first?.first ?? nil
    }

    /// `value` as an SQL string literal, for the statements that cannot take parameters (COPY).
    func literal(_ value: String) throws -> String {
        guard let quoted = PQescapeLiteral(handle, value, value.utf8.count) else { throw lastError() }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    // MARK: - COPY

    /// `COPY … FROM STDIN (FORMAT binary)`: `produce` is called with a sender to write the rows with
    /// (`CopyBinaryWriter`); the header and trailer are added here.
    func copyIn(_ sql: String, _ produce: (CopySender) throws -> Void) throws {
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start, sql: sql)
            throw PostgresError(message: "COPY did not start: \(sql.prefix(80))")
        }
        PQclear(start)
        let sender = CopySender(connection: self)
        do {
            try sender.withBuffer { $0.appendHeader() }
            try produce(sender)
            try sender.withBuffer { $0.appendTrailer() }
            try sender.flush()
        } catch {
            PQputCopyEnd(handle, "healthetl stopped: \(error)")
            drainResults()
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw lastError() }
        try finishCommand(sql: sql)
    }

    /// `COPY … TO STDOUT`: each message of COPY data (one row; the binary header comes with the first) is
    /// handed to `consume`, valid only during the call.
    func copyOut(_ sql: String, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_OUT else {
            defer { PQclear(start) }
            try check(start, sql: sql)
            throw PostgresError(message: "COPY did not start: \(sql.prefix(80))")
        }
        PQclear(start)
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let count = PQgetCopyData(handle, &buffer, 0)
            if count == -1 { break }
            guard count >= 0, let buffer else { throw lastError() }
            defer { PQfreemem(buffer) }
            do {
                try consume(UnsafeRawBufferPointer(start: buffer, count: Int(count)))
            } catch {
                // The connection must be drained before it can be used again (or closed cleanly).
                var rest: UnsafeMutablePointer<CChar>?
                while PQgetCopyData(handle, &rest, 0) >= 0 { PQfreemem(rest) }
                drainResults()
                throw error
            }
        }
        try finishCommand(sql: sql)
    }

    /// Sends COPY data in large messages: one libpq call per row would cost more than the rows.
    final class CopySender {
        private unowned let connection: PostgresConnection
        private(set) var buffer = CopyBinaryWriter()

        fileprivate init(connection: PostgresConnection) { self.connection = connection }

        /// Appends to the pending data; sends it once it is large.
        func withBuffer(_ body: (inout CopyBinaryWriter) throws -> Void) throws {
            try body(&buffer)
            if buffer.count >= 1 << 18 { try flush() }
        }

        func flush() throws {
            guard buffer.count > 0 else { return }
            let bytes = buffer.bytes
            let code = PQputCopyData(
                connection.handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
            guard code == 1 else { throw connection.lastError() }
            buffer.removeAll()
        }
    }

    // MARK: - Results

    private func finishCommand(sql: String) throws {
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            if failure == nil, PQresultStatus(result) != PGRES_COMMAND_OK {
                failure = error(of: result, sql: sql)
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    private func drainResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        guard let result else { throw lastError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_COPY_OUT: return
        default: throw error(of: result, sql: sql)
        }
    }

    private func error(of result: OpaquePointer, sql: String) -> PostgresError {
        let message = String(cString: PQresultErrorMessage(result))
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        return PostgresError(message: message.isEmpty ? "failed: \(sql.prefix(80))" : message, sqlState: state)
    }

    fileprivate func lastError() -> PostgresError {
        PostgresError(message: String(cString: PQerrorMessage(handle)))
    }
}

private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) } + [nil])
}

private func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) })
}
