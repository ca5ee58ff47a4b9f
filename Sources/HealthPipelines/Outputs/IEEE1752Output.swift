import Foundation
import HealthFHIR
import HealthModel

/// IEEE 1752.1 data points (HealthFHIR) as a run's output: `{"ieee1752": "<folder>", "level": "daily"|"samples"}`
/// in a pipeline, `--ieee1752 <folder>` on `export`: one NDJSON file per schema (docs/fhir.md, "IEEE 1752.1").
public struct IEEE1752Output: RunOutput, Equatable {
    public var folder: String
    public var level = ExportLevel.daily

    public init(folder: String) { self.folder = folder }

    public var key: String { "ieee1752" }
    public var destination: String { folder }
    public var plannedDescription: String { "\(folder)/ (IEEE 1752.1 data points, level \(level.rawValue))" }

    public func produce(from databasePath: String) throws -> RunOutputResult {
        let report = try IEEE1752Export.write(databasePath: databasePath, to: folder, level: level)
        return RunOutputResult(key: key, text: FHIROutput.summaryText(report), json: report, detail: report)
    }
}

extension PipelineOutputKind {
    static let ieee1752 = PipelineOutputKind(
        key: "ieee1752", fields: ["ieee1752", "level"], keptDatabaseProblem: nil,
        parse: { parser, object, path in parser.parseIEEE1752(object, at: path) })
}

extension PipelineParser {
    /// `{"ieee1752": "<folder>", "level": "daily"|"samples"}`.
    mutating func parseIEEE1752(_ value: [String: Any], at path: String) -> IEEE1752Output? {
        _ = reader.object(value, at: path, allowed: PipelineOutputKind.ieee1752.fields, owner: "an ieee1752 sink")
        let folderPath = PipelineJSONReader.path(path, "ieee1752")
        guard let folder = reader.nonEmptyString(value["ieee1752"]!, at: folderPath) else { return nil }
        var output = IEEE1752Output(folder: PipelinePaths.absolute(folder, relativeTo: baseDirectory))
        checkOutputFolder(output.folder, at: folderPath)
        if let field = value["level"], let text = reader.string(field, at: PipelineJSONReader.path(path, "level")) {
            if let level = ExportLevel(rawValue: text) {
                output.level = level
            } else {
                reader.report(PipelineJSONReader.path(path, "level"), "'\(text)' is not daily or samples")
            }
        }
        return output
    }
}
