import Foundation
import HealthModel

/// healthetl(1), in roff (`healthetl help --man`), from the same command descriptions as the help screens:
/// `scripts/install` and `scripts/package-deb` write it with the binary they install, so they never disagree.
enum ManPage {
    /// What each exit code means (the README's table says the same).
    static var exitStatus: [(ExitCode, String)] {
        [
            (.success, "Success."),
            (.usage, "Bad arguments."),
            (
                .badInput,
                "The input is missing, not an export, truncated or malformed; or older than the database's last export (without --force)."
            ),
            (.unavailable, "The PostgreSQL server cannot be reached."),
            (.internalError, "A bug in healthetl (please report it)."),
            (.cannotWrite, "The database cannot be written."),
            (
                .locked,
                "The database (or the PostgreSQL person) is locked by another run, which the message names; try again later."
            ),
            (.badConfiguration, "A pipeline file is invalid, or its input is missing; nothing ran."),
        ]
    }

    static func roff(_ commands: [CommandDescription]) -> String {
        var lines = [
            ".TH HEALTHETL 1 \"\" \"healthetl \(HealthETLVersion.current)\" \"User Commands\"",
            ".SH NAME",
            "healthetl \\- turn the Health app's export.zip into a SQLite database, and keep it up to date",
            ".SH SYNOPSIS",
            ".nf",
        ]
        for command in commands {
            lines += command.usage.map { "\\fBhealthetl\\fR " + escape($0) }
        }
        lines += ["\\fBhealthetl\\fR \\-\\-version", ".fi", ".SH DESCRIPTION", escape(HelpText.overview)]
        lines.append(
            escape(
                "Errors are one line on stderr naming the file (and the entry inside the zip and the line:column "
                    + "where they apply), with an exit code listed under EXIT STATUS. Output files are readable by "
                    + "their owner only."))
        lines.append(".SH COMMANDS")
        for command in commands { lines += section(command) }
        lines.append(".SH EXIT STATUS")
        for (code, meaning) in exitStatus { lines += [".TP", "\(code.rawValue)", escape(meaning)] }
        lines += [".SH SEE ALSO", "\\fBsqlite3\\fR(1), \\fBcrontab\\fR(5)"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func section(_ command: CommandDescription) -> [String] {
        var lines = [".SS \(escape(command.name))", escape(command.abstract), ".PP", ".nf"]
        lines += command.usage.map { "\\fBhealthetl\\fR " + escape($0) }
        lines.append(".fi")
        for argument in command.arguments {
            lines += [".TP", "\\fI\(escape(argument.name))\\fR", escape(argument.help)]
        }
        for option in command.options {
            let value = option.value.map { " \\fI\(escape($0))\\fR" } ?? ""
            let help = option.help + (option.defaultValue.map { " (default: \($0))" } ?? "")
            lines += [".TP", "\\fB\(escape(option.name))\\fR" + value, escape(help)]
        }
        if !command.examples.isEmpty {
            lines += [".PP", "Examples:", ".PP", ".nf"]
            lines += command.examples.map { "  " + escape($0) }
            lines.append(".fi")
        }
        return lines
    }

    /// Text safe in roff: backslashes and hyphens escaped (`\-` is what man pages use for options), and no line
    /// starting with a control character.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
