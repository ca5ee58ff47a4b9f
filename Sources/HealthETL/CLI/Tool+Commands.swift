import Foundation
import HealthCSV
import HealthLake
import HealthModel
import HealthPipelines
import HealthPostgres
import HealthStore

/// The commands besides `import`: `run`, `export`, `status`, `set-timezone`.
extension Tool {
    /// `healthetl run pipeline.json [--dry-run]`: the whole definition is checked before anything runs.
    func runPipeline(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .runCommand)
        } catch {
            return usageError(error)
        }
        guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
            return usageError(UsageError(message: "Expected one argument: the pipeline file (pipelines/nightly.json)"))
        }
        let definition: PipelineDefinition
        let plan: PipelinePlan
        do {
            definition = try PipelineDefinition.load(path: file)
            if arguments.flags.contains("--dry-run") {
                standardOutput(definition.describe())
            }
            plan = try definition.plan()
        } catch let error as PipelineError {
            standardError(error.description.split(separator: "\n").map { "healthetl: \($0)\n" }.joined())
            return ExitCode.badConfiguration.rawValue
        } catch {
            standardError("healthetl: \(file): error: \(error)\n")
            return ExitCode.internalError.rawValue
        }
        if arguments.flags.contains("--dry-run") {
            standardOutput("Dry run: nothing was read or written.\n")
            return 0
        }
        return runPlan(plan, quiet: arguments.flags.contains("--quiet"), json: arguments.flags.contains("--json"))
    }

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

    func runSetTimeZone(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        let zone: TimeZone
        let lockTimeout: Double
        do throws(UsageError) {
            arguments = try Arguments(rawArguments, for: .setTimeZoneCommand)
            guard arguments.positionals.count == 1 else {
                throw UsageError(message: "Expected one argument: the IANA time zone (Europe/Berlin)")
            }
            zone = try Self.timeZone(arguments.positionals[0])
            lockTimeout = try Self.lockTimeout(arguments)
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"] else {
            return usageError(UsageError(message: "Missing expected option '--db <path>'"))
        }
        return reportErrors(input: database) {
            let changed = try SQLiteSink.changeTimeZone(
                databasePath: database, to: zone, lockTimeoutSeconds: lockTimeout)
            if !arguments.flags.contains("--quiet") {
                standardError("\(database): local dates now in \(zone.identifier) (\(changed) rows changed day)\n")
            }
        }
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
}
