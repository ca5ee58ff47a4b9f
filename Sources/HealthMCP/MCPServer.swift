import Foundation
import HealthSQLite

/// `healthetl mcp`: the stdio transport around an `MCPSession`. Lines in on a file descriptor, answers out through
/// `write` (stdout in the real process), diagnostics through `log` (stderr). It ends at the end of the input.
package struct MCPServer {
    /// A line longer than this is answered with a parse error without being kept (MCP messages are small).
    package static let maximumLineLength = 4 << 20

    package let database: HealthDatabase
    package let configuration: MCPSession.Configuration

    /// Opens the database (failing with the one-line error every command gives for a missing or foreign one).
    package init(databasePath: String, limits: HealthDatabase.Limits, configuration: MCPSession.Configuration) throws {
        // A runaway query may use memory as well as time: SQLite's allocations in this process are capped.
        SQLiteConnection.limitHeap(bytes: 256 << 20)
        database = try HealthDatabase(path: databasePath, limits: limits)
        self.configuration = configuration
    }

    /// Serves until the input ends or the output is closed; returns how many requests were answered. `write`
    /// returns false when the answer could not be written (the client went away).
    @discardableResult
    package func serve(input descriptor: Int32, write: (String) -> Bool, log: (String) -> Void) -> Int {
        let session = MCPSession(context: ToolContext(database: database), configuration: configuration)
        var reader = LineReader(descriptor: descriptor, maximumLength: Self.maximumLineLength)
        var answered = 0
        while let line = reader.next() {
            switch line {
            case .tooLong(let length):
                log("healthetl mcp: a line of \(length) bytes was refused (at most \(Self.maximumLineLength))\n")
                let refusal = JSONRPC.Error(JSONRPC.Error.parseError, "Parse error: the line is too long")
                guard write(JSONRPC.error(id: .null, refusal) + "\n") else { return answered }
            case .text(let bytes):
                guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                if let answer = session.answer(line: bytes) {
                    guard write(answer + "\n") else { return answered }
                    answered += 1
                }
            }
        }
        return answered
    }

    /// Writes all of `text` to a file descriptor (stdout), through partial writes and signals; false when the
    /// reader has gone (EPIPE: SIGPIPE is ignored by the caller), instead of a crash in FileHandle.
    package static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
