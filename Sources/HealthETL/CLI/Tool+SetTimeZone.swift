import Foundation
import HealthStore

extension CommandDescription {
    static let setTimeZoneCommand = CommandDescription(
        name: "set-timezone",
        abstract: "Recompute every local_date and the rollups in another time zone, without re-importing.",
        usage: ["set-timezone <zone> --db <path> [--wait <seconds>] [--quiet]"],
        arguments: [Argument("<zone>", isFile: false, help: "An IANA time zone name, such as Europe/Berlin.")],
        options: [
            Option("--db", value: "<path>", help: "The healthetl database to change.", valueIsFile: true),
            .wait,
            Option("--quiet", help: "Print nothing on success."),
        ],
        examples: ["healthetl set-timezone Europe/Berlin --db health.sqlite"])
}

/// `healthetl set-timezone <zone>`: every local_date and the rollups recomputed in place.
extension Tool {
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
}
