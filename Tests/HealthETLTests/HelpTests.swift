import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL

/// Help where people look for it: `help`, `help <command>`, `<command> --help`, usage errors, the man page and
/// the bash completion.
struct HelpTests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let output = ToolTests.Output()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(arguments)
        return (code, output.out, output.err)
    }

    static let commandNames = [
        "import", "export", "run", "status", "set-timezone", "report", "schema", "datasette", "mcp", "deidentify",
        "help",
    ]

    @Test func toolHelpListsEveryCommand() {
        for arguments in [["help"], ["--help"], ["-h"]] {
            let help = run(arguments)
            #expect(help.code == 0 && help.err.isEmpty)
            #expect(help.out.hasPrefix("OVERVIEW: "))
            let listed = help.out.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
            // A name starts in column 3; wrapped abstracts continue further right.
            let names = listed.split(separator: "\n").filter { !$0.hasPrefix("   ") }.map {
                $0.split(separator: " ")[0]
            }
            #expect(names == Self.commandNames.map { Substring($0) })
            #expect(help.out.contains("See 'healthetl help <command>' for detailed help."))
        }
    }

    @Test func commandHelpIsTheSameWhereverItIsAskedFor() {
        let help = run(["help", "import"])
        #expect(help.code == 0 && help.err.isEmpty)
        #expect(run(["import", "--help"]).out == help.out)
        #expect(run(["import", "-h"]).out == help.out)
        // --help wins over a bad option or a missing argument, as in git.
        #expect(run(["import", "x.zip", "--bogus", "--help"]).out == help.out)
        #expect(help.out.hasPrefix("OVERVIEW: Import an export"))
        #expect(help.out.contains("USAGE: healthetl import <export> --db <path>"))
        #expect(help.out.contains("  --working-copy <folder>\n"))
        #expect(help.out.contains("(default: 10)"))
    }

    @Test func commandHelpShowsOnlyThatCommandsOptions() {
        let importHelp = run(["import", "--help"]).out
        let exportHelp = run(["export", "--help"]).out
        #expect(importHelp.contains("--state-of-mind <file>") && !importHelp.contains("--no-daily"))
        #expect(exportHelp.contains("--no-daily") && !exportHelp.contains("--state-of-mind"))
        #expect(!importHelp.contains("USAGE: healthetl export"))
    }

    /// The help and the parser come from one declaration: an option the help leaves out is refused.
    @Test func theParserAcceptsWhatTheHelpShowsAndNothingElse() {
        let statusHelp = run(["help", "status"]).out
        #expect(statusHelp.contains("--json") && !statusHelp.contains("--wait"))
        #expect(
            run(["status", "--db", "/nonexistent.sqlite", "--wait", "3"]).err.hasPrefix(
                "Error: Unknown option '--wait'."))
        // --json is parsed: the run gets as far as looking for the database.
        #expect(
            run(["status", "--db", "/nonexistent.sqlite", "--json"]).err.hasPrefix(
                "healthetl: /nonexistent.sqlite: error: no database here"))
    }

    @Test func helpLinesFitEightyColumns() {
        for arguments in [["help"]] + Self.commandNames.map({ ["help", $0] }) {
            let long = run(arguments).out.split(separator: "\n").filter {
                $0.count > 80 && !$0.hasPrefix("USAGE:") && !$0.hasPrefix("       healthetl")
                    && !$0.hasPrefix("  healthetl")
            }
            #expect(long.isEmpty, "\(arguments): \(long)")
        }
    }

    @Test func aUsageErrorShowsThatCommandsUsageAndWhereItsHelpIs() {
        let result = run(["status", "--db"])
        #expect(result.code == 64)
        #expect(result.out.isEmpty)
        #expect(
            result.err == """
                Error: Missing value for '--db <value>'
                Usage: healthetl status --db <path> [--json]
                       healthetl status --person <id> [--postgres <url>] [--json]
                  See 'healthetl help status' for more information.

                """)
        let schema = run(["schema", "extra"])
        #expect(
            schema.err
                == "Error: Unexpected argument 'extra'\nUsage: healthetl schema [--postgres]\n  See 'healthetl help schema' for more information.\n"
        )
    }

    @Test func anUnknownCommandSuggestsTheNearest() {
        let typo = run(["improt", "x.zip"])
        #expect(typo.code == 64)
        #expect(
            typo.err.hasPrefix(
                "Error: Unknown command 'improt'. Did you mean 'import'?\nUsage: healthetl <command> [<options>]\n"))
        #expect(typo.err.hasSuffix("See 'healthetl help' for more information.\n"))
        #expect(
            run(["set-timezon"]).err.hasPrefix("Error: Unknown command 'set-timezon'. Did you mean 'set-timezone'?"))
        #expect(run(["frobnicate"]).err.hasPrefix("Error: Unknown command 'frobnicate'.\n"))
        let help = run(["help", "stauts"])
        #expect(help.code == 64)
        #expect(
            help.err.hasPrefix(
                "Error: Unknown command 'stauts'. Did you mean 'status'?\nUsage: healthetl help [<command>]\n"))
    }

    /// Rendered by groff as man(1) would: no warnings, and the options read as typed (`\-` escapes are right).
    @Test(.enabled(if: Condition.groff, "groff is not installed (Debian: groff-base)"))
    func theManPageRendersWithoutWarnings() throws {
        let groff = try #require(Fixtures.executable("groff"))
        let roff = run(["help", "--man"])
        #expect(roff.code == 0)
        #expect(roff.out.hasPrefix(".TH HEALTHETL 1 "))
        let lint = try ProcessRunner.run(groff, ["-man", "-ww", "-z"], input: roff.out)
        #expect(lint.status == 0)
        #expect(lint.error.isEmpty, "\(lint.error)")
        let page = try ProcessRunner.run(groff, ["-man", "-Tutf8", "-P-cbou", "-rLL=200n"], input: roff.out)
        let text = page.output.replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(
            of: "\u{2212}", with: "-")
        for command in Self.commandNames where command != "help" {
            #expect(text.contains("healthetl \(command)"), "\(command)")
        }
        #expect(text.contains("healthetl import <export> --person <id> [--postgres <url>] [--working-copy <folder>]"))
        #expect(text.contains("--working-copy <folder>"))
        #expect(text.contains("EXIT STATUS"))
        #expect(text.contains("75"))
    }

    /// The completion script, loaded into bash and asked what a user at a prompt would ask.
    @Test(.enabled(if: Condition.bash, "bash is not installed"))
    func bashCompletesCommandsOptionsAndFiles() throws {
        let bash = try #require(Fixtures.executable("bash"))
        let folder = TemporaryDirectory("completion")
        defer { folder.remove() }
        _ = folder.write("export.zip", "")
        let script = run(["help", "--bash-completion"]).out
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let probe =
                script + """
                    cd '\(folder.path)'
                    COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                    _healthetl
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """
            let result = try ProcessRunner.run(bash, ["--norc", "--noprofile"], input: probe)
            #expect(result.status == 0, "\(result.error)")
            return result.output.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete(["healthetl", "s"]) == ["schema", "set-timezone", "status"])
        #expect(try complete(["healthetl", "import", "--wo"]) == ["--working-copy"])
        #expect(
            try complete(["healthetl", "export", "--no-"]) == [
                "--no-daily", "--no-patient", "--no-position", "--no-tables",
            ])
        #expect(try complete(["healthetl", "import", "exp"]) == ["export.zip"])
        #expect(try complete(["healthetl", "import", "x", "--db", "ex"]) == ["export.zip"])
        #expect(try complete(["healthetl", "import", "x", "--timezone", "ex"]) == [])
        #expect(try complete(["healthetl", "help", "se"]) == ["set-timezone"])
    }

    /// `--threads <n>`: documented in the help, the man page and the completion; 1 to 64, anything else a usage
    /// error (exit 64) naming the value, before anything is read.
    @Test func threadsIsDocumentedAndValidated() {
        #expect(run(["import", "--help"]).out.contains("--threads <n>"))
        #expect(run(["help", "--man"]).out.contains("threads"))
        #expect(run(["help", "--bash-completion"]).out.contains("--threads"))
        for bad in ["0", "65", "-1", "two", "1.5", ""] {
            let result = run(["import", "/nonexistent.zip", "--db", "/nonexistent/x.sqlite", "--threads", bad])
            #expect(result.code == 64, "\(bad)")
            #expect(result.err.hasPrefix("Error: The value '\(bad)' is invalid for '--threads <n>'\n"), "\(result.err)")
        }
        // A valid count gets as far as the input.
        let valid = run(["import", "/nonexistent.zip", "--db", "/nonexistent/x.sqlite", "--threads", "64"])
        #expect(valid.code != 64 && !valid.err.contains("--threads"), "\(valid.err)")
    }
}
