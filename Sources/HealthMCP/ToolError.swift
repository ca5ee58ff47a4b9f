import HealthSQLite

/// Why a tool call gave no answer. The client receives it as a tool error (`isError`), whose text the model reads
/// and can act on: which argument and why, the nearest names, what limit was hit. Protocol errors (unknown
/// method, malformed request) are `JSONRPC.Error`s instead.
package enum ToolError: Error, Equatable {
    /// An argument is missing, of the wrong type or out of range.
    case argument(name: String, reason: String)
    /// A metric, workout or cursor that the database does not have, with the nearest names when there are some.
    case notFound(String)
    /// The query ran past the time limit and was interrupted.
    case timeLimit(String)
    /// SQLite refused or failed the query (the `sql` tool's mistakes, an action the server does not allow).
    case query(String)
    /// The database cannot be read now (moved, replaced by something else).
    case unavailable(String)

    package var message: String {
        switch self {
        case .argument(let name, let reason): return "Invalid argument '\(name)': \(reason)"
        case .notFound(let text), .timeLimit(let text), .query(let text), .unavailable(let text): return text
        }
    }

    init(_ error: SQLiteError, timeout: Duration) {
        if SQLiteConnection.isInterruption(error) {
            self = .timeLimit(
                "The query was stopped after the time limit of \(timeout.formatted) (healthetl mcp --timeout-ms); "
                    + "narrow it (a shorter date range, a LIMIT, an indexed column) and call again.")
        } else if SQLiteConnection.isDenied(error) {
            self = .query("Not allowed: this server only reads the database (\(error.message)).")
        } else if error.code & 0xFF == 18 || error.message.contains("too big") {
            self = .query("The value is too large to return (\(error.message)).")
        } else if error.code & 0xFF == 7 {
            self = .query("The query needs more memory than the server allows (\(error.message)).")
        } else {
            self = .query("SQLite: \(error.message)")
        }
    }
}

extension Duration {
    /// `5 s`, `250 ms`.
    var formatted: String {
        let milliseconds = components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
    }
}
