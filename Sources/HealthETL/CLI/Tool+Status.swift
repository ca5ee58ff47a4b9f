import Foundation
import HealthPostgres
import HealthSchema

extension CommandDescription {
    static let statusCommand = CommandDescription(
        name: "status", abstract: "Show a database's totals, its last runs and the anchors per type.",
        usage: ["status --db <path> [--json]", "status --person <id> [--postgres <url>] [--json]"],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to report on.", valueIsFile: true),
            Option("--person", value: "<id>", help: "Report on this person's data on the PostgreSQL server."),
            .postgres,
            Option("--json", help: "Print the status as JSON."),
        ],
        examples: ["healthetl status --db health.sqlite", "healthetl status --person P123 --json"])
}

/// `healthetl status`: a database's totals, last runs and anchors.
extension Tool {
    func runStatus(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .statusCommand)
        } catch {
            return usageError(error)
        }
        let postgres: PostgresDestination?
        do throws(UsageError) {
            postgres = try Self.postgresDestination(arguments)
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"] ?? postgres?.displayName else {
            return usageError(UsageError(message: "Missing expected option '--db <path>' or '--person <id>'"))
        }
        guard arguments.positionals.isEmpty else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[0])'"))
        }
        return reportErrors(input: database) {
            let status = try postgres.map { try PostgresStatus.read($0) } ?? DatabaseStatus.read(path: database)
            if arguments.flags.contains("--json") {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                standardOutput(String(decoding: try encoder.encode(status), as: UTF8.self) + "\n")
            } else {
                standardOutput(status.text)
            }
        }
    }
}
