import Foundation
import HealthModel
import HealthPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `sinks` list: at least one, each `{"sqlite": …}`, `{"postgres": …}` or an output of a registered kind
/// (`PipelineOutputKind.registered`: `{"csv": …}`, `{"report": …}`, …), at most one of each kind and not both
/// databases, and outputs that can be written now rather than after an hour of importing. An output drawn from
/// a kept database (the report) needs the SQLite sink.
extension PipelineParser {
    static let sqliteFields = ["sqlite", "wait", "force"]
    static let postgresFields = ["postgres", "person", "wait", "force", "workingCopy"]
    static let databaseKinds = ["sqlite", "postgres"]
    static var sinkKinds: [String] { databaseKinds + PipelineOutputKind.registered.map(\.key) }
    static let maximumWait: Double = 86_400

    mutating func parseSinks(_ value: Any, into definition: inout PipelineDefinition) {
        guard let sinks = reader.array(value, at: "sinks") else { return }
        guard !sinks.isEmpty else {
            reader.report(
                "sinks",
                "empty list: give at least one sink, {\"sqlite\": \"<file>\"}, {\"postgres\": \"<url>\", \"person\": \"<id>\"} or "
                    + "{\"csv\": \"<folder>\"}")
            return
        }
        var seen: [String: String] = [:]  // kind → path of its sink
        for (index, element) in sinks.enumerated() {
            let path = PipelineJSONReader.path("sinks", index)
            guard let object = element as? [String: Any] else {
                reader.report(path, PipelineJSONReader.mismatch("an object", element))
                continue
            }
            let kinds = Self.sinkKinds.filter { object[$0] != nil }
            guard kinds.count == 1, let kind = kinds.first else {
                if kinds.isEmpty {
                    reader.report(
                        path,
                        "missing the kind of sink: add \"sqlite\": \"<file>\", \"postgres\": \"<url>\" or \"csv\": \"<folder>\""
                    )
                } else {
                    reader.report(path, "has both '\(kinds[0])' and '\(kinds[1])': give each its own sink")
                }
                continue
            }
            let database = Self.databaseKinds
            if let first = seen[kind] {
                reader.report(path, "a second \(kind) sink (the first is \(first)); a pipeline writes one of each")
                continue
            }
            if database.contains(kind), let other = database.first(where: { $0 != kind && seen[$0] != nil }) {
                reader.report(
                    path, "a \(kind) sink besides the \(other) sink at \(seen[other]!): a pipeline writes one database")
                continue
            }
            seen[kind] = path
            switch kind {
            case "sqlite": definition.sqlite = parseSQLite(object, at: path)
            case "postgres": definition.postgres = parsePostgres(object, at: path)
            default:
                let output = PipelineOutputKind.registered.first { $0.key == kind }
                if let parsed = output?.parse(&self, object, path) { definition.outputs.items.append(parsed) }
            }
        }
        for kind in PipelineOutputKind.registered {
            guard let path = seen[kind.key] else { continue }
            if let problem = kind.keptDatabaseProblem, seen["sqlite"] == nil {
                reader.report(path, problem + ": add {\"sqlite\": \"<file>\"}")
            }
            let output = definition.outputs.items.first { $0.key == kind.key }
            if let output, let database = definition.sqlite, output.destination == database.path {
                reader.report(PipelineJSONReader.path(path, kind.key), "is the sqlite sink's database itself")
            }
        }
    }

    /// `{"postgres": "<url, or empty for the PG* environment variables>", "person": "<id>", "wait": s, "force": b}`
    private mutating func parsePostgres(_ value: [String: Any], at path: String) -> PipelineDefinition.PostgresOutput? {
        _ = reader.object(value, at: path, allowed: Self.postgresFields, owner: "a postgres sink")
        guard let connection = value["postgres"] as? String else {
            reader.report(
                PipelineJSONReader.path(path, "postgres"),
                PipelineJSONReader.mismatch(
                    "a string (a postgresql:// URL, or \"\" for the PG* environment variables)", value["postgres"]!))
            return nil
        }
        let personPath = PipelineJSONReader.path(path, "person")
        guard let personValue = value["person"] else {
            reader.report(personPath, "missing: whose data is it? (\"person\": \"<id>\")")
            return nil
        }
        guard let person = reader.nonEmptyString(personValue, at: personPath) else { return nil }
        do throws(OptionValueError) {
            try PostgresDestination.checkPerson(person)
        } catch {
            reader.report(personPath, "1–200 printable characters")
            return nil
        }
        var output = PipelineDefinition.PostgresOutput(connection: connection, person: person)
        if let wait = parseWait(value, in: path) { output.wait = wait }
        if let force = optionalBool(value, "force", in: path) { output.force = force }
        if let folder = value["workingCopy"],
            let text = reader.nonEmptyString(folder, at: PipelineJSONReader.path(path, "workingCopy"))
        {
            output.workingCopies = PipelinePaths.absolute(text, relativeTo: baseDirectory)
        }
        return output
    }

    private mutating func parseSQLite(_ value: [String: Any], at path: String) -> PipelineDefinition.SQLiteOutput? {
        _ = reader.object(value, at: path, allowed: Self.sqliteFields, owner: "a sqlite sink")
        let filePath = PipelineJSONReader.path(path, "sqlite")
        guard let file = reader.nonEmptyString(value["sqlite"]!, at: filePath) else { return nil }
        var output = PipelineDefinition.SQLiteOutput(path: PipelinePaths.absolute(file, relativeTo: baseDirectory))
        checkDatabaseLocation(output.path, at: filePath)
        if let wait = parseWait(value, in: path) { output.wait = wait }
        if let force = optionalBool(value, "force", in: path) { output.force = force }
        return output
    }

    /// A database sink's `"wait"`: seconds to wait for another run's lock, 0 to a day; nil when absent or wrong.
    private mutating func parseWait(_ value: [String: Any], in path: String) -> Double? {
        let waitPath = PipelineJSONReader.path(path, "wait")
        guard let wait = value["wait"], let seconds = reader.number(wait, at: waitPath) else { return nil }
        guard (0...Self.maximumWait).contains(seconds) else {
            reader.report(
                waitPath, "\(PipelineNumber.text(seconds)) is out of range: seconds from 0 to \(Int(Self.maximumWait))")
            return nil
        }
        return seconds
    }

    /// The database's folder must exist and be writable: SQLite writes a temporary file and a journal beside it.
    mutating func checkDatabaseLocation(_ file: String, at path: String) {
        if PipelineFiles.isDirectory(file) {
            reader.report(path, "'\(file)' is a folder; give the database's file name")
            return
        }
        if let problem = PipelineFiles.writableFolderProblem((file as NSString).deletingLastPathComponent) {
            reader.report(path, problem)
        }
    }
}

enum PipelineFiles {
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// nil when `folder` exists and this process may create files in it.
    static func writableFolderProblem(_ folder: String) -> String? {
        guard FileManager.default.fileExists(atPath: folder) else { return "folder '\(folder)' does not exist" }
        guard isDirectory(folder) else { return "'\(folder)' is not a folder" }
        guard access(folder, W_OK) == 0 else { return "folder '\(folder)' is not writable" }
        return nil
    }
}
