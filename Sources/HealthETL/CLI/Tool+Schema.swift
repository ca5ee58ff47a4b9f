import HealthPostgres
import HealthSchema

extension CommandDescription {
    static let schemaCommand = CommandDescription(
        name: "schema", abstract: "Print the database schema's documentation (docs/schema.md), or PostgreSQL's DDL.",
        usage: ["schema [--postgres]"],
        options: [
            Option(
                "--postgres",
                help: "Print the CREATE statements of the PostgreSQL schema instead (for a DBA who creates it before "
                    + "granting importers less than CREATE).")
        ],
        examples: ["healthetl schema > docs/schema.md"])
}

/// `healthetl schema [--postgres]`: the schema's documentation, or PostgreSQL's DDL.
extension Tool {
    func runSchema(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do throws(UsageError) {
            arguments = try Arguments(rawArguments, for: .schemaCommand)
            if let unexpected = arguments.positionals.first {
                throw UsageError(message: "Unexpected argument '\(unexpected)'")
            }
        } catch {
            return usageError(error)
        }
        if arguments.flags.contains("--postgres") {
            standardOutput(PostgresSchema.createStatements.joined(separator: ";\n\n") + ";\n")
        } else {
            standardOutput(SchemaDocumentation.markdown())
        }
        return 0
    }
}
