import Foundation
import HealthCSV
import HealthLake
import HealthModel

/// The Parquet lake (HealthLake) as a run's output: `{"parquet": "<lake>", "person": "<id>"}` in a pipeline,
/// `--parquet <lake> [--person <id>]` on `import` and `export`; published from the run's database at its end
/// (the SQLite sink's, the PostgreSQL working copy, or a scratch one in the lake folder).
public struct ParquetLakeOutput: RunOutput, Equatable {
    /// The lake folder (docs/lake.md).
    public var folder: String
    /// The partition (`person=<id>`); nil: the lake of one database.
    public var person: String?

    public init(folder: String, person: String?) {
        self.folder = folder
        self.person = person
    }

    public var key: String { "parquet" }
    public var destination: String { folder }

    public var plannedDescription: String {
        "\(folder)/" + (person.map { " (partition person=\($0))" } ?? "") + " (published from the database at the end)"
    }

    public func produce(from databasePath: String) throws -> RunOutputResult {
        let report = try LakePublisher.publish(databasePath: databasePath, to: folder, person: person)
        return RunOutputResult(key: key, text: Self.summaryText(report), json: report, detail: report)
    }

    /// A run without a database of its own imports into a scratch database in the lake folder (hidden, named by
    /// the process, removed afterwards; the publisher never takes it for a relation).
    public func hostScratchDatabase<T>(_ body: (_ path: String) throws -> T) throws -> T? {
        try CSVOutput(directory: folder).withScratchDatabase(body)
    }

    static func summaryText(_ report: LakeReport) -> String {
        let place = report.folder + (report.person.map { " (person=\($0))" } ?? "")
        if report.written.isEmpty {
            return "\(place): unchanged (generation \(report.generation)); nothing rewritten\n"
        }
        let rows = report.written.reduce(Int64(0)) { $0 + $1.rows }
        let bytes = report.written.reduce(Int64(0)) { $0 + $1.bytes }
        var lines = [
            String(
                format: "Published %d Parquet files to %@: %@ rows, %.1f MB (generation %@)", report.written.count,
                place, DigitGrouping.grouped(Int(rows)), Double(bytes) / 1_000_000, report.generation)
        ]
        if !report.unchanged.isEmpty { lines.append("  \(report.unchanged.count) unchanged, not rewritten") }
        for table in report.written where table.valuesLeftNull > 0 {
            lines.append("  \(table.name): \(table.valuesLeftNull) values that do not fit the column's type left NULL")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension PipelineOutputKind {
    static let parquetLake = PipelineOutputKind(
        key: "parquet", fields: ["parquet", "person"], keptDatabaseProblem: nil,
        parse: { parser, object, path in parser.parseParquet(object, at: path) })
}

extension PipelineParser {
    /// `{"parquet": "<lake folder>", "person": "<id>"}`: `person` names the partition (it is not the postgres
    /// sink's person, though both are usually the same).
    mutating func parseParquet(_ value: [String: Any], at path: String) -> ParquetLakeOutput? {
        _ = reader.object(value, at: path, allowed: PipelineOutputKind.parquetLake.fields, owner: "a parquet sink")
        let folderPath = PipelineJSONReader.path(path, "parquet")
        guard let folder = reader.nonEmptyString(value["parquet"]!, at: folderPath) else { return nil }
        var output = ParquetLakeOutput(folder: PipelinePaths.absolute(folder, relativeTo: baseDirectory), person: nil)
        checkOutputFolder(output.folder, at: folderPath)
        if let field = value["person"] {
            let personPath = PipelineJSONReader.path(path, "person")
            guard let person = reader.nonEmptyString(field, at: personPath) else { return nil }
            do throws(OptionValueError) {
                try LakeLayout.checkPerson(person)
            } catch {
                reader.report(
                    personPath, "a folder name: letters, digits, '-', '_' and '.', not starting with '.' or '_'")
                return nil
            }
            output.person = person
        }
        return output
    }
}
