import Foundation

extension PipelineDefinition {
    /// What `healthetl run --dry-run` prints: what would be read, what would run, and what would be written,
    /// so a user can check a pipeline (and which file a glob picks) without touching any output.
    public func describe() -> String {
        var lines: [String] = []
        if let description { lines.append("pipeline: \(description)") }
        lines.append(contentsOf: describeInput())
        lines.append("time zone: \(timeZone?.identifier ?? "the database's, else this machine's")")
        lines.append(contentsOf: describeFilters())
        lines.append("stages:")
        lines.append(
            "  units:   \(unitsEnabled ? "on (canonical units, raw values kept)" : "off (values as exported)")")
        lines.append("  valence: \(valenceEnabled ? "on" : "off")")
        let dedup = "on (exact duplicates: \(onOff(dedupExactDuplicates)), sync versions: \(onOff(dedupSyncVersions)))"
        lines.append("  dedup:   \(dedupEnabled ? dedup : "off (everything kept)")")
        if rollupsEnabled {
            let periods = rollups.periods.map(\.rawValue).joined(separator: ", ")
            lines.append(
                "  rollups: on (periods: \(periods); priority: \(rollups.priority.words.joined(separator: ", ")))")
            for type in rollups.priorityByType.keys.sorted() {
                lines.append("           \(type): \(rollups.priorityByType[type]!.words.joined(separator: ", "))")
            }
        } else {
            lines.append("  rollups: off")
        }
        lines.append("sinks:")
        if let postgres {
            // The connection string is not printed: it may hold a password.
            let server = postgres.connection.isEmpty ? "the PG* environment" : "the server of the pipeline file"
            lines.append(
                "  postgres: person \(postgres.person) on \(server) (wait \(PipelineNumber.text(postgres.wait)) s"
                    + "\(postgres.force ? ", force" : ""))")
        }
        if let sqlite {
            lines.append(
                "  sqlite: \(sqlite.path) (wait \(PipelineNumber.text(sqlite.wait)) s\(sqlite.force ? ", force" : ""))")
        }
        if let csv {
            var files: [String] = []
            if csv.tables { files.append("one CSV per table") }
            if csv.daily { files.append("daily.csv, daily_long.csv") }
            lines.append(
                "  csv:    \(csv.path)/ (\(files.joined(separator: "; ")); \(csv.excel ? "Excel" : "RFC 4180") dialect)"
            )
        }
        if let report {
            var range: [String] = []
            if let from = report.options.from { range.append("from \(from)") }
            if let to = report.options.to { range.append("before \(to)") }
            if let days = report.options.lastDays { range.append("the last \(days) days") }
            let sections = report.options.sections.map(\.rawValue).joined(separator: ", ")
            lines.append(
                "  report: \(report.path) (\(range.isEmpty ? "every day" : range.joined(separator: ", ")); \(sections))"
            )
        }
        if let deidentify {
            let dates = deidentify.shiftDates ? "dates shifted" : "dates kept"
            lines.append(
                "  deidentify: \(deidentify.path) (key \(deidentify.keyFile); routes \(deidentify.routes); \(dates))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describeInput() -> [String] {
        var lines: [String] = []
        let candidates = inputCandidates()
        if inputIsGlob {
            lines.append("input:   \(inputExport)")
            if let chosen = candidates.first {
                lines.append("  newest match: \(chosen)")
                for ignored in candidates.dropFirst() { lines.append("  ignored (older): \(ignored)") }
            } else {
                lines.append("  no export matches this pattern")
            }
        } else {
            lines.append("input:   \(inputExport)\(candidates.isEmpty ? " (does not exist)" : "")")
        }
        if let stateOfMind {
            let missing = FileManager.default.fileExists(atPath: stateOfMind) ? "" : " (does not exist)"
            lines.append("state of mind: \(stateOfMind)\(missing)")
        }
        return lines
    }

    private func describeFilters() -> [String] {
        guard !filters.isEmpty else { return ["filters: none (every type, source and date)"] }
        var lines = ["filters:"]
        if let types = filters.types { lines.append("  types:   \(types.sorted().joined(separator: ", "))") }
        if let sources = filters.sources { lines.append("  sources: \(sources.sorted().joined(separator: ", "))") }
        if filters.from != nil || filters.to != nil {
            lines.append(
                "  dates:   from \(filters.from ?? "the start") (inclusive) to \(filters.to ?? "the end") (exclusive)")
        }
        return lines
    }

    private func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
}
