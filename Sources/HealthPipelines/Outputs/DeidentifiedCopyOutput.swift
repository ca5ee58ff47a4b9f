import Foundation
import HealthDeidentify
import HealthModel

/// The de-identified copy (HealthDeidentify) as a run's output: `{"deidentify": "<shared.sqlite>", "keyFile":
/// "<secret.key>", "routes": "drop"|"relative", "shiftDates": b, "person": "<id>", "keepUnknownApps": b}` in a pipeline, so a nightly
/// run keeps the shared copy current. Made from the run's own SQLite database, replaced when complete.
public struct DeidentifiedCopyOutput: RunOutput, Equatable {
    /// The de-identified copy, replaced after every run (docs/privacy.md).
    public var path: String
    public var keyFile: String
    /// `drop` or `relative`.
    public var routes = "drop"
    public var shiftDates = false
    public var person: String?
    /// Keep source names on no list of known apps (pseudonymised by default).
    public var keepUnknownApps = false

    public init(path: String, keyFile: String) {
        self.path = path
        self.keyFile = keyFile
    }

    public var key: String { "deidentify" }
    public var destination: String { path }
    public var needsKeptDatabase: Bool { true }

    public var plannedDescription: String {
        "\(path) (key \(keyFile); routes \(routes); \(shiftDates ? "dates shifted" : "dates kept")"
            + (keepUnknownApps ? "; unknown app names kept)" : ")")
    }

    public func produce(from databasePath: String) throws -> RunOutputResult {
        var options = Deidentifier.Options()
        options.routes = DeidentificationRules.Routes(rawValue: routes) ?? .drop
        options.shiftDates = shiftDates
        options.person = person
        options.keepUnknownApps = keepUnknownApps
        options.replaceOutput = true
        let copy = try Deidentifier.run(
            databasePath: databasePath, outputPath: path, keyPath: keyFile, options: options)
        return RunOutputResult(
            key: key, text: "\(path): de-identified copy written (key \(copy.keyFingerprint))\n",
            json: SummaryJSON(path: path, keyFingerprint: copy.keyFingerprint, personPseudonym: copy.personPseudonym),
            detail: copy)
    }

    /// `"deidentify": {"path", "keyFingerprint", "personPseudonym"}`: never the key.
    struct SummaryJSON: Encodable, Sendable {
        var path: String
        var keyFingerprint: String
        var personPseudonym: String?
    }
}

extension PipelineOutputKind {
    static let deidentifiedCopy = PipelineOutputKind(
        key: "deidentify", fields: ["deidentify", "keyFile", "routes", "shiftDates", "person", "keepUnknownApps"],
        keptDatabaseProblem: "a de-identified copy is made from the database of a sqlite sink",
        parse: { parser, object, path in parser.parseDeidentify(object, at: path) })
}

extension PipelineParser {
    /// `{"deidentify": "<shared.sqlite>", "keyFile": "<secret.key>", …}`: the key is checked now, not after the
    /// import.
    mutating func parseDeidentify(_ value: [String: Any], at path: String) -> DeidentifiedCopyOutput? {
        let fields = PipelineOutputKind.deidentifiedCopy.fields
        _ = reader.object(value, at: path, allowed: fields, owner: "a deidentify sink")
        let filePath = PipelineJSONReader.path(path, "deidentify")
        let keyPath = PipelineJSONReader.path(path, "keyFile")
        guard let file = reader.nonEmptyString(value["deidentify"]!, at: filePath) else { return nil }
        guard let keyField = value["keyFile"] else {
            reader.report(keyPath, "missing: the key behind the pseudonyms (\"keyFile\": \"<file>\", docs/privacy.md)")
            return nil
        }
        guard let key = reader.nonEmptyString(keyField, at: keyPath) else { return nil }
        var output = DeidentifiedCopyOutput(
            path: PipelinePaths.absolute(file, relativeTo: baseDirectory),
            keyFile: PipelinePaths.absolute(key, relativeTo: baseDirectory))
        checkDatabaseLocation(output.path, at: filePath)
        do {
            _ = try DeidentificationKey.load(path: output.keyFile)
        } catch let error as ImportError {
            reader.report(keyPath, error.message + (error.hint.map { " (\($0))" } ?? ""))
        } catch {
            reader.report(keyPath, "\(error)")
        }
        if let routes = value["routes"], let text = reader.string(routes, at: PipelineJSONReader.path(path, "routes")) {
            if DeidentificationRules.Routes(rawValue: text) == nil {
                reader.report(PipelineJSONReader.path(path, "routes"), "'\(text)' is not drop or relative")
            } else {
                output.routes = text
            }
        }
        if let shift = value["shiftDates"] {
            output.shiftDates = reader.bool(shift, at: PipelineJSONReader.path(path, "shiftDates")) ?? false
        }
        if let keep = value["keepUnknownApps"] {
            output.keepUnknownApps = reader.bool(keep, at: PipelineJSONReader.path(path, "keepUnknownApps")) ?? false
        }
        if let person = value["person"] {
            output.person = reader.nonEmptyString(person, at: PipelineJSONReader.path(path, "person"))
        }
        return output
    }
}
