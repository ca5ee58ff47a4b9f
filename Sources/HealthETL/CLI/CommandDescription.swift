/// One command of the tool, declared once: its help text, the man page, the shell completion and the option
/// parser all read this, so what `healthetl help import` shows is what `healthetl import` accepts.
public struct CommandDescription: Sendable {
    /// A positional argument (`<export>`).
    public struct Argument: Sendable {
        public var name: String
        public var help: String
        /// Completed as a file name by the shell (`false`: a word such as a time zone).
        public var isFile: Bool

        public init(_ name: String, isFile: Bool = true, help: String) {
            self.name = name
            self.help = help
            self.isFile = isFile
        }
    }

    /// An option: a flag (`--quiet`), or one that takes a value (`--db <path>`).
    public struct Option: Sendable {
        public var name: String
        /// `<path>`, `<seconds>`…; nil for a flag.
        public var value: String?
        public var help: String
        /// Printed after the help as `(default: …)`.
        public var defaultValue: String?
        /// Whether the value is completed as a file or folder name.
        public var valueIsFile: Bool

        public init(
            _ name: String, value: String? = nil, help: String, default defaultValue: String? = nil,
            valueIsFile: Bool = false
        ) {
            self.name = name
            self.value = value
            self.help = help
            self.defaultValue = defaultValue
            self.valueIsFile = valueIsFile
        }

        /// `--db <path>`, as in usage lines.
        public var synopsis: String { value.map { "\(name) \($0)" } ?? name }
    }

    public var name: String
    /// One line: what the command does (the overview and the list of commands).
    public var abstract: String
    /// Usage lines without the leading `healthetl `; the first is the one a usage error prints.
    public var usage: [String]
    public var arguments: [Argument]
    public var options: [Option]
    /// Command lines shown under EXAMPLES.
    public var examples: [String]

    public init(
        name: String, abstract: String, usage: [String], arguments: [Argument] = [], options: [Option] = [],
        examples: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }

    /// `-h`/`--help` is every command's; the dispatcher answers it before the command runs.
    static let help = Option("--help", help: "Show help information.")
}

/// Options several commands share, worded once.
extension CommandDescription.Option {
    static let quiet = Self("--quiet", help: "Print nothing on success (for cron); errors still go to stderr.")
    static let json = Self("--json", help: "Print a machine-readable summary on stdout.")
    static let wait = Self(
        "--wait", value: "<seconds>", help: "How long to wait for another run holding the database.", default: "10")
    static let postgres = Self(
        "--postgres", value: "<url>",
        help: "The PostgreSQL server for --person (postgresql://user@host/db); without it, libpq's PG* environment "
            + "variables (PGHOST, PGDATABASE, PGUSER, PGPASSFILE).")
    static let parquet = Self(
        "--parquet", value: "<lake>",
        help: "Publish the database as Parquet: <lake>/<table>/data-<generation>.parquet per table and view, "
            + "swapped in atomically; an unchanged database rewrites nothing (docs/lake.md).",
        valueIsFile: true)
    static let excel = Self(
        "--excel",
        help: "CSV for spreadsheets: BOM, dates as 2024-03-31 08:15:00, no blobs, cells that would run as formulas "
            + "prefixed with '.")
}

extension Arguments {
    /// Parses a command's arguments with the options its description declares (and `-h`/`--help`).
    init(_ arguments: [String], for command: CommandDescription) throws(UsageError) {
        let options = command.options + [CommandDescription.help]
        try self.init(
            arguments, valueOptions: Set(options.filter { $0.value != nil }.map(\.name)),
            flagOptions: Set(options.filter { $0.value == nil }.map(\.name)))
    }
}
