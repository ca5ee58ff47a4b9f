import Foundation
import HealthJSON
import HealthModel
import HealthStore

/// A pipeline file (docs/pipelines.md), parsed and validated: which export to read, which stages run with
/// which options, and where the results go. Executing it is `healthetl run`'s job; this is only the value.
///
/// Paths are already resolved: `~` expanded, relative paths taken from the pipeline file's folder, so a
/// crontab line works from any working directory.
public struct PipelineDefinition: Sendable, Equatable {
    /// The pipeline file as the user named it, to start error lines with.
    public var fileName = "pipeline"
    public var description: String?
    /// An absolute path to export.zip, an export folder or export.xml, or a glob (`resolveInput()`).
    public var inputExport: String
    public var stateOfMind: String?
    /// nil: the database's zone, else this machine's (as `import --timezone` left out).
    public var timeZone: TimeZone?
    public var filters = Filters()

    public var unitsEnabled = true
    public var valenceEnabled = true
    public var dedupEnabled = true
    /// Meaningful only while `dedupEnabled`.
    public var dedupExactDuplicates = true
    public var dedupSyncVersions = true
    public var rollupsEnabled = true
    public var rollups = RollupOptions()

    public var sqlite: SQLiteOutput?
    public var postgres: PostgresOutput?
    /// What the run writes from its database, in the order of the sinks (`PipelineOutputKind.registered`);
    /// one kind's settings are `outputs.first(CSVOutput.self)`, never an accessor per kind.
    public var outputs = RunOutputs()

    public struct Filters: Sendable, Equatable {
        /// nil: every type. Known type identifiers only.
        public var types: Set<String>?
        /// nil: every source. Exact `sourceName`s.
        public var sources: Set<String>?
        /// First local date kept, `YYYY-MM-DD` (inclusive).
        public var from: String?
        /// First local date no longer kept, `YYYY-MM-DD` (exclusive).
        public var to: String?

        public init() {}

        /// `from` as days since 1970-01-01, the day numbers `Timestamp` uses.
        public var fromDay: Int? { from.flatMap(Timestamp.dayNumber(ofDate:)) }
        public var toDay: Int? { to.flatMap(Timestamp.dayNumber(ofDate:)) }

        public var isEmpty: Bool { types == nil && sources == nil && from == nil && to == nil }
    }

    public struct SQLiteOutput: Sendable, Equatable {
        public var path: String
        /// Seconds to wait for another run holding the database (`import --wait`).
        public var wait: Double = 10
        /// Import an export older than the one the database was last updated from (`import --force`).
        public var force = false
    }

    public struct PostgresOutput: Sendable, Equatable {
        /// A `postgresql://` URL or `key=value` string; empty for libpq's `PG*` environment variables.
        public var connection: String
        public var person: String
        public var wait: Double = 10
        public var force = false
        /// Where to keep the person's working copy between runs (`--working-copy`).
        public var workingCopies: String?
    }

    public init(inputExport: String) { self.inputExport = inputExport }

    /// Reads and validates the pipeline file at `path` (not its input: see `resolveInput()`).
    /// - Throws: `PipelineError` listing every problem.
    public static func load(path: String) throws -> PipelineDefinition {
        let absolute = PipelinePaths.absolute(path, relativeTo: FileManager.default.currentDirectoryPath)
        guard let data = FileManager.default.contents(atPath: absolute) else {
            throw PipelineError(fileName: path, problems: [.init(path: "", message: "cannot read the file")])
        }
        return try parse(
            data: data, baseDirectory: (absolute as NSString).deletingLastPathComponent, fileName: path)
    }

    /// Parses and validates a pipeline document; relative paths in it are resolved against `baseDirectory`,
    /// and `fileName` starts each line of the error. The JSON is read by HealthJSON's parser, strictly: an
    /// error names its line and column, a key given twice in one object is refused (which did the user mean?),
    /// and a byte-order mark that an editor wrote is passed over.
    public static func parse(data: Data, baseDirectory: String, fileName: String) throws -> PipelineDefinition {
        var options = JSONParser.Options()
        options.refusesDuplicateKeys = true
        options.skipsByteOrderMark = true
        let root: JSON
        do {
            root = try JSONParser.parse(data, options: options)
        } catch {
            let problem = PipelineError.Problem(
                path: "", message: error.summary, line: error.line, column: error.column)
            throw PipelineError(fileName: fileName, problems: [problem])
        }
        var parser = PipelineParser(baseDirectory: baseDirectory)
        guard var definition = parser.parseDocument(PipelineJSONReader.untypedTree(root)),
            parser.reader.problems.isEmpty
        else {
            throw PipelineError(fileName: fileName, problems: parser.reader.problems)
        }
        definition.fileName = fileName
        return definition
    }
}
