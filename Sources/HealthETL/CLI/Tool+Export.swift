import HealthCSV
import HealthLake
import HealthModel
import HealthPipelines

extension CommandDescription {
    static let exportCommand = CommandDescription(
        name: "export",
        abstract:
            "Write an existing database as CSV files, as a Parquet lake (one folder per table and view), as FHIR R4 "
            + "or IEEE 1752.1, or its workouts as FIT, TCX or GPX files.",
        // One line per registered output: `export --db <path> --csv <folder> [--excel] …`.
        usage: CommandLineOutput.usageFragments(on: .export).map { "export \(Option.exportDatabase.synopsis) \($0)" },
        options: [.exportDatabase] + CommandLineOutput.options(on: .export) + [.quiet, .json],
        examples: [
            "healthetl export --db health.sqlite --csv out/ --excel",
            "healthetl export --db p123.sqlite --parquet lake/ --person P123",
            "healthetl export --db health.sqlite --workouts workouts/ --format tcx --start 2025-01-01",
            "healthetl export --db health.sqlite --fhir fhir/",
        ])
}

extension CommandDescription.Option {
    fileprivate static let exportDatabase = Self(
        "--db", value: "<path>", help: "The healthetl database to read (never changed).", valueIsFile: true)
}

/// `healthetl export --db … --csv …` (or any registered output's main option): outputs of an existing database.
extension Tool {
    func runExport(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .exportCommand)
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"], CommandLineOutput.asksForAny(arguments, on: .export) else {
            return usageError(
                UsageError(
                    message: "Missing expected options '\(CommandDescription.Option.exportDatabase.synopsis)' and "
                        + CommandLineOutput.alternatives(CommandLineOutput.mainOptions(on: .export))))
        }
        if let alone = CommandLineOutput.unaccompaniedOption(arguments, on: .export) {
            return usageError(alone)
        }
        guard arguments.positionals.isEmpty else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[0])'"))
        }
        let outputs: [any RunOutput]
        do throws(UsageError) {
            outputs = try CommandLineOutput.outputs(arguments, on: .export)
        } catch {
            return usageError(error)
        }
        return reportErrors(input: database) {
            let results = try outputs.map { try $0.produce(from: database) }
            if arguments.flags.contains("--json") {
                standardOutput(SummaryFormatter.json(ImportSummary(), outputs: results) + "\n")
            } else if !arguments.flags.contains("--quiet") {
                for result in results where !result.text.isEmpty { standardError(result.text) }
            }
        }
    }
}
