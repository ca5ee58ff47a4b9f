import Foundation
import HealthCSV
import HealthModel

/// A CSV folder (HealthCSV) as a run's output: `{"csv": "<folder>", "excel": b, "tables": b, "daily": b}` in a
/// pipeline, `--csv <folder> [--excel]` on `import`; the summary's "Wrote N CSV files" line and its JSON.
extension CSVOutput: RunOutput {
    public var key: String { "csv" }
    public var destination: String { directory }

    public var plannedDescription: String {
        var files: [String] = []
        if tables { files.append("one CSV per table") }
        if daily { files.append("daily.csv, daily_long.csv") }
        let dialectName = dialect == .excel ? "Excel" : "RFC 4180"
        return "\(directory)/ (\(files.joined(separator: "; ")); \(dialectName) dialect)"
    }

    public func produce(from databasePath: String) throws -> RunOutputResult {
        Self.result(try write(from: databasePath))
    }

    public func hostScratchDatabase<T>(_ body: (_ path: String) throws -> T) throws -> T? {
        try withScratchDatabase(body)
    }

    /// The summary of a CSV folder written (also `healthetl export`'s).
    public static func result(_ report: CSVExportReport) -> RunOutputResult {
        RunOutputResult(key: "csv", text: summaryText(report), json: SummaryJSON(report), detail: report)
    }

    static func summaryText(_ report: CSVExportReport) -> String {
        var lines = [
            String(
                format: "Wrote %d CSV files to %@: %@ rows, %.1f MB in %.1f s", report.files.count, report.directory,
                DigitGrouping.grouped(Int(report.rows)), Double(report.bytes) / 1_000_000, report.seconds)
        ]
        for note in report.notes { lines.append("  " + note) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `"csv": {"directory": …, "files": [{"file", "rows", "bytes"}], "notes": […]}`.
    struct SummaryJSON: Encodable, Sendable {
        var directory: String
        var files: [[String: String]]
        var notes: [String]

        init(_ report: CSVExportReport) {
            directory = report.directory
            files = report.files.map { ["file": $0.path, "rows": String($0.rows), "bytes": String($0.bytes)] }
            notes = report.notes
        }
    }
}

extension PipelineOutputKind {
    static let csvFolder = PipelineOutputKind(
        key: "csv", fields: ["csv", "excel", "tables", "daily"], keptDatabaseProblem: nil,
        parse: { parser, object, path in parser.parseCSV(object, at: path) })
}

extension PipelineParser {
    /// `{"csv": "<folder>", "excel": b, "tables": b, "daily": b}`: a folder that can be written now.
    mutating func parseCSV(_ value: [String: Any], at path: String) -> CSVOutput? {
        _ = reader.object(value, at: path, allowed: PipelineOutputKind.csvFolder.fields, owner: "a csv sink")
        let folderPath = PipelineJSONReader.path(path, "csv")
        guard let folder = reader.nonEmptyString(value["csv"]!, at: folderPath) else { return nil }
        var output = CSVOutput(directory: PipelinePaths.absolute(folder, relativeTo: baseDirectory))
        checkOutputFolder(output.directory, at: folderPath)
        if let flag = optionalBool(value, "excel", in: path) { output.dialect = flag ? .excel : .standard }
        if let flag = optionalBool(value, "tables", in: path) { output.tables = flag }
        if let flag = optionalBool(value, "daily", in: path) { output.daily = flag }
        if !output.tables && !output.daily {
            reader.report(path, "writes nothing: set \"tables\" or \"daily\" to true")
        }
        return output
    }

    /// An output folder (CSV, a lake) is written if it exists, else created, so then its parent must be writable.
    mutating func checkOutputFolder(_ folder: String, at path: String) {
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
