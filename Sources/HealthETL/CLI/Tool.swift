import Foundation
import HealthLake
import HealthModel
import HealthPipelines
import HealthPostgres
import HealthStore

/// The whole command-line tool, minus the process: `main.swift` passes the arguments and output streams and
/// exits with the code returned. Tests call it directly.
public struct Tool {
    public var standardOutput: (String) -> Void
    public var standardError: (String) -> Void
    /// Whether stderr is a terminal (progress bars only there).
    public var errorIsTerminal: Bool

    public init(
        standardOutput: @escaping (String) -> Void, standardError: @escaping (String) -> Void, errorIsTerminal: Bool
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.errorIsTerminal = errorIsTerminal
    }

    /// The command being run, so that its usage errors print its usage (set by `run` before it starts one).
    var activeCommand: CommandDescription?

    /// A command: its description (help, parsing, man page, completion) and the code that runs it.
    struct Command {
        var description: CommandDescription
        var run: (Tool) -> ([String]) -> Int32
    }

    /// Every command, in the order help lists them. A new command is one line here, with its description and
    /// its `run…` function in a file of its own.
    static var commands: [Command] {
        [
            Command(description: .importCommand, run: Tool.runImport),
            Command(description: .exportCommand, run: Tool.runExport),
            Command(description: .runCommand, run: Tool.runPipeline),
            Command(description: .statusCommand, run: Tool.runStatus),
            Command(description: .setTimeZoneCommand, run: Tool.runSetTimeZone),
            Command(description: .reportCommand, run: Tool.runReport),
            Command(description: .schemaCommand, run: Tool.runSchema),
            Command(description: .datasetteCommand, run: Tool.runDatasette),
            Command(description: .mcpCommand, run: Tool.runMCP),
            Command(description: .deidentifyCommand, run: Tool.runDeidentify),
            Command(description: .helpCommand, run: Tool.runHelp),
        ]
    }

    /// For the process that runs the tool, once: Ctrl-C, SIGTERM or SIGHUP during a run rolls it back (or
    /// deletes its unfinished new file) and removes its lock file. Process-wide, so tests that run imports side
    /// by side leave it off (`Interruption`).
    public static func stopRunsOnSignals() { Interruption.isEnabled = true }

    /// The whole tool's help (`healthetl help`).
    public static var usage: String { HelpText.tool(commands.map(\.description)) }

    public func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            standardError(Self.usage)
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "-h", "--help":
            standardOutput(Self.usage)
            return 0
        case "--version":
            standardOutput("healthetl \(HealthETLVersion.current)\n")
            return 0
        default: break
        }
        guard let command = Self.commands.first(where: { $0.description.name == name }) else {
            return usageError(Self.unknownCommand(name))
        }
        var tool = self
        tool.activeCommand = command.description
        // `--help` anywhere before `--` wins over everything else, as in git and swift-argument-parser.
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            standardOutput(HelpText.command(command.description))
            return 0
        }
        return command.run(tool)(rest)
    }

    /// "Unknown command", with the command closest to a mistyped one if it is close enough to be what was meant.
    static func unknownCommand(_ name: String) -> UsageError {
        var message = "Unknown command '\(name)'."
        let names = commands.map(\.description.name)
        if let nearest = names.min(by: { editDistance($0, name) < editDistance($1, name) }),
            editDistance(nearest, name) <= max(2, name.count / 3)
        {
            message += " Did you mean '\(nearest)'?"
        }
        return UsageError(message: message)
    }

    /// Prints a usage error with the usage of the command being run (or of the tool) and exits 64.
    func usageError(_ error: UsageError) -> Int32 {
        standardError(HelpText.usageError(error.message, command: activeCommand))
        return ExitCode.usage.rawValue
    }

    /// Runs `body`, mapping its errors to one line on stderr and an exit code.
    func reportErrors(input: String, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return 0
        } catch let error as ImportError {
            standardError("healthetl: \(error)\n")
            if error.kind == .interrupted, let signal = Interruption.requestedBy { return 128 + signal }
            return ExitCode(error.kind).rawValue
        } catch {
            standardError("healthetl: \(input): error: \(error)\n")
            return ExitCode.internalError.rawValue
        }
    }

    /// Runs a plan (from flags or from a pipeline file) and reports it: the summary on stderr, or JSON on
    /// stdout, or nothing with --quiet; errors as one line with an exit code.
    func runPlan(_ plan: PipelinePlan, quiet: Bool, json: Bool) -> Int32 {
        var plan = plan
        let bar = ProgressBar(write: standardError)
        if errorIsTerminal && !quiet && !json {
            plan.job.progress = { bar.update(done: $0, total: $1) }
        }
        defer { bar.clear() }
        return reportErrors(input: plan.job.inputPath) {
            let result = try plan.run()
            bar.clear()
            if json {
                standardOutput(SummaryFormatter.json(result.summary, outputs: result.outputs) + "\n")
            } else if !quiet {
                standardError(SummaryFormatter.text(result.summary, database: plan.destination))
                for output in result.outputs where !output.text.isEmpty { standardError(output.text) }
            }
        }
    }

    static func timeZone(_ name: String) throws(UsageError) -> TimeZone {
        guard let zone = TimeZone(identifier: name) else {
            throw UsageError(
                message:
                    "The value '\(name)' is invalid for '--timezone <zone>' (use an IANA name such as Europe/Berlin)")
        }
        return zone
    }

    /// PostgreSQL is the output when `--postgres` names it, or when `--person` comes without `--db` and without
    /// `--parquet` (the server of the PG* environment variables, as before the lake). With `--parquet` and no
    /// `--postgres`, `--person` names the lake's partition and PostgreSQL is not touched.
    static func postgresDestination(_ arguments: Arguments) throws(UsageError) -> PostgresDestination? {
        if arguments.values["--parquet"] != nil && arguments.values["--postgres"] == nil {
            if arguments.values["--working-copy"] != nil {
                throw UsageError(message: "'--working-copy' is PostgreSQL's; with '--parquet' add '--postgres <url>'")
            }
            return nil
        }
        guard let person = arguments.values["--person"] else {
            for option in ["--postgres", "--working-copy"] where arguments.values[option] != nil {
                throw UsageError(message: "'\(option)' needs '--person <id>': whose data is it?")
            }
            return nil
        }
        guard arguments.values["--db"] == nil else {
            throw UsageError(message: "'--person <id>' imports into PostgreSQL; leave out '--db <path>'")
        }
        do throws(OptionValueError) {
            try PostgresDestination.checkPerson(person)
        } catch {
            throw UsageError(error)
        }
        return PostgresDestination(
            connection: arguments.values["--postgres"] ?? "", person: person,
            workingCopies: arguments.values["--working-copy"])
    }

    static func lockTimeout(_ arguments: Arguments) throws(UsageError) -> Double {
        guard let text = arguments.values["--wait"] else { return 10 }
        guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
            throw UsageError(message: "The value '\(text)' is invalid for '--wait <seconds>'")
        }
        return seconds
    }
}
