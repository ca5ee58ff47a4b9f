import Foundation
import HealthLake

/// The report of a Parquet publish.
extension SummaryFormatter {
    static func json(_ report: LakeReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func text(_ report: LakeReport) -> String {
        let place = report.folder + (report.person.map { " (person=\($0))" } ?? "")
        if report.written.isEmpty {
            return "\(place): unchanged (generation \(report.generation)); nothing rewritten\n"
        }
        let rows = report.written.reduce(Int64(0)) { $0 + $1.rows }
        let bytes = report.written.reduce(Int64(0)) { $0 + $1.bytes }
        var lines = [
            String(
                format: "Published %d Parquet files to %@: %@ rows, %.1f MB (generation %@)", report.written.count,
                place, grouped(Int(rows)), Double(bytes) / 1_000_000, report.generation)
        ]
        if !report.unchanged.isEmpty { lines.append("  \(report.unchanged.count) unchanged, not rewritten") }
        let leftNull = report.written.filter { $0.valuesLeftNull > 0 }
        for table in leftNull {
            lines.append("  \(table.name): \(table.valuesLeftNull) values that do not fit the column's type left NULL")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
