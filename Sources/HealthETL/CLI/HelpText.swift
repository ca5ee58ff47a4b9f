/// The help screens, in swift-argument-parser's layout (OVERVIEW, USAGE, ARGUMENTS, OPTIONS), wrapped to 80
/// columns so they read in any terminal.
enum HelpText {
    static let overview = "Turn the Health app's export.zip into a SQLite database, and keep it up to date."
    private static let width = 80
    /// Help texts start in this column; a longer name puts its text on the next line.
    private static let helpColumn = 26

    /// `healthetl help`, `healthetl --help`.
    static func tool(_ commands: [CommandDescription]) -> String {
        var text = labeled("OVERVIEW: ", overview) + "\nUSAGE: healthetl <command> [<options>]\n\nCOMMANDS:\n"
        for command in commands { text += entry(command.name, command.abstract) }
        text += "\nOPTIONS:\n"
        text += entry("--version", "Show the version.")
        text += entry("-h, --help", CommandDescription.help.help)
        text += "\n  See 'healthetl help <command>' for detailed help.\n"
        return text
    }

    /// `healthetl help <command>`, `healthetl <command> --help`.
    static func command(_ command: CommandDescription) -> String {
        var text = labeled("OVERVIEW: ", command.abstract) + "\n" + usage(command, label: "USAGE: ") + "\n"
        if !command.arguments.isEmpty {
            text += "ARGUMENTS:\n" + command.arguments.map { entry($0.name, $0.help) }.joined() + "\n"
        }
        text += "OPTIONS:\n"
        for option in command.options {
            text += entry(option.synopsis, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
        }
        text += entry("-h, --help", CommandDescription.help.help)
        if !command.examples.isEmpty {
            text += "\nEXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    /// A usage error: the message, the command's usage lines, and where to read more.
    static func usageError(_ message: String, command: CommandDescription?) -> String {
        guard let command else {
            return
                "Error: \(message)\nUsage: healthetl <command> [<options>]\n  See 'healthetl help' for more information.\n"
        }
        return "Error: \(message)\n" + usage(command, label: "Usage: ")
            + "  See 'healthetl help \(command.name)' for more information.\n"
    }

    /// The usage lines, the later ones aligned under the first.
    static func usage(_ command: CommandDescription, label: String) -> String {
        let indent = String(repeating: " ", count: label.count)
        return command.usage.enumerated().map { index, line in (index == 0 ? label : indent) + "healthetl \(line)\n" }
            .joined()
    }

    /// `OVERVIEW: text`, wrapped with the later lines under the first.
    private static func labeled(_ label: String, _ text: String) -> String {
        let indent = String(repeating: " ", count: label.count)
        return wrap(text, width: width - label.count).enumerated().map { ($0 == 0 ? label : indent) + $1 + "\n" }
            .joined()
    }

    /// `  name      help`, the help wrapped and indented to its column.
    private static func entry(_ name: String, _ help: String) -> String {
        let lines = wrap(help, width: width - helpColumn)
        let indent = String(repeating: " ", count: helpColumn)
        let label = "  " + name
        var text: String
        if label.count < helpColumn - 1 {
            text = label + String(repeating: " ", count: helpColumn - label.count) + (lines.first ?? "") + "\n"
            text += lines.dropFirst().map { indent + $0 + "\n" }.joined()
        } else {
            text = label + "\n" + lines.map { indent + $0 + "\n" }.joined()
        }
        return text
    }

    /// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
