import HealthJSON
import HealthModel

extension ImportError {
    /// A feed or State of Mind file that is not JSON (or JSON past a limit), as one line naming its place:
    /// `feed.json:3:30: error: invalid JSON: unterminated string`.
    init(_ error: JSONError, file: String) {
        self.init(.input, error.summary, file: file, line: error.line, column: error.column)
    }
}
