import HealthCSV
import HealthModel

extension CommandDescription {
    static let exportCommand = CommandDescription(
        name: "export", abstract: "Write the CSV files of an existing database (tables and daily rollups).",
        usage: ["export --db <path> --csv <folder> [--excel] [--no-tables] [--no-daily]"],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to read (never changed).", valueIsFile: true),
            Option(
                "--csv", value: "<folder>",
                help: "The folder to write: one CSV per table, daily.csv, daily_long.csv, daily_units.csv.",
                valueIsFile: true),
            .excel,
            Option("--no-tables", help: "Leave out the one-file-per-table CSVs."),
            Option("--no-daily", help: "Leave out daily.csv, daily_long.csv and daily_units.csv."),
            .quiet, .json,
        ],
        examples: ["healthetl export --db health.sqlite --csv out/ --excel"])
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
        guard let database = arguments.values["--db"], let folder = arguments.values["--csv"] else {
            return usageError(UsageError(message: "Missing expected options '--db <path>' and '--csv <folder>'"))
        }
        guard arguments.positionals.isEmpty else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[0])'"))
        }
        var output = CSVOutput(directory: folder)
        if arguments.flags.contains("--excel") { output.dialect = .excel }
        output.tables = !arguments.flags.contains("--no-tables")
        output.daily = !arguments.flags.contains("--no-daily")
        return reportErrors(input: database) {
            let report = try output.write(from: database)
            if arguments.flags.contains("--json") {
                standardOutput(SummaryFormatter.json(ImportSummary(), csv: report) + "\n")
            } else if !arguments.flags.contains("--quiet") {
                standardError(SummaryFormatter.text(report))
            }
        }
    }
}
