import Foundation

/// Everything wrong with a pipeline file, found in one pass so that the user fixes all of it at once instead
/// of one complaint per run.
public struct PipelineError: Error, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Where in the document, as `stages[2].priority.HKQuantityTypeIdentifierStepCount[1]`; empty for the
        /// document as a whole (invalid JSON).
        public var path: String
        public var message: String

        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// The file name as the user gave it, so each line reads like a compiler's `file: place: message`.
    public var fileName: String
    public var problems: [Problem]

    public init(fileName: String, problems: [Problem]) {
        self.fileName = fileName
        self.problems = problems
    }

    /// One line per problem.
    public var description: String {
        problems.map { "\(fileName): \($0)" }.joined(separator: "\n")
    }
}
