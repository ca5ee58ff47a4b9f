import Foundation
import HealthCSV
import HealthImport
import HealthPipelines
import HealthPostgres
import HealthSchema
import HealthStages

extension CommandDescription {
    static let importCommand = CommandDescription(
        name: "import",
        abstract: "Import an export into a SQLite database (or CSV files, or PostgreSQL), or update it.",
        usage: importUsage,
        arguments: [Argument("<export>", help: "export.zip, the unzipped apple_health_export folder, or export.xml")],
        options: [
            Option(
                "--db", value: "<path>",
                help: "The SQLite database to write: created if missing, else updated with only what changed (new, "
                    + "replaced and deleted samples).", valueIsFile: true),
            .personOnImport,
            .postgres,
            Option(
                "--working-copy", value: "<folder>",
                help: "Keep the person's working copy here between runs (owner-only): the next run on this machine "
                    + "skips copying the person's rows out of the server.", valueIsFile: true),
        ] + CommandLineOutput.options(on: .import) + [
            Option(
                "--timezone", value: "<zone>",
                help: "IANA zone deciding each sample's local_date (default: the database's zone, else this "
                    + "machine's). A sample's own HKTimeZone wins."),
            Option(
                "--state-of-mind", value: "<file>",
                help: "A Health Auto Export JSON file with State of Mind entries to import too.", valueIsFile: true),
            Option("--keep-duplicates", help: "Store exact duplicates and superseded sync versions too (dedup off)."),
            Option("--raw-units", help: "Keep values in the units they were exported in (unit stage off)."),
            Option("--force", help: "Import an export older than the one the database was last updated from."),
            Option("--rescan", help: "Read the export even if it is the same file as the last import."),
            Option(
                "--threads", value: "<n>",
                help: "Threads decoding the export's XML, 1 to \(ImportJob.maximumThreads) (default: 1 into a new "
                    + "database, 2 when updating one on 2 or more cores). Rows, ids, warnings and errors are the same "
                    + "for any number. More can help a first import on 4 or more cores for exports with many GPS "
                    + "routes (their files are read in parallel); otherwise the one thread writing the database sets "
                    + "the pace. Each thread holds a few more megabytes of the export."),
            .wait, .quiet, .json,
        ],
        examples: [
            "healthetl import ~/Downloads/export.zip --db health.sqlite",
            "healthetl import export.zip --db health.sqlite --quiet --wait 600",
            "healthetl import export.zip --csv out/ --excel",
            "healthetl import export.zip --person P123 --postgres postgresql://etl@db.example.org/study",
            "healthetl import export.zip --db p123.sqlite --person P123 --parquet lake/",
        ])
}

extension CommandDescription {
    /// The database with any registered output beside it, PostgreSQL, then each output alone (on a scratch
    /// database: `CommandLineOutput.onImport`).
    fileprivate static var importUsage: [String] {
        let outputs: [String] = CommandLineOutput.usageFragments(on: .import)
        let beside: String = outputs.map { "[\($0)]" }.joined(separator: " ")
        let alone: [String] = outputs.map { "import <export> \($0)" }
        return [
            "import <export> --db <path> \(beside) [--timezone <zone>] [--quiet] [--json]",
            "import <export> --person <id> [--postgres <url>] [--working-copy <folder>]",
        ] + alone
    }
}

extension CommandDescription.Option {
    /// `--person` on `import`: PostgreSQL's person, or with `--parquet` the lake's partition (both read it).
    static let personOnImport = Self(
        "--person", value: "<id>",
        help: "The person whose export it is (a study's participant id). With --parquet, it names the "
            + "person's partition of the lake (<lake>/<table>/person=<id>/) and PostgreSQL is used only "
            + "with --postgres; otherwise it imports into PostgreSQL (--postgres, else the PG* environment "
            + "variables), each person's rows kept apart and updated like a database of their own.")
}

/// `healthetl import <export>`: an export or a feed into a database, CSV files or PostgreSQL (`runPlan` runs it).
extension Tool {
    func runImport(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .importCommand)
        } catch {
            return usageError(error)
        }
        guard let input = arguments.positionals.first else {
            return usageError(UsageError(message: "Missing expected argument '<export>'"))
        }
        guard arguments.positionals.count == 1 else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[1])'"))
        }
        let database = arguments.values["--db"]
        let person = arguments.values["--person"]
        guard
            database != nil || person != nil || arguments.values["--postgres"] != nil
                || CommandLineOutput.asksForAny(arguments, on: .import)
        else {
            let alternatives = ["'--db <path>'", "'--person <id>'"] + CommandLineOutput.mainOptions(on: .import)
            return usageError(
                UsageError(message: "Missing expected option " + CommandLineOutput.alternatives(alternatives)))
        }
        if let alone = CommandLineOutput.unaccompaniedOption(arguments, on: .import) {
            return usageError(alone)
        }
        var timeZone: TimeZone?
        var lockTimeout = 10.0
        var threads: Int?
        var postgres: PostgresDestination?
        var outputs: [any RunOutput] = []
        do throws(UsageError) {
            timeZone = try arguments.values["--timezone"].map(Self.timeZone)
            lockTimeout = try Self.lockTimeout(arguments)
            threads = try Self.threads(arguments)
            postgres = try Self.postgresDestination(arguments)
            outputs = try CommandLineOutput.outputs(arguments, on: .import)
        } catch {
            return usageError(error)
        }
        var job = ImportJob(inputPath: input, databasePath: database ?? "", timeZone: timeZone)
        job.lockTimeoutSeconds = lockTimeout
        job.threads = threads
        job.stateOfMindPath = arguments.values["--state-of-mind"]
        if arguments.flags.contains("--keep-duplicates") {
            job.storeOptions.dropExactDuplicates = false
            job.storeOptions.keepHighestSyncVersion = false
        }
        if arguments.flags.contains("--raw-units") { job.stages.removeAll { $0 is UnitStage } }
        job.allowOlderExport = arguments.flags.contains("--force")
        job.rescan = arguments.flags.contains("--rescan")
        let plan = PipelinePlan(job: job, databasePath: database, outputs: outputs, postgres: postgres)
        return runPlan(
            plan, quiet: arguments.flags.contains("--quiet"),
            json: arguments.flags.contains("--json"))
    }
}

extension Tool {
    /// `--threads <n>`: 1 to `ImportJob.maximumThreads`; nil when not given (the job decides).
    static func threads(_ arguments: Arguments) throws(UsageError) -> Int? {
        guard let text = arguments.values["--threads"] else { return nil }
        guard let threads = Int(text), (1...ImportJob.maximumThreads).contains(threads) else {
            throw UsageError(message: "The value '\(text)' is invalid for '--threads <n>'")
        }
        return threads
    }
}
