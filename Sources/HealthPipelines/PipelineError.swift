import Foundation

/// Everything wrong with a pipeline file, found in one pass so that the user fixes all of it at once instead
/// of one complaint per run.
public struct PipelineError: Error, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Where in the document, as `stages[2].priority.HKQuantityTypeIdentifierStepCount[1]`; empty for the
        /// document as a whole (invalid JSON).
        public var path: String
        public var message: String
        /// Where in the file, for a problem of the text itself (invalid JSON): 1-based, the column in characters.
        public var line: Int?
        public var column: Int?

        public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
            self.path = path
            self.message = message
            self.line = line
            self.column = column
        }

        public var description: String {
            if let line, let column { return "\(line):\(column): \(message)" }
            return path.isEmpty ? message : "\(path): \(message)"
        }
    }

    /// The file name as the user gave it, so each line reads like a compiler's `file: place: message`.
    public var fileName: String
    public var problems: [Problem]

    public init(fileName: String, problems: [Problem]) {
        self.fileName = fileName
        self.problems = problems
    }

    /// One line per problem: `pipelines/x.json:3:11: invalid JSON: expected ':'` for a place in the text,
    /// `pipelines/x.json: sinks[0].wait: …` for a place in the document.
    public var description: String {
        problems.map { "\(fileName)\($0.line == nil ? ": " : ":")\($0)" }.joined(separator: "\n")
    }
}
