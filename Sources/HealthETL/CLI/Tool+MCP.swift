import Foundation
import HealthMCP
import HealthModel
import HealthSchema

extension CommandDescription {
    static let mcpCommand = CommandDescription(
        name: "mcp",
        abstract:
            "Serve a database to an AI assistant over MCP (stdio, read-only; client setup: docs/mcp.md).",
        usage: ["mcp --db <path> [--timeout-ms <ms>] [--max-rows <n>] [--answer-budget <bytes>]"],
        options: [
            Option(
                "--db", value: "<path>", help: "The healthetl database to serve (opened read-only, never changed).",
                valueIsFile: true),
            Option(
                "--timeout-ms", value: "<ms>", help: "Longest a tool call may run in SQLite before it is stopped.",
                default: "5000"),
            Option(
                "--max-rows", value: "<n>", help: "Most rows (points, workouts, samples) in one answer.",
                default: "1000"),
            Option(
                "--answer-budget", value: "<bytes>",
                help:
                    "Most bytes in one answer, its text and structured content together (2000 to 60000); past it a "
                    + "tool coarsens days to weeks, months or years, or pages with a cursor, and says so. Raise it for "
                    + "a client with a large context window.",
                default: "8000"),
        ],
        examples: [
            "healthetl mcp --db ~/health.sqlite",
            "healthetl mcp --db /home/me/health.sqlite --timeout-ms 2000 --max-rows 500",
            "healthetl mcp --db ~/health.sqlite --answer-budget 30000",
        ])
}

extension Tool {
    /// `healthetl mcp --db health.sqlite`: an MCP server on stdin/stdout (docs/mcp.md) until stdin ends. Nothing
    /// but protocol goes to stdout; a database that cannot be served stops it at once with the one-line error
    /// and exit code of the other commands.
    func runMCP(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        var limits = HealthDatabase.Limits()
        do throws(UsageError) {
            arguments = try Arguments(rawArguments, for: .mcpCommand)
            if let unexpected = arguments.positionals.first {
                throw UsageError(message: "Unexpected argument '\(unexpected)'")
            }
            if let text = arguments.values["--timeout-ms"] {
                guard let milliseconds = Int(text), (10...600_000).contains(milliseconds) else {
                    throw UsageError(message: "The value '\(text)' is invalid for '--timeout-ms <ms>' (10 to 600000)")
                }
                limits.timeout = .milliseconds(milliseconds)
            }
            if let text = arguments.values["--max-rows"] {
                guard let rows = Int(text), (1...100_000).contains(rows) else {
                    throw UsageError(message: "The value '\(text)' is invalid for '--max-rows <n>' (1 to 100000)")
                }
                limits.maximumRows = rows
            }
            if let text = arguments.values["--answer-budget"] {
                let range = AnswerBudget.smallestBytes...AnswerBudget.hardCap
                guard let bytes = Int(text), range.contains(bytes) else {
                    throw UsageError(
                        message:
                            "The value '\(text)' is invalid for '--answer-budget <bytes>' (\(range.lowerBound) to \(range.upperBound))"
                    )
                }
                limits.answerBudget = bytes
            }
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"] else {
            return usageError(UsageError(message: "Missing expected option '--db <path>'"))
        }
        let configuration = MCPSession.Configuration(
            serverVersion: HealthETLVersion.current, schemaDocumentation: { SchemaDocumentation.markdown() })
        var server: MCPServer?
        let opened = reportErrors(input: database) {
            server = try MCPServer(databasePath: database, limits: limits, configuration: configuration)
        }
        guard let server else { return opened }
        // A client that goes away mid-answer: the write fails and the next read sees the end of stdin.
        signal(SIGPIPE, SIG_IGN)
        standardError("healthetl mcp: serving \(database) read-only on stdin/stdout\n")
        // Protocol goes straight to stdout (as it comes straight from stdin): nothing else may be written there.
        server.serve(input: STDIN_FILENO, write: { MCPServer.write($0, to: STDOUT_FILENO) }, log: standardError)
        return ExitCode.success.rawValue
    }
}
