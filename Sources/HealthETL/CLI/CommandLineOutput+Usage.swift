/// What `import` and `export` derive from the registered outputs: their options, their usage fragments, the
/// missing-option message and the refusal of an adjusting option given without its output. Nothing here names
/// an output, so a new registration changes the help, the man page, the completion and the errors together.
extension CommandLineOutput {
    /// The options the outputs declare on `command`, in the registration's order; an option two outputs share
    /// (`--level`) is declared once, where it first appears.
    static func options(on command: Command) -> [CommandDescription.Option] {
        var seen: Set<String> = []
        return registered.compactMap { $0.flags(on: command) }.flatMap(\.options).filter {
            seen.insert($0.name).inserted
        }
    }

    /// Each output's part of a usage line on `command` (`--csv <folder> [--excel]`), in the registration's order.
    static func usageFragments(on command: Command) -> [String] {
        registered.compactMap { $0.flags(on: command)?.usage }
    }

    /// The main options on `command`, quoted as messages quote them: `'--csv <folder>'`.
    static func mainOptions(on command: Command) -> [String] {
        registered.compactMap { $0.flags(on: command) }.map { "'\($0.main.synopsis)'" }
    }

    /// Whether the arguments ask for any output of `command`.
    static func asksForAny(_ arguments: Arguments, on command: Command) -> Bool {
        registered.contains { $0.flags(on: command).map { arguments.has($0.main) } ?? false }
    }

    /// The first adjusting option given without the main option of any output it adjusts, as a one-line usage
    /// error naming both (`'--format' on export goes with '--workouts <folder>'`); nil when there is none.
    static func unaccompaniedOption(_ arguments: Arguments, on command: Command) -> UsageError? {
        let flags = registered.compactMap { $0.flags(on: command) }
        for option in options(on: command) where arguments.has(option) {
            let owners = flags.filter { $0.adjusting.contains { $0.name == option.name } }
            guard !owners.isEmpty, !owners.contains(where: { arguments.has($0.main) }) else { continue }
            let mains = owners.map { "'\($0.main.synopsis)'" }
            return UsageError(message: "'\(option.name)' on \(command.rawValue) goes with \(alternatives(mains))")
        }
        return nil
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    static func alternatives(_ quoted: [String]) -> String {
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }
}

extension Arguments {
    /// Whether `option` was given (a value or a flag).
    func has(_ option: CommandDescription.Option) -> Bool {
        option.value == nil ? flags.contains(option.name) : values[option.name] != nil
    }
}
