import Foundation
import HTMLReport
import HealthModel

/// The HTML report (HTMLReport) as a run's output: `{"report": "<file.html>", "from", "to", "days", "sections"}`
/// in a pipeline. Drawn from the run's own SQLite database, after the import.
public struct HTMLReportOutput: RunOutput, Equatable {
    /// The HTML file, rewritten after every run (docs/report.md).
    public var path: String
    public var options = ReportOptions()

    public init(path: String, options: ReportOptions = ReportOptions()) {
        self.path = path
        self.options = options
    }

    public var key: String { "report" }
    public var destination: String { path }
    public var needsKeptDatabase: Bool { true }

    public var plannedDescription: String {
        var range: [String] = []
        if let from = options.from { range.append("from \(from)") }
        if let to = options.to { range.append("before \(to)") }
        if let days = options.lastDays { range.append("the last \(days) days") }
        let sections = options.sections.map(\.rawValue).joined(separator: ", ")
        return "\(path) (\(range.isEmpty ? "every day" : range.joined(separator: ", ")); \(sections))"
    }

    /// The report prints no summary line of its own in a run (`healthetl report` prints one).
    public func produce(from databasePath: String) throws -> RunOutputResult {
        let page = try HealthReport.write(databasePath: databasePath, to: path, options: options)
        return RunOutputResult(key: key, text: "", json: nil, detail: page)
    }
}

extension PipelineOutputKind {
    static let htmlReport = PipelineOutputKind(
        key: "report", fields: ["report", "from", "to", "days", "sections"],
        keptDatabaseProblem: "a report is drawn from the database of a sqlite sink",
        parse: { parser, object, path in parser.parseReport(object, at: path) })
}

extension PipelineParser {
    /// `{"report": "<file.html>", "from": "YYYY-MM-DD", "to": "YYYY-MM-DD", "days": n, "sections": [...]}`
    mutating func parseReport(_ value: [String: Any], at path: String) -> HTMLReportOutput? {
        _ = reader.object(value, at: path, allowed: PipelineOutputKind.htmlReport.fields, owner: "a report sink")
        let filePath = PipelineJSONReader.path(path, "report")
        guard let file = reader.nonEmptyString(value["report"]!, at: filePath) else { return nil }
        var output = HTMLReportOutput(path: PipelinePaths.absolute(file, relativeTo: baseDirectory))
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
}
