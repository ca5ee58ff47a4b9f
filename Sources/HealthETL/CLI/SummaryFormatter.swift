import Foundation

/// The end-of-run report: a short text for people, JSON for scripts.
enum SummaryFormatter {
    static func json(_ summary: ImportSummary) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
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
                format: "Imported %@ into %@: %.1f MB of XML in %.1f s (%.0f MB/s)", summary.input, database,
                megabytes, summary.seconds, summary.xmlMegabytesPerSecond))
        let totals = summary.changeTotals
        lines.append(
            "  changes: \(grouped(totals.added)) added, \(grouped(totals.replaced)) replaced, "
                + "\(grouped(totals.deleted)) deleted (kept in deleted_samples), \(grouped(totals.unchanged)) unchanged")
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

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
