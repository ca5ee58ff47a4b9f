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
        usage: [
            "export --db <path> --csv <folder> [--excel] [--no-tables] [--no-daily]",
            "export --db <path> --parquet <lake> [--person <id>]",
            "export --db <path> --workouts <folder> [--format fit|tcx|gpx] [--start <day>] [--end <day>] "
                + "[--activity <activity>] [--no-position]",
            "export --db <path> --fhir <folder> [--level daily|samples] [--no-patient] [--bundle]",
            "export --db <path> --ieee1752 <folder> [--level daily|samples]",
        ],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to read (never changed).", valueIsFile: true)
        ] + CommandLineOutput.registered.flatMap(\.exportOptions) + [.quiet, .json],
        examples: [
            "healthetl export --db health.sqlite --csv out/ --excel",
            "healthetl export --db p123.sqlite --parquet lake/ --person P123",
            "healthetl export --db health.sqlite --workouts workouts/ --format tcx --start 2025-01-01",
            "healthetl export --db health.sqlite --fhir fhir/",
        ])
}

/// `healthetl export --db … --csv …`: the CSV files of an existing database.
extension Tool {
    func runExport(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .exportCommand)
        } catch {
            return usageError(error)
        }
        let lake = arguments.values["--parquet"]
        let person = arguments.values["--person"]
        let workoutOptions =
            ["--format", "--start", "--end", "--activity"].filter { arguments.values[$0] != nil }
            + (arguments.flags.contains("--no-position") ? ["--no-position"] : [])
        guard let database = arguments.values["--db"],
            arguments.values["--csv"] != nil || lake != nil || arguments.values["--workouts"] != nil
                || arguments.values["--fhir"] != nil || arguments.values["--ieee1752"] != nil
        else {
            return usageError(
                UsageError(
                    message: "Missing expected options '--db <path>' and '--csv <folder>', '--parquet <lake>', "
                        + "'--workouts <folder>', '--fhir <folder>' or '--ieee1752 <folder>'"))
        }
        if let option = workoutOptions.first, arguments.values["--workouts"] == nil {
            return usageError(UsageError(message: "'\(option)' on export goes with '--workouts <folder>'"))
        }
        guard arguments.positionals.isEmpty else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[0])'"))
        }
        if person != nil && lake == nil {
            return usageError(UsageError(message: "'--person <id>' on export names a partition of '--parquet <lake>'"))
        }
        let outputs: [any RunOutput]
        do throws(UsageError) {
            outputs = try CommandLineOutput.outputs(arguments)
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
