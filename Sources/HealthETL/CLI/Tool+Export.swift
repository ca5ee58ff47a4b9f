import HealthCSV
import HealthLake
import HealthModel
import HealthPipelines

extension CommandDescription {
    static let exportCommand = CommandDescription(
        name: "export",
        abstract: "Write an existing database as CSV files, or as a Parquet lake (one folder per table and view).",
        usage: [
            "export --db <path> --csv <folder> [--excel] [--no-tables] [--no-daily]",
            "export --db <path> --parquet <lake> [--person <id>]",
        ],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to read (never changed).", valueIsFile: true),
            Option(
                "--csv", value: "<folder>",
                help: "The folder to write: one CSV per table, daily.csv, daily_long.csv, daily_units.csv.",
                valueIsFile: true),
            .excel,
            Option("--no-tables", help: "Leave out the one-file-per-table CSVs."),
            Option("--no-daily", help: "Leave out daily.csv, daily_long.csv and daily_units.csv."),
            .parquet,
            Option(
                "--person", value: "<id>",
                help: "With --parquet: publish into the person's partition, <lake>/<table>/person=<id>/, replacing "
                    + "only that person's files (docs/lake.md)."),
            .quiet, .json,
        ],
        examples: [
            "healthetl export --db health.sqlite --csv out/ --excel",
            "healthetl export --db p123.sqlite --parquet lake/ --person P123",
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
        guard let database = arguments.values["--db"], arguments.values["--csv"] != nil || lake != nil else {
            return usageError(
                UsageError(message: "Missing expected options '--db <path>' and '--csv <folder>' or '--parquet <lake>'")
            )
        }
        guard arguments.positionals.isEmpty else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[0])'"))
        }
        if let person {
            guard lake != nil else {
                return usageError(
                    UsageError(message: "'--person <id>' on export names a partition of '--parquet <lake>'"))
            }
            do throws(OptionValueError) {
                try LakeLayout.checkPerson(person)
            } catch {
                return usageError(UsageError(message: error.message))
            }
        }
        var outputs: [any RunOutput] = []
        if let folder = arguments.values["--csv"] {
            var output = CSVOutput(directory: folder)
            if arguments.flags.contains("--excel") { output.dialect = .excel }
            output.tables = !arguments.flags.contains("--no-tables")
            output.daily = !arguments.flags.contains("--no-daily")
            outputs.append(output)
        }
        if let lake { outputs.append(ParquetLakeOutput(folder: lake, person: person)) }
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
