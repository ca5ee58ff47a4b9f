/// The one user-facing error of the library: what went wrong, and where.
///
/// Its description is a single line, compiler style, so a cron log or a terminal shows the file, the entry
/// inside the zip and the line:column at once:
/// `export.zip: apple_health_export/export.xml:120:7: error: … (hint: re-export from the Health app)`.
public struct ImportError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Groups errors by the exit code the CLI uses for them.
    public enum Kind: String, Sendable {
        case usage  // bad arguments (exit 64)
        case input  // the export is missing, unreadable, truncated or malformed (exit 65)
        case output  // the database or output folder cannot be written (exit 73)
        case locked  // another run holds the database (exit 75)
        case unavailable  // a server the run needs (PostgreSQL) cannot be reached (exit 69)
        case refused  // the export is older than the database's (exit 65, like bad input: the input is wrong)
        case `internal`  // a bug (exit 70)
        case interrupted  // Ctrl-C, SIGTERM or SIGHUP stopped the run; nothing was changed (exit 128 + signal)
    }

    public var kind: Kind
    public var message: String
    /// The file on disk the user named (export.zip, a folder, export.xml).
    public var file: String?
    /// The entry inside the zip or folder (`apple_health_export/export.xml`), when there is one.
    public var entry: String?
    public var line: Int?
    public var column: Int?
    /// What the user can do about it, when there is something.
    public var hint: String?

    public init(
        _ kind: Kind, _ message: String, file: String? = nil, entry: String? = nil, line: Int? = nil,
        column: Int? = nil, hint: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.file = file
        self.entry = entry
        self.line = line
        self.column = column
        self.hint = hint
    }

    public var description: String {
        var place = ""
        if let file { place += file + ": " }
        if let entry {
            place += entry
            if let line {
                place += ":\(line)"
                if let column { place += ":\(column)" }
            }
            place += ": "
        } else if let line {
            place = place.isEmpty ? "line \(line)" : String(place.dropLast(2)) + ":\(line)"
            if let column { place += ":\(column)" }
            place += ": "
        }
        var text = place + "error: " + message
        if let hint { text += " (hint: \(hint))" }
        return text
    }

    /// The same error, placed in a file and entry when it did not know them yet.
    public func located(file: String?, entry: String?) -> ImportError {
        var copy = self
        if copy.file == nil { copy.file = file }
        if copy.entry == nil { copy.entry = entry }
        return copy
    }
}
