import Foundation
import HealthCSV
import HealthModel
import HealthWorkoutFiles

/// Workout files (HealthWorkoutFiles) as a run's output: `{"workouts": "<folder>", "format": "fit", "start":
/// "YYYY-MM-DD", "end": "YYYY-MM-DD", "activity": "running", "position": true}` in a pipeline,
/// `--workouts <folder> [--format …] [--start D] [--end D] [--activity A] [--no-position]` on `export`.
public struct WorkoutFilesOutput: RunOutput, Equatable {
    public var folder: String
    public var options: WorkoutFileOptions

    public init(folder: String, options: WorkoutFileOptions) {
        self.folder = folder
        self.options = options
    }

    public var key: String { "workouts" }
    public var destination: String { folder }

    public var plannedDescription: String {
        var parts = ["one \(options.format.rawValue.uppercased()) file per workout"]
        if let first = options.firstDay { parts.append("from \(first)") }
        if let last = options.lastDay { parts.append("to \(last)") }
        if let activity = options.activity { parts.append("\(activity) only") }
        if !options.includePosition { parts.append("without positions") }
        return "\(folder)/ (\(parts.joined(separator: ", ")))"
    }

    public func produce(from databasePath: String) throws -> RunOutputResult {
        let report = try WorkoutFileExport.write(databasePath: databasePath, to: folder, options: options)
        return RunOutputResult(key: key, text: Self.summaryText(report), json: report, detail: report)
    }

    /// A run without a database of its own imports into a scratch database in the folder (removed afterwards).
    public func hostScratchDatabase<T>(_ body: (_ path: String) throws -> T) throws -> T? {
        try CSVOutput(directory: folder).withScratchDatabase(body)
    }

    static func summaryText(_ report: WorkoutFileReport) -> String {
        var lines = [
            "Wrote \(report.written.count) \(report.format.uppercased()) workout files to \(report.folder)"
                + (report.unchanged > 0 ? " (\(report.unchanged) unchanged, not rewritten)" : "")
        ]
        for note in report.notes { lines.append("  " + note) }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension PipelineOutputKind {
    static let workoutFiles = PipelineOutputKind(
        key: "workouts", fields: ["workouts", "format", "start", "end", "activity", "position"],
        keptDatabaseProblem: nil,
        parse: { parser, object, path in parser.parseWorkoutFiles(object, at: path) })
}

extension PipelineParser {
    /// `{"workouts": "<folder>", "format": "fit|tcx|gpx", "start", "end", "activity", "position": b}`.
    mutating func parseWorkoutFiles(_ value: [String: Any], at path: String) -> WorkoutFilesOutput? {
        _ = reader.object(value, at: path, allowed: PipelineOutputKind.workoutFiles.fields, owner: "a workouts sink")
        let folderPath = PipelineJSONReader.path(path, "workouts")
        guard let folder = reader.nonEmptyString(value["workouts"]!, at: folderPath) else { return nil }
        var texts: [String: String] = [:]
        for key in ["format", "start", "end", "activity"] {
            guard let field = value[key] else { continue }
            guard let text = reader.string(field, at: PipelineJSONReader.path(path, key)) else { return nil }
            texts[key] = text
        }
        let position = optionalBool(value, "position", in: path) ?? true
        do throws(OptionValueError) {
            let options = try WorkoutFileOptions.parse(
                format: texts["format"], start: texts["start"], end: texts["end"], activity: texts["activity"],
                position: position)
            let output = WorkoutFilesOutput(
                folder: PipelinePaths.absolute(folder, relativeTo: baseDirectory), options: options)
            checkOutputFolder(output.folder, at: folderPath)
            return output
        } catch {
            reader.report(path, error.message)
            return nil
        }
    }
}
