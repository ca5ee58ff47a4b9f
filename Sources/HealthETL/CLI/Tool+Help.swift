extension CommandDescription {
    static let helpCommand = CommandDescription(
        name: "help", abstract: "Show the help of the tool or of one command.",
        usage: ["help [<command>]"],
        arguments: [Argument("<command>", isFile: false, help: "The command to explain.")],
        options: [
            Option("--man", help: "Print the manual page (roff) instead; scripts/install installs it."),
            Option("--bash-completion", help: "Print the bash completion script instead."),
        ],
        examples: ["healthetl help import"])
}

extension Tool {
    /// `healthetl help [<command>]`; `--man` and `--bash-completion` print what `scripts/install` installs.
    func runHelp(_ rawArguments: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(rawArguments, for: .helpCommand)
        } catch {
            return usageError(error)
        }
        let descriptions = Self.commands.map(\.description)
        if arguments.flags.contains("--man") {
            standardOutput(ManPage.roff(descriptions))
            return 0
        }
        if arguments.flags.contains("--bash-completion") {
            standardOutput(BashCompletion.script(descriptions))
            return 0
        }
        guard let name = arguments.positionals.first else {
            standardOutput(Self.usage)
            return 0
        }
        guard arguments.positionals.count == 1 else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments.positionals[1])'"))
        }
        guard let command = descriptions.first(where: { $0.name == name }) else {
            return usageError(Self.unknownCommand(name))
        }
        standardOutput(HelpText.command(command))
        return 0
    }
}
