import HealthCSV
import HealthFHIR
import HealthLake
import HealthModel
import HealthPipelines
import HealthWorkoutFiles

/// The outputs `import` and `export` write from flags, each registered once: on each command, its main option
/// (which asks for it and says where it goes) and the options that adjust it, and how it builds its `RunOutput`
/// from the parsed arguments. Both commands derive their options, usage lines, missing-option message and the
/// refusal of an adjusting option given alone from `registered` (`CommandLineOutput+Usage`) instead of naming
/// each output; a new output is its kind in `HealthPipelines/Outputs` (pipelines, the plan, the summary) and one
/// entry here (its flags).
struct CommandLineOutput: Sendable {
    /// The two commands that write outputs from flags.
    enum Command: String, Sendable {
        case `import`, export
    }

    /// How one command asks for the output.
    struct Flags: Sendable {
        /// The option that asks for it; its value is where it is written (`--csv <folder>`).
        let main: CommandDescription.Option
        /// Options that mean something only with `main` (or with the main option of another output listing the
        /// same one, as `--level` is listed by `--fhir` and `--ieee1752`): refused when given without.
        var adjusting: [CommandDescription.Option] = []
        /// Options the command declares for its own sake that this output reads too, shown in its usage only
        /// (`--person` on `import`, which names the lake's partition and otherwise PostgreSQL's person).
        var alsoReads: [CommandDescription.Option] = []

        /// The options this output declares on the command, `main` first.
        var options: [CommandDescription.Option] { [main] + adjusting }

        /// Its part of a usage line: `--csv <folder> [--excel]`.
        var usage: String {
            ([main.synopsis] + (adjusting + alsoReads).map { "[\($0.synopsis)]" }).joined(separator: " ")
        }
    }

    /// Its flags on `healthetl import`; nil when `import` does not write it. An output offered on `import` must
    /// be able to host a run's scratch database (`RunOutput.hostScratchDatabase`): its main option may replace
    /// `--db`.
    let onImport: Flags?
    /// Its flags on `healthetl export`; nil when `export` does not write it.
    let onExport: Flags?
    /// The output the arguments ask for; nil when its main option is not given. A refused value is a usage error.
    let make: @Sendable (_ arguments: Arguments) throws(UsageError) -> (any RunOutput)?

    static let registered: [CommandLineOutput] = [.csvFolder, .parquetLake, .workoutFiles, .fhir, .ieee1752]

    func flags(on command: Command) -> Flags? {
        switch command {
        case .import: onImport
        case .export: onExport
        }
    }

    /// Every output registered on `command` that the arguments ask for, in the registration's order.
    static func outputs(_ arguments: Arguments, on command: Command) throws(UsageError) -> [any RunOutput] {
        var outputs: [any RunOutput] = []
        for output in registered where output.flags(on: command) != nil {
            if let made = try output.make(arguments) { outputs.append(made) }
        }
        return outputs
    }
}

extension CommandLineOutput {
    /// `--csv <folder> [--excel]`, and on `export` `--no-tables`, `--no-daily`.
    static let csvFolder = CommandLineOutput(
        onImport: Flags(
            main: .init(
                "--csv", value: "<folder>",
                help: "Also (or, without --db, only) write CSV files: one per table, and the daily rollups daily.csv, "
                    + "daily_long.csv, daily_units.csv.", valueIsFile: true),
            adjusting: [.excel]),
        onExport: Flags(
            main: .init(
                "--csv", value: "<folder>",
                help: "The folder to write: one CSV per table, daily.csv, daily_long.csv, daily_units.csv.",
                valueIsFile: true),
            adjusting: [
                .excel,
                .init("--no-tables", help: "Leave out the one-file-per-table CSVs."),
                .init("--no-daily", help: "Leave out daily.csv, daily_long.csv and daily_units.csv."),
            ]),
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
        onImport: Flags(main: .parquet, alsoReads: [.personOnImport]),
        onExport: Flags(
            main: .parquet,
            adjusting: [
                .init(
                    "--person", value: "<id>",
                    help: "With --parquet: publish into the person's partition, <lake>/<table>/person=<id>/, "
                        + "replacing only that person's files (docs/lake.md).")
            ]),
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
        onImport: nil,
        onExport: Flags(
            main: .init(
                "--workouts", value: "<folder>",
                help: "Write one file per workout for training apps, named by local start and activity "
                    + "(2025-09-16_1815_running.fit); an unchanged workout's file is not rewritten (docs/workouts.md).",
                valueIsFile: true),
            adjusting: [
                .init(
                    "--format", value: "<fit|tcx|gpx>",
                    help: "With --workouts: FIT, TCX, or GPX with heart rate (only workouts with a route).",
                    default: "fit"),
                .init("--start", value: "<YYYY-MM-DD>", help: "With --workouts: the first local day (inclusive)."),
                .init("--end", value: "<YYYY-MM-DD>", help: "With --workouts: the last local day (inclusive)."),
                .init(
                    "--activity", value: "<activity>",
                    help:
                        "With --workouts: only this activity (running, cycling or HKWorkoutActivityTypeSwimming, say)."),
                .init("--no-position", help: "With --workouts: leave coordinates out (GPX is then skipped)."),
            ]),
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
        onImport: nil,
        onExport: Flags(
            main: .init(
                "--fhir", value: "<folder>",
                help:
                    "Write FHIR R4 Bulk Data NDJSON: Observation.ndjson, Device.ndjson, Patient.ndjson (docs/fhir.md); "
                    + "unchanged files are not rewritten.", valueIsFile: true),
            adjusting: [
                .level,
                .init("--no-patient", help: "With --fhir: no Patient resource and no subject references."),
                .init("--bundle", help: "With --fhir: one transaction Bundle (bundle.json) instead of NDJSON files."),
            ]),
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
    /// `--ieee1752 <folder> [--level daily|samples]`, on `export` only; `--level` is shared with `fhir`.
    static let ieee1752 = CommandLineOutput(
        onImport: nil,
        onExport: Flags(
            main: .init(
                "--ieee1752", value: "<folder>",
                help:
                    "Write IEEE 1752.1 data points, one NDJSON file per schema (step-count.ndjson, heart-rate.ndjson and others; docs/fhir.md); "
                    + "--level applies as with --fhir.", valueIsFile: true),
            adjusting: [.level]),
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

extension CommandDescription.Option {
    /// `--level`, read by both interchange formats (`--fhir`, `--ieee1752`): declared once, listed by both.
    static let level = Self(
        "--level", value: "daily|samples",
        help: "With --fhir or --ieee1752: one value per day and metric from the rollups, or every sample (streamed).",
        default: "daily")
}
