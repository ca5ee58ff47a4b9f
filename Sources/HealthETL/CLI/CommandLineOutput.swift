import HealthCSV
import HealthFHIR
import HealthLake
import HealthModel
import HealthPipelines
import HealthWorkoutFiles

/// The outputs `import` and `export` write from flags, each registered once: the options it reads (in each
/// command's help and parser, in this order) and how it builds its `RunOutput` from the parsed arguments. Both
/// commands compose `registered` instead of naming each output; a new output is its kind in
/// `HealthPipelines/Outputs` (pipelines, the plan, the summary) and one entry here (its flags).
struct CommandLineOutput: Sendable {
    /// Its options in `healthetl import`.
    let importOptions: [CommandDescription.Option]
    /// Its options in `healthetl export`; empty when `export` does not write it.
    let exportOptions: [CommandDescription.Option]
    /// The output the arguments ask for; nil when its main option is not given. A refused value is a usage error.
    let make: @Sendable (_ arguments: Arguments) throws(UsageError) -> (any RunOutput)?

    static let registered: [CommandLineOutput] = [.csvFolder, .parquetLake, .workoutFiles, .fhir, .ieee1752]

    /// Every registered output the arguments ask for, in the registration's order.
    static func outputs(_ arguments: Arguments) throws(UsageError) -> [any RunOutput] {
        var outputs: [any RunOutput] = []
        for output in registered {
            if let made = try output.make(arguments) { outputs.append(made) }
        }
        return outputs
    }
}

extension CommandLineOutput {
    /// `--csv <folder> [--excel]`, and on `export` `--no-tables`, `--no-daily`.
    static let csvFolder = CommandLineOutput(
        importOptions: [
            .init(
                "--csv", value: "<folder>",
                help: "Also (or, without --db, only) write CSV files: one per table, and the daily rollups daily.csv, "
                    + "daily_long.csv, daily_units.csv.", valueIsFile: true),
            .excel,
        ],
        exportOptions: [
            .init(
                "--csv", value: "<folder>",
                help: "The folder to write: one CSV per table, daily.csv, daily_long.csv, daily_units.csv.",
                valueIsFile: true),
            .excel,
            .init("--no-tables", help: "Leave out the one-file-per-table CSVs."),
            .init("--no-daily", help: "Leave out daily.csv, daily_long.csv and daily_units.csv."),
        ],
        make: { arguments in
            guard let folder = arguments.values["--csv"] else { return nil }
            var output = CSVOutput(directory: folder)
            if arguments.flags.contains("--excel") { output.dialect = .excel }
            output.tables = !arguments.flags.contains("--no-tables")
            output.daily = !arguments.flags.contains("--no-daily")
            return output
        })

    /// `--parquet <lake>`, partitioned by `--person` when given (on `import`, `--person` is also PostgreSQL's:
    /// `Tool.postgresDestination` tells the two apart).
    static let parquetLake = CommandLineOutput(
        importOptions: [.parquet],
        exportOptions: [
            .parquet,
            .init(
                "--person", value: "<id>",
                help: "With --parquet: publish into the person's partition, <lake>/<table>/person=<id>/, replacing "
                    + "only that person's files (docs/lake.md)."),
        ],
        make: { arguments throws(UsageError) in
            guard let lake = arguments.values["--parquet"] else { return nil }
            let person = arguments.values["--person"]
            if let person {
                do throws(OptionValueError) {
                    try LakeLayout.checkPerson(person)
                } catch {
                    throw UsageError(error)
                }
            }
            return ParquetLakeOutput(folder: lake, person: person)
        })
}

extension CommandLineOutput {
    /// `--workouts <folder>` with its format, dates, activity and `--no-position` (on `export` only: the files
    /// are drawn from a database; a pipeline's `workouts` sink writes them after an import).
    static let workoutFiles = CommandLineOutput(
        importOptions: [],
        exportOptions: [
            .init(
                "--workouts", value: "<folder>",
                help: "Write one file per workout for training apps, named by local start and activity "
                    + "(2025-09-16_1815_running.fit); an unchanged workout's file is not rewritten (docs/workouts.md).",
                valueIsFile: true),
            .init(
                "--format", value: "<fit|tcx|gpx>",
                help: "With --workouts: FIT, TCX, or GPX with heart rate (only workouts with a route).", default: "fit"),
            .init("--start", value: "<YYYY-MM-DD>", help: "With --workouts: the first local day (inclusive)."),
            .init("--end", value: "<YYYY-MM-DD>", help: "With --workouts: the last local day (inclusive)."),
            .init(
                "--activity", value: "<activity>",
                help: "With --workouts: only this activity (running, cycling or HKWorkoutActivityTypeSwimming, say)."),
            .init("--no-position", help: "With --workouts: leave coordinates out (GPX is then skipped)."),
        ],
        make: { arguments throws(UsageError) in
            guard let folder = arguments.values["--workouts"] else { return nil }
            do throws(OptionValueError) {
                let options = try WorkoutFileOptions.parse(
                    format: arguments.values["--format"], start: arguments.values["--start"],
                    end: arguments.values["--end"], activity: arguments.values["--activity"],
                    position: !arguments.flags.contains("--no-position"))
                return WorkoutFilesOutput(folder: folder, options: options)
            } catch {
                throw UsageError(error)
            }
        })
}

extension CommandLineOutput {
    /// `--fhir <folder> [--level daily|samples] [--no-patient] [--bundle]`, on `export` only.
    static let fhir = CommandLineOutput(
        importOptions: [],
        exportOptions: [
            .init(
                "--fhir", value: "<folder>",
                help:
                    "Write FHIR R4 Bulk Data NDJSON: Observation.ndjson, Device.ndjson, Patient.ndjson (docs/fhir.md); "
                    + "unchanged files are not rewritten.", valueIsFile: true),
            .init(
                "--level", value: "daily|samples",
                help:
                    "With --fhir or --ieee1752: one value per day and metric from the rollups, or every sample (streamed).",
                default: "daily"),
            .init("--no-patient", help: "With --fhir: no Patient resource and no subject references."),
            .init("--bundle", help: "With --fhir: one transaction Bundle (bundle.json) instead of NDJSON files."),
        ],
        make: { arguments throws(UsageError) in
            guard let folder = arguments.values["--fhir"] else { return nil }
            var output = FHIROutput(folder: folder)
            if let text = arguments.values["--level"] {
                guard let level = ExportLevel(rawValue: text) else {
                    throw UsageError(message: "The value '\(text)' is invalid for '--level' (daily or samples)")
                }
                output.options.level = level
            }
            output.options.patient = !arguments.flags.contains("--no-patient")
            output.options.bundle = arguments.flags.contains("--bundle")
            return output
        })
}

extension CommandLineOutput {
    /// `--ieee1752 <folder>`, on `export` only; `--level` (declared by `fhir`) applies to both.
    static let ieee1752 = CommandLineOutput(
        importOptions: [],
        exportOptions: [
            .init(
                "--ieee1752", value: "<folder>",
                help:
                    "Write IEEE 1752.1 data points, one NDJSON file per schema (step-count.ndjson, heart-rate.ndjson and others; docs/fhir.md); "
                    + "--level applies as with --fhir.", valueIsFile: true)
        ],
        make: { arguments throws(UsageError) in
            guard let folder = arguments.values["--ieee1752"] else { return nil }
            var output = IEEE1752Output(folder: folder)
            if let text = arguments.values["--level"] {
                guard let level = ExportLevel(rawValue: text) else {
                    throw UsageError(message: "The value '\(text)' is invalid for '--level' (daily or samples)")
                }
                output.level = level
            }
            return output
        })
}
