import Foundation

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

    public static let usage = """
        OVERVIEW: Turn the Health app's export.zip into a SQLite database, and keep it up to date.

        USAGE: healthetl import <export> --db <path> [--csv <folder> [--excel]] [--timezone <zone>] [--quiet] [--json]
               healthetl import <export> --csv <folder> [--excel]
               healthetl import <export> --person <id> [--postgres <url>] [--working-copy <folder>]
               healthetl export --db <path> --csv <folder> [--excel] [--no-tables] [--no-daily]
               healthetl run <pipeline.json> [--dry-run] [--quiet] [--json]
               healthetl status (--db <path> | --person <id> [--postgres <url>]) [--json]
               healthetl set-timezone <zone> --db <path>
               healthetl report --db <path> --out <file.html> [--from <day>] [--to <day>] [--sections <list>]
               healthetl schema [--postgres]

        ARGUMENTS:
          <export>                export.zip, the unzipped apple_health_export folder, or export.xml

        IMPORT OPTIONS:
          --db <path>             The SQLite database to write: created if missing, else updated with only
                                  what changed (new, replaced and deleted samples).
          --person <id>           Import into PostgreSQL as this person's data (a study's participant id):
                                  each person's rows are kept apart and updated like a database of their own.
          --postgres <url>        The PostgreSQL server for --person (postgresql://user@host/db); without it,
                                  libpq's PG* environment variables (PGHOST, PGDATABASE, PGUSER, PGPASSFILE).
          --working-copy <folder> Keep the person's working copy here between runs (owner-only): the next run
                                  on this machine skips copying the person's rows out of the server.
          --csv <folder>          Also (or, without --db, only) write CSV files: one per table, and the daily
                                  rollups daily.csv, daily_long.csv, daily_units.csv.
          --excel                 CSV for spreadsheets: BOM, dates as 2024-03-31 08:15:00, no blobs, cells
                                  that would run as formulas prefixed with '.
          --timezone <zone>       IANA zone deciding each sample's local_date (default: the database's zone,
                                  else this machine's). A sample's own HKTimeZone wins.
          --state-of-mind <file>  A Health Auto Export JSON file with State of Mind entries to import too.
          --keep-duplicates       Store exact duplicates and superseded sync versions too (dedup off).
          --raw-units             Keep values in the units they were exported in (unit stage off).
          --force                 Import an export older than the one the database was last updated from.
          --rescan                Read the export even if it is the same file as the last import.
          --wait <seconds>        How long to wait for another run holding the database. (default: 10)
          --quiet                 Print nothing on success (for cron); errors still go to stderr.
          --json                  Print a machine-readable summary on stdout.
          --version               Show the version.
          -h, --help              Show help information.

        """

    public func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            standardError(Self.usage)
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            standardOutput(Self.usage)
            return 0
        case "--version":
            standardOutput("healthetl \(HealthETLVersion.current)\n")
            return 0
        case "import": return runImport(rest)
        case "status": return runStatus(rest)
        case "export": return runExport(rest)
        case "run": return runPipeline(rest)
        case "set-timezone": return runSetTimeZone(rest)
        case "report": return runReport(rest)
        case "schema":
            switch rest {
            case []: standardOutput(SchemaDocumentation.markdown())
            // For a DBA who creates the schema before granting importers less than CREATE.
            case ["--postgres"]: standardOutput(PostgresSchema.createStatements.joined(separator: ";\n\n") + ";\n")
            default: return usageError(UsageError(message: "Unexpected argument '\(rest[0])' (schema takes only --postgres)"))
            }
            return 0
        default:
            return usageError(UsageError(message: "Unknown command '\(command)'."))
        }
    }

    func usageError(_ error: UsageError) -> Int32 {
        standardError("Error: \(error.message)\nUsage: healthetl import <export> --db <path>\n  See 'healthetl --help' for more information.\n")
        return ExitCode.usage.rawValue
    }

    private func runImport(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(
                rawArguments, valueOptions: [
                    "--db", "--timezone", "--wait", "--state-of-mind", "--csv", "--person", "--postgres",
                    "--working-copy",
                ],
                flagOptions: [
                    "--quiet", "--json", "--help", "--keep-duplicates", "--raw-units", "--force", "--rescan", "--excel",
                ])
        } catch {
            return usageError(error)
        }
        if arguments.flags.contains("--help") {
            standardOutput(Self.usage)
            return 0
        }
        guard let input = arguments.positionals.first else {
            return usageError(UsageError(message: "Missing expected argument '<export>'"))
        }
        guard arguments.positionals.count == 1 else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[1])'"))
        }
        let database = arguments.values["--db"]
        let person = arguments.values["--person"]
        guard database != nil || arguments.values["--csv"] != nil || person != nil || arguments.values["--postgres"] != nil
        else {
            return usageError(
                UsageError(message: "Missing expected option '--db <path>', '--person <id>' or '--csv <folder>'"))
        }
        var timeZone: TimeZone?
        var lockTimeout = 10.0
        var postgres: PostgresDestination?
        do throws(UsageError) {
            timeZone = try arguments.values["--timezone"].map(Self.timeZone)
            lockTimeout = try Self.lockTimeout(arguments)
            postgres = try Self.postgresDestination(arguments)
        } catch {
            return usageError(error)
        }
        var job = ImportJob(inputPath: input, databasePath: database ?? "", timeZone: timeZone)
        job.lockTimeoutSeconds = lockTimeout
        job.stateOfMindPath = arguments.values["--state-of-mind"]
        if arguments.flags.contains("--keep-duplicates") {
            job.dedup.dropExactDuplicates = false
            job.dedup.keepHighestSyncVersion = false
        }
        if arguments.flags.contains("--raw-units") { job.stages.removeAll { $0 is UnitStage } }
        job.allowOlderExport = arguments.flags.contains("--force")
        job.rescan = arguments.flags.contains("--rescan")
        let csv = arguments.values["--csv"].map { folder in
            var output = CSVOutput(directory: folder)
            if arguments.flags.contains("--excel") { output.dialect = .excel }
            return output
        }
        return runPlan(
            PipelinePlan(job: job, databasePath: database, csv: csv, postgres: postgres), quiet: arguments.flags.contains("--quiet"),
            json: arguments.flags.contains("--json"))
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
                standardOutput(SummaryFormatter.json(result.summary, csv: result.csv) + "\n")
            } else if !quiet {
                let target = plan.postgres?.displayName ?? plan.databasePath ?? plan.csv?.directory ?? ""
                standardError(SummaryFormatter.text(result.summary, database: target))
                if let report = result.csv { standardError(SummaryFormatter.text(report)) }
            }
        }
    }

    static func timeZone(_ name: String) throws(UsageError) -> TimeZone {
        guard let zone = TimeZone(identifier: name) else {
            throw UsageError(
                message: "The value '\(name)' is invalid for '--timezone <zone>' (use an IANA name such as Europe/Berlin)")
        }
        return zone
    }

    static func postgresDestination(_ arguments: Arguments) throws(UsageError) -> PostgresDestination? {
        guard let person = arguments.values["--person"] else {
            for option in ["--postgres", "--working-copy"] where arguments.values[option] != nil {
                throw UsageError(message: "'\(option)' needs '--person <id>': whose data is it?")
            }
            return nil
        }
        guard arguments.values["--db"] == nil else {
            throw UsageError(message: "'--person <id>' imports into PostgreSQL; leave out '--db <path>'")
        }
        try PostgresDestination.checkPerson(person)
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
