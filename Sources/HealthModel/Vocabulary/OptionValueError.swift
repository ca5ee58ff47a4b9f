/// A value given for an option (on the command line or in a pipeline file) that the library refuses, with a
/// message naming the option. The CLI shows it as a usage error; a pipeline file reports it at its JSON path.
public struct OptionValueError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}
