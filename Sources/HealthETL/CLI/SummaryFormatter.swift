import Foundation
import HealthModel
import HealthPipelines

/// The end-of-run report: a short text for people, JSON for scripts.
enum SummaryFormatter {
    static func json(_ summary: ImportSummary) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The import summary, and under each output's key what it wrote (`"csv"`: folder, files with rows and
    /// bytes, notes).
    static func json(_ summary: ImportSummary, outputs: [RunOutputResult]) -> String {
        let reported = outputs.compactMap { output in output.json.map { (output.key, $0) } }
        guard !reported.isEmpty else { return json(summary) }
        struct Combined: Encodable {
            var summary: ImportSummary
            var outputs: [(key: String, value: any Encodable & Sendable)]
            func encode(to encoder: Encoder) throws {
                try summary.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                for output in outputs { try container.encode(output.value, forKey: Key(stringValue: output.key)) }
            }
        }
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let combined = Combined(summary: summary, outputs: reported.map { (key: $0.0, value: $0.1) })
        return (try? encoder.encode(combined)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func text(_ summary: ImportSummary, database: String) -> String {
        var lines: [String] = []
        if summary.outcome == "unchanged" {
            return "\(summary.input) is the same export as the last import into \(database): nothing changed "
                + "(use --rescan to read it again)\n"
        }
        let megabytes = Double(summary.xmlBytes) / 1_000_000
        lines.append(
            String(
                format: "Imported %@ into %@: %.1f MB of %@ in %.1f s (%.0f MB/s)", summary.input, database,
                megabytes, summary.inputKind == "feed" ? "JSON" : "XML", summary.seconds,
                summary.xmlMegabytesPerSecond))
        let totals = summary.changeTotals
        lines.append(
            "  changes: \(grouped(totals.added)) added, \(grouped(totals.replaced)) replaced, "
                + "\(grouped(totals.deleted)) deleted (kept in deleted_samples), \(grouped(totals.unchanged)) unchanged"
        )
        if let postgres = summary.postgres {
            let checkout =
                postgres.keptWorkingCopy
                ? "working copy kept from the last run" : "check-out of \(grouped(postgres.rowsCheckedOut)) rows"
            lines.append(
                String(
                    format:
                        "  PostgreSQL: %@ rows sent, %@ earlier rows replaced or removed (%@ %.1f s, publish %.1f s)",
                    grouped(postgres.rowsSent), grouped(postgres.rowsDeleted), checkout, postgres.checkoutSeconds,
                    postgres.publishSeconds))
        }
        let items = summary.items.sorted { $0.value > $1.value }.map { "\($0.key) \(grouped($0.value))" }
        if !items.isEmpty { lines.append("  read: " + items.joined(separator: ", ")) }
        let rows = summary.rows.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key) \(grouped($0.value))" }
        if !rows.isEmpty { lines.append("  rows: " + rows.joined(separator: ", ")) }
        for (stage, report) in summary.stages.sorted(by: { $0.key < $1.key }) {
            let parts = report.sorted { $0.key < $1.key }.map { "\($0.key): \(grouped($0.value))" }
            lines.append("  \(stage): " + parts.joined(separator: ", "))
        }
        if !summary.dropped.isEmpty {
            let parts = summary.dropped.sorted { $0.key < $1.key }.map { "\(grouped($0.value)) \($0.key)" }
            lines.append("  not stored: " + parts.joined(separator: ", "))
        }
        if !summary.warnings.isEmpty {
            lines.append("  warnings:")
            for (message, count) in summary.warnings.sorted(by: { $0.key < $1.key }) {
                lines.append("    \(grouped(count)) × \(message)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func grouped(_ value: Int) -> String { DigitGrouping.grouped(value) }
}
