import HealthModel

/// A usage error, worded like swift-argument-parser's, printed with the usage line and exit code 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension UsageError {
    /// A value the library refused (`ReportOptions.validate`, a person id), shown as any usage error.
    init(_ refused: OptionValueError) { self.init(message: refused.message) }
}

/// Parsed command-line options: `--name value`, `--name=value`, flags, positionals, `--` to end options.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// `valueOptions` take a value; `flagOptions` do not. Anything else is an error with a suggestion.
    init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if valueOptions.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(message: "Missing value for '\(name) <value>'")
                }
            } else if flagOptions.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError(
                        message:
                            "The option '\(name)' does not take any value, but '\(inlineValue ?? "")' was specified.")
                }
                flags.insert(name)
            } else {
                let known = valueOptions.union(flagOptions)
                var message = "Unknown option '\(name)'."
                if let suggestion = known.min(by: { editDistance($0, name) < editDistance($1, name) }),
                    editDistance(suggestion, name) < 4
                {
                    message += " Did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message)
            }
        }
    }
}
