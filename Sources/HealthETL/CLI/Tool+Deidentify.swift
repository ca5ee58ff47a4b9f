import HealthDeidentify
import HealthModel

extension CommandDescription {
    static let deidentifyCommand = CommandDescription(
        name: "deidentify",
        abstract:
            "Write a copy of a database without names, identifiers, places or clinical documents, to share "
            + "(docs/privacy.md).",
        usage: [
            "deidentify --db <path> --out <path> --key-file <path> [--routes drop|relative] [--shift-dates] "
                + "[--person <id>] [--keep-unknown-apps] [--replace] [--quiet]"
        ],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to copy (never changed).", valueIsFile: true),
            Option(
                "--out", value: "<path>", help: "The new database (owner-only; refused when it exists).",
                valueIsFile: true),
            Option(
                "--key-file", value: "<path>",
                help: "The secret behind every pseudonym: at least 32 bytes, readable by its owner only.",
                valueIsFile: true),
            Option(
                "--routes", value: "drop|relative",
                help: "drop: no coordinates; relative: shapes moved to 0,0 and turned by a keyed angle (weaker).",
                default: "drop"),
            Option(
                "--shift-dates",
                help: "Move every date by the key's whole number of weeks (weekday and time of day kept)."),
            Option(
                "--person", value: "<id>",
                help: "The person of a cohort: their own date shift, and their pseudonym recorded in the copy."),
            Option(
                "--keep-unknown-apps",
                help: "Keep app names that are not on the list of known HealthKit apps (they are pseudonymised "
                    + "by default: an app can be named after its owner). Check the names first."),
            Option("--replace", help: "Replace an existing output (a nightly run)."),
            Option("--quiet", help: "Print nothing on success."),
        ],
        examples: [
            "head -c 32 /dev/urandom > secret.key && chmod 600 secret.key",
            "healthetl deidentify --db health.sqlite --out shared.sqlite --key-file secret.key",
            "healthetl deidentify --db health.sqlite --out study.sqlite --key-file secret.key --shift-dates",
        ])
}

/// `healthetl deidentify --db health.sqlite --out shared.sqlite --key-file secret.key`: the library's
/// `Deidentifier`, with its options from flags.
extension Tool {
    func runDeidentify(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        var options = Deidentifier.Options()
        do throws(UsageError) {
            arguments = try Arguments(rawArguments, for: .deidentifyCommand)
            guard arguments.positionals.isEmpty else {
                throw UsageError(message: "Unexpected argument '\(arguments.positionals[0])'")
            }
            if let routes = arguments.values["--routes"] {
                guard let mode = DeidentificationRules.Routes(rawValue: routes) else {
                    throw UsageError(message: "The value '\(routes)' is invalid for '--routes' (drop or relative)")
                }
                options.routes = mode
            }
            options.shiftDates = arguments.flags.contains("--shift-dates")
            options.replaceOutput = arguments.flags.contains("--replace")
            options.keepUnknownApps = arguments.flags.contains("--keep-unknown-apps")
            if let person = arguments.values["--person"] {
                guard !person.isEmpty else { throw UsageError(message: "The value of '--person <id>' is empty") }
                options.person = person
            }
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"], let output = arguments.values["--out"],
            let keyFile = arguments.values["--key-file"]
        else {
            return usageError(
                UsageError(message: "Missing expected options '--db <path>', '--out <path>' and '--key-file <path>'"))
        }
        return reportErrors(input: database) {
            let summary = try Deidentifier.run(
                databasePath: database, outputPath: output, keyPath: keyFile, options: options)
            guard !arguments.flags.contains("--quiet") else { return }
            let rows = summary.rows.values.reduce(0, +)
            var line =
                "\(output): \(SummaryFormatter.grouped(rows)) rows; \(summary.counts.namesStripped) names stripped, "
                + "\(summary.counts.pseudonyms) pseudonyms, \(summary.counts.metadataDropped) metadata entries and "
                + "\(summary.counts.rowsEmptied) clinical, document and route rows dropped; key \(summary.keyFingerprint)"
            if let person = summary.personPseudonym { line += "; person \(person)" }
            standardError(line + "\n")
        }
    }
}
