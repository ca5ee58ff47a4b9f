import Foundation
import HealthDatasette

extension CommandDescription {
    static let datasetteCommand = CommandDescription(
        name: "datasette",
        abstract: "Write Datasette's metadata for a database: descriptions, units and ready-made queries.",
        usage: ["datasette --db <path> [--metadata <file>] [--quiet]"],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to describe.", valueIsFile: true),
            Option(
                "--metadata", value: "<file>",
                help: "Where to write the metadata (default: beside the database, health.datasette.json).",
                valueIsFile: true),
            Option("--quiet", help: "Print nothing on success."),
        ],
        examples: [
            "healthetl datasette --db health.sqlite",
            "datasette health.sqlite --metadata health.datasette.json",
        ])
}

extension Tool {
    /// `healthetl datasette --db health.sqlite [--metadata <file>]`: writes Datasette's metadata file for the
    /// database (descriptions, units, canned queries) and prints the command that opens it.
    func runDatasette(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .datasetteCommand)
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"] else {
            return usageError(UsageError(message: "Missing expected option '--db <path>'"))
        }
        guard arguments.positionals.isEmpty else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[0])'"))
        }
        // Next to the database by default: `health.sqlite` → `health.datasette.json`.
        let output =
            arguments.values["--metadata"]
            ?? ((database as NSString).deletingPathExtension + ".datasette.json")
        return reportErrors(input: database) {
            try DatasetteMetadata.write(databasePath: database, to: output)
            if !arguments.flags.contains("--quiet") {
                standardError("\(output): Datasette metadata for \(database). Open it with:\n")
                standardOutput("datasette \(Self.shellQuoted(database)) --metadata \(Self.shellQuoted(output))\n")
            }
        }
    }

    static func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) }
        return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
