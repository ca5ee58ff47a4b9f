import Foundation
import HTMLReport
import HealthModel

extension CommandDescription {
    static let reportCommand = CommandDescription(
        name: "report",
        abstract:
            "Write one self-contained HTML page of charts from a database (no script, nothing fetched, owner-only).",
        usage: [
            "report --db <path> --out <file.html> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>] [--days <n>] "
                + "[--sections <list>] [--timezone <zone>] [--quiet]"
        ],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to draw.", valueIsFile: true),
            Option(
                "--out", value: "<file.html>", help: "The page to write (replaced when complete).", valueIsFile: true),
            Option("--from", value: "<YYYY-MM-DD>", help: "The first day to show (inclusive)."),
            Option("--to", value: "<YYYY-MM-DD>", help: "The day to stop before (exclusive)."),
            Option("--days", value: "<n>", help: "Only the last n days that have data."),
            Option(
                "--sections", value: "<list>",
                help:
                    "Which sections, comma-separated: activity, sleep, heart, body, workouts, changes (default: all with data)."
            ),
            Option(
                "--timezone", value: "<zone>",
                help: "Only checks that the database's days are in this zone (healthetl set-timezone changes them)."),
            Option("--quiet", help: "Print nothing on success."),
        ],
        examples: [
            "healthetl report --db health.sqlite --out report.html",
            "healthetl report --db health.sqlite --out last-year.html --days 365 --sections activity,sleep",
        ])
}

/// `healthetl report --db health.sqlite --out report.html`: the library's `HealthReport`, with its options
/// from flags.
extension Tool {
    func runReport(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        var options = ReportOptions()
        do throws(UsageError) {
            arguments = try Arguments(rawArguments, for: .reportCommand)
            guard arguments.positionals.isEmpty else {
                throw UsageError(message: "Unexpected argument '\(arguments.positionals[0])'")
            }
            options.from = arguments.values["--from"]
            options.to = arguments.values["--to"]
            if let days = arguments.values["--days"] {
                guard let number = Int(days), number >= 1 else {
                    throw UsageError(
                        message: "The value '\(days)' is invalid for '--days <n>' (a whole number of days, at least 1)")
                }
                options.lastDays = number
            }
            options.timeZone = try arguments.values["--timezone"].map(Self.timeZone)
            do throws(OptionValueError) {
                if let sections = arguments.values["--sections"] {
                    options.sections = try ReportOptions.sections(sections)
                }
                try options.validate()
            } catch {
                throw UsageError(error)
            }
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
