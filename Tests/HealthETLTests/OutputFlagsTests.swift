import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL

/// `import` and `export` take their output flags from `CommandLineOutput.registered`: the usage lines, the
/// missing-option message and the refusal of an adjusting option without its output follow the registry.
struct OutputFlagsTests {
    let help = HelpTests()

    @Test func exportHasOneUsageLinePerRegisteredOutput() {
        let exported = CommandLineOutput.registered.compactMap(\.onExport)
        #expect(CommandDescription.exportCommand.usage == exported.map { "export --db <path> \($0.usage)" })
        let text = help.run(["help", "export"]).out
        for flags in exported {
            #expect(text.contains("healthetl export --db <path> \(flags.main.synopsis)"), "\(flags.main.name)")
        }
        // A shared adjusting option is shown with each output that reads it, and declared once.
        #expect(text.contains("healthetl export --db <path> --ieee1752 <folder> [--level daily|samples]\n"))
        #expect(text.contains("healthetl export --db <path> --fhir <folder> [--level daily|samples] [--no-patient]"))
        #expect(text.components(separatedBy: "\n  --level daily|samples").count == 2)
        #expect(
            text.contains(
                "healthetl export --db <path> --workouts <folder> [--format <fit|tcx|gpx>] [--start <YYYY-MM-DD>]"))
    }

    @Test func importShowsEachOutputBesideTheDatabaseAndAlone() {
        let usage = CommandDescription.importCommand.usage
        #expect(
            usage.first
                == "import <export> --db <path> [--csv <folder> [--excel]] [--parquet <lake> [--person <id>]] "
                + "[--timezone <zone>] [--quiet] [--json]")
        for flags in CommandLineOutput.registered.compactMap(\.onImport) {
            #expect(usage.contains("import <export> \(flags.usage)"), "\(flags.main.name)")
        }
        #expect(usage.contains("import <export> --csv <folder> [--excel]"))
        #expect(usage.contains("import <export> --parquet <lake> [--person <id>]"))
    }

    @Test func theMissingOptionMessagesNameEveryRegisteredMainOption() {
        let export = help.run(["export", "--db", "/nonexistent.sqlite"])
        #expect(export.code == 64)
        #expect(
            export.err.hasPrefix(
                "Error: Missing expected options '--db <path>' and '--csv <folder>', '--parquet <lake>', "
                    + "'--workouts <folder>', '--fhir <folder>' or '--ieee1752 <folder>'\nUsage: healthetl export"))
        let imported = help.run(["import", "/nonexistent.zip"])
        #expect(imported.code == 64)
        #expect(
            imported.err.hasPrefix(
                "Error: Missing expected option '--db <path>', '--person <id>', '--csv <folder>' or "
                    + "'--parquet <lake>'\nUsage: healthetl import"))
    }

    @Test func anAdjustingOptionAloneIsOneUsageErrorNamingItsOutput() {
        let cases: [([String], String)] = [
            (
                ["export", "--db", "/nonexistent/d.sqlite", "--csv", "/nonexistent/out", "--bundle"],
                "'--bundle' on export goes with '--fhir <folder>'"
            ),
            (
                ["export", "--db", "/nonexistent/d.sqlite", "--csv", "/nonexistent/out", "--level", "samples"],
                "'--level' on export goes with '--fhir <folder>' or '--ieee1752 <folder>'"
            ),
            (
                ["export", "--db", "/nonexistent/d.sqlite", "--fhir", "/nonexistent/out", "--person", "P1"],
                "'--person' on export goes with '--parquet <lake>'"
            ),
            (
                ["export", "--db", "/nonexistent/d.sqlite", "--parquet", "/nonexistent/lake", "--no-daily"],
                "'--no-daily' on export goes with '--csv <folder>'"
            ),
            (
                ["import", "/nonexistent/e.zip", "--db", "/nonexistent/d.sqlite", "--excel"],
                "'--excel' on import goes with '--csv <folder>'"
            ),
        ]
        for (arguments, message) in cases {
            let result = help.run(arguments)
            #expect(result.code == 64, "\(arguments)")
            #expect(result.out.isEmpty)
            let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first.map(String.init) == "Error: \(message)", "\(arguments)")
            #expect(lines.dropFirst().first?.hasPrefix("Usage: healthetl \(arguments[0]) ") == true)
        }
    }

    /// Every adjusting option of every registration, given with another output's main option (or only the
    /// database on `import`), is refused by name; given with its own, it passes the check.
    @Test func everyRegisteredAdjustingOptionNeedsItsMainOption() {
        for command in [CommandLineOutput.Command.import, .export] {
            let all = CommandLineOutput.registered.compactMap { $0.flags(on: command) }
            for flags in all {
                for option in flags.adjusting {
                    let words = [option.name] + (option.value == nil ? [] : [Self.validValue(option)])
                    let owners = all.filter { $0.adjusting.contains { $0.name == option.name } }
                    let start =
                        command == .import
                        ? ["import", "/nonexistent/e.zip", "--db", "/nonexistent/d.sqlite"]
                        : ["export", "--db", "/nonexistent/d.sqlite"]
                    if let other = all.first(where: { candidate in
                        !owners.contains { $0.main.name == candidate.main.name }
                    }) {
                        let refused = help.run(start + [other.main.name, "/nonexistent/out"] + words)
                        #expect(refused.code == 64, "\(command) \(option.name)")
                        #expect(
                            refused.err.hasPrefix("Error: '\(option.name)' on \(command.rawValue) goes with "),
                            "\(refused.err)")
                    }
                    let given = help.run(start + [flags.main.name, "/nonexistent/out"] + words)
                    #expect(!given.err.contains("goes with"), "\(command) \(option.name): \(given.err)")
                }
            }
        }
    }

    static func validValue(_ option: CommandDescription.Option) -> String {
        switch option.name {
        case "--format": "gpx"
        case "--start", "--end": "2024-01-01"
        case "--level": "daily"
        default: "x"
        }
    }
}
