import Foundation

/// `healthetl report --db health.sqlite --out report.html`: the library's `HealthReport`, with its options
/// from flags.
extension Tool {
    static let reportUsage = """
        USAGE: healthetl report --db <path> --out <file.html> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>] [--days <n>]
                                [--sections activity,sleep,heart,body,workouts] [--timezone <zone>] [--quiet]

        One self-contained HTML page (no script, nothing fetched, owner-only) with charts of the database's own
        rollups: --from is inclusive, --to exclusive, --days keeps the last n days with data; --timezone only checks that the database's days are in that
        zone (healthetl set-timezone changes them). See docs/report.md.

        """

    func runReport(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        var options = ReportOptions()
        do throws(UsageError) {
            arguments = try Arguments(
                rawArguments, valueOptions: ["--db", "--out", "--from", "--to", "--sections", "--timezone", "--days"],
                flagOptions: ["--quiet", "--help"])
            if arguments.flags.contains("--help") {
                standardOutput(Self.reportUsage)
                return 0
            }
            guard arguments.positionals.isEmpty else {
                throw UsageError(message: "Unexpected argument '\(arguments.positionals[0])'")
            }
            options.from = arguments.values["--from"]
            options.to = arguments.values["--to"]
            if let days = arguments.values["--days"] {
                guard let number = Int(days), number >= 1 else {
                    throw UsageError(message: "The value '\(days)' is invalid for '--days <n>' (a whole number of days, at least 1)")
                }
                options.lastDays = number
            }
            options.timeZone = try arguments.values["--timezone"].map(Self.timeZone)
            if let sections = arguments.values["--sections"] { options.sections = try ReportOptions.sections(sections) }
            try options.validate()
        } catch {
            return usageError(error)
        }
        guard let database = arguments.values["--db"], let output = arguments.values["--out"] else {
            return usageError(UsageError(message: "Missing expected options '--db <path>' and '--out <file.html>'"))
        }
        return reportErrors(input: database) {
            let result = try HealthReport.write(databasePath: database, to: output, options: options)
            guard !arguments.flags.contains("--quiet") else { return }
            if let first = result.firstDay, let last = result.lastDay {
                let sections = result.sections.map(\.rawValue).joined(separator: ", ")
                standardError(
                    "\(output): \(first) to \(last) \(result.resolution.perText), \(sections.isEmpty ? "no sections with data" : sections); "
                        + "\(SummaryFormatter.grouped(result.bytes)) bytes\n")
            } else {
                standardError("\(output): no data in the range: an empty report\n")
            }
        }
    }
}
