import Foundation
import HealthFHIR
import HealthModel

/// FHIR R4 Bulk Data NDJSON (HealthFHIR) as a run's output: `{"fhir": "<folder>", "level": "daily"|"samples",
/// "patient": b, "bundle": b}` in a pipeline, `--fhir <folder>` on `export`; written from the run's database at
/// its end, unchanged files left as they were (docs/fhir.md).
public struct FHIROutput: RunOutput, Equatable {
    public var folder: String
    public var options = FHIRExport.Options()

    public init(folder: String) { self.folder = folder }

    public var key: String { "fhir" }
    public var destination: String { folder }

    public var plannedDescription: String {
        "\(folder)/ (FHIR R4, level \(options.level.rawValue)"
            + (options.bundle ? ", one transaction Bundle" : ", NDJSON") + (options.patient ? ")" : ", no Patient)")
    }

    public func produce(from databasePath: String) throws -> RunOutputResult {
        let report = try FHIRExport.write(databasePath: databasePath, to: folder, options: options)
        return RunOutputResult(key: key, text: Self.summaryText(report), json: report, detail: report)
    }

    /// `out: 1,234 resources (Observation 1,200, Device 33, Patient 1); 2 files written, 1 unchanged`.
    public static func summaryText(_ report: InterchangeReport) -> String {
        let total = report.counts.values.reduce(0, +)
        let kinds = report.counts.sorted { $0.key < $1.key }.map { "\($0.key) \(DigitGrouping.grouped($0.value))" }
        var line =
            "\(report.folder): \(DigitGrouping.grouped(total)) \(report.format == "fhir" ? "resources" : "data points") "
            + "(\(kinds.joined(separator: ", "))); \(report.written.count) files written, "
            + "\(report.unchanged.count) unchanged"
        let leftOut = report.typesLeftOut.values.reduce(0, +)
        if leftOut > 0 {
            line +=
                "; \(report.typesLeftOut.count) types without a mapping left out "
                + "(\(DigitGrouping.grouped(leftOut)) rows)"
        }
        return line + "\n"
    }
}

extension PipelineOutputKind {
    static let fhir = PipelineOutputKind(
        key: "fhir", fields: ["fhir", "level", "patient", "bundle"], keptDatabaseProblem: nil,
        parse: { parser, object, path in parser.parseFHIR(object, at: path) })
}

extension PipelineParser {
    /// `{"fhir": "<folder>", "level": "daily"|"samples", "patient": b, "bundle": b}`.
    mutating func parseFHIR(_ value: [String: Any], at path: String) -> FHIROutput? {
        _ = reader.object(value, at: path, allowed: PipelineOutputKind.fhir.fields, owner: "a fhir sink")
        let folderPath = PipelineJSONReader.path(path, "fhir")
        guard let folder = reader.nonEmptyString(value["fhir"]!, at: folderPath) else { return nil }
        var output = FHIROutput(folder: PipelinePaths.absolute(folder, relativeTo: baseDirectory))
        checkOutputFolder(output.folder, at: folderPath)
        if let field = value["level"], let text = reader.string(field, at: PipelineJSONReader.path(path, "level")) {
            if let level = ExportLevel(rawValue: text) {
                output.options.level = level
            } else {
                reader.report(PipelineJSONReader.path(path, "level"), "'\(text)' is not daily or samples")
            }
        }
        if let flag = optionalBool(value, "patient", in: path) { output.options.patient = flag }
        if let flag = optionalBool(value, "bundle", in: path) { output.options.bundle = flag }
        return output
    }
}
