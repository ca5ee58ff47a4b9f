import Foundation
import HTMLReport
import HealthCSV
import HealthModel
import HealthPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `sinks` list: at least one, each `{"sqlite": …}`, `{"postgres": …}`, `{"csv": …}` or `{"report": …}`, at
/// most one of each kind and not both databases, and an output folder that can be written now rather than after
/// an hour of importing. A report is drawn from the SQLite sink's database, so it needs one.
extension PipelineParser {
    static let sqliteFields = ["sqlite", "wait", "force"]
    static let csvFields = ["csv", "excel", "tables", "daily"]
    static let postgresFields = ["postgres", "person", "wait", "force", "workingCopy"]
    static let reportFields = ["report", "from", "to", "days", "sections"]
    static let sinkKinds = ["sqlite", "postgres", "csv", "report"]
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
            let database = ["sqlite", "postgres"]
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
            case "report": definition.report = parseReport(object, at: path)
            default: definition.csv = parseCSV(object, at: path)
            }
        }
        if let path = seen["report"], seen["sqlite"] == nil {
            reader.report(path, "a report is drawn from the database of a sqlite sink: add {\"sqlite\": \"<file>\"}")
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
        if let wait = value["wait"], let seconds = reader.number(wait, at: PipelineJSONReader.path(path, "wait")) {
            if (0...Self.maximumWait).contains(seconds) {
                output.wait = seconds
            } else {
                reader.report(
                    PipelineJSONReader.path(path, "wait"),
                    "\(PipelineNumber.text(seconds)) is out of range: seconds from 0 to \(Int(Self.maximumWait))")
            }
        }
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
        if let wait = value["wait"], let seconds = reader.number(wait, at: PipelineJSONReader.path(path, "wait")) {
            if (0...Self.maximumWait).contains(seconds) {
                output.wait = seconds
            } else {
                reader.report(
                    PipelineJSONReader.path(path, "wait"),
                    "\(PipelineNumber.text(seconds)) is out of range: seconds from 0 to \(Int(Self.maximumWait))")
            }
        }
        if let force = optionalBool(value, "force", in: path) { output.force = force }
        return output
    }

    private mutating func parseCSV(_ value: [String: Any], at path: String) -> PipelineDefinition.CSVOutput? {
        _ = reader.object(value, at: path, allowed: Self.csvFields, owner: "a csv sink")
        let folderPath = PipelineJSONReader.path(path, "csv")
        guard let folder = reader.nonEmptyString(value["csv"]!, at: folderPath) else { return nil }
        var output = PipelineDefinition.CSVOutput(path: PipelinePaths.absolute(folder, relativeTo: baseDirectory))
        checkCSVLocation(output.path, at: folderPath)
        if let flag = optionalBool(value, "excel", in: path) { output.excel = flag }
        if let flag = optionalBool(value, "tables", in: path) { output.tables = flag }
        if let flag = optionalBool(value, "daily", in: path) { output.daily = flag }
        if !output.tables && !output.daily {
            reader.report(path, "writes nothing: set \"tables\" or \"daily\" to true")
        }
        return output
    }

    /// `{"report": "<file.html>", "from": "YYYY-MM-DD", "to": "YYYY-MM-DD", "days": n, "sections": [...]}`
    private mutating func parseReport(_ value: [String: Any], at path: String) -> PipelineDefinition.ReportOutput? {
        _ = reader.object(value, at: path, allowed: Self.reportFields, owner: "a report sink")
        let filePath = PipelineJSONReader.path(path, "report")
        guard let file = reader.nonEmptyString(value["report"]!, at: filePath) else { return nil }
        var output = PipelineDefinition.ReportOutput(path: PipelinePaths.absolute(file, relativeTo: baseDirectory))
        checkDatabaseLocation(output.path, at: filePath)
        for key in ["from", "to"] {
            let keyPath = PipelineJSONReader.path(path, key)
            guard let field = value[key], let text = reader.string(field, at: keyPath) else { continue }
            if Timestamp.dayNumber(ofDate: text) == nil {
                reader.report(keyPath, "'\(text)' is not a date of the form YYYY-MM-DD")
            } else if key == "from" {
                output.options.from = text
            } else {
                output.options.to = text
            }
        }
        if let from = output.options.from, let to = output.options.to, from >= to {
            reader.report(
                PipelineJSONReader.path(path, "to"), "\(to) must be after 'from' (\(from)): 'to' is exclusive")
        }
        if let days = value["days"], let number = reader.number(days, at: PipelineJSONReader.path(path, "days")) {
            if number >= 1, number <= 36_600, number == number.rounded() {
                output.options.lastDays = Int(number)
            } else {
                reader.report(
                    PipelineJSONReader.path(path, "days"),
                    "\(PipelineNumber.text(number)) is not a whole number of days from 1 to 36600")
            }
        }
        let sectionsPath = PipelineJSONReader.path(path, "sections")
        if let sections = value["sections"], let list = reader.strings(sections, at: sectionsPath, what: "section") {
            output.options.sections = []
            for (index, word) in list {
                if let section = ReportSection(rawValue: word) {
                    if !output.options.sections.contains(section) { output.options.sections.append(section) }
                } else {
                    let known = ReportSection.allCases.map(\.rawValue).joined(separator: ", ")
                    reader.report(
                        PipelineJSONReader.path(sectionsPath, index), "unknown section '\(word)' (known: \(known))")
                }
            }
        }
        return output
    }

    /// The database's folder must exist and be writable: SQLite writes a temporary file and a journal beside it.
    private mutating func checkDatabaseLocation(_ file: String, at path: String) {
        if PipelineFiles.isDirectory(file) {
            reader.report(path, "'\(file)' is a folder; give the database's file name")
            return
        }
        if let problem = PipelineFiles.writableFolderProblem((file as NSString).deletingLastPathComponent) {
            reader.report(path, problem)
        }
    }

    /// The CSV folder is written if it exists, else created, so then its parent must be writable.
    private mutating func checkCSVLocation(_ folder: String, at path: String) {
        if FileManager.default.fileExists(atPath: folder) {
            if !PipelineFiles.isDirectory(folder) {
                reader.report(path, "'\(folder)' is a file, not a folder")
            } else if let problem = PipelineFiles.writableFolderProblem(folder) {
                reader.report(path, problem)
            }
        } else if let problem = PipelineFiles.writableFolderProblem((folder as NSString).deletingLastPathComponent) {
            reader.report(path, "cannot create '\(folder)': \(problem)")
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
