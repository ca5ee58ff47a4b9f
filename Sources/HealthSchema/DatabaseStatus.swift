import Foundation
import HealthModel
import HealthSQLite

/// What `healthetl status` shows: the database's totals, its last runs and its anchors.
public struct DatabaseStatus: Codable, Sendable {
    public struct Run: Codable, Sendable {
        public var id: Int64
        public var startedAt: String?
        public var finishedAt: String?
        public var outcome: String?
        public var input: String?
        public var exportDate: String?
        public var added, replaced, deleted, unchanged: Int64?
        public var error: String?
    }

    public struct Anchor: Codable, Sendable {
        public var type: String
        public var table: String
        public var rows: Int64
        public var newestEndDate: String?
        public var exportDate: String?
    }

    /// A run writing the database while the status was read (its figures are not in this status yet).
    public typealias RunningImport = HealthSchema.RunningImport

    public var path: String
    public var bytes: Int64
    public var runningImport: RunningImport?
    public var timeZone: String?
    /// Rows per data table (samples, workouts, …, `deleted_samples`).
    public var totals: [String: Int64] = [:]
    public var lastRuns: [Run] = []
    public var anchors: [Anchor] = []
    /// Up to when the newest export covers, and the Health Auto Export feed after it (FeedStatus.swift).
    public var coverage = FeedCoverage()

    /// Reads the status of the database at `path`; the last `runCount` runs, newest first.
    public static func read(path: String, runCount: Int = 10) throws -> DatabaseStatus {
        let running = DatabaseLock.currentHolder(ofDatabase: path).map {
            RunningImport(pid: $0.pid, since: $0.since, command: $0.command)
        }
        try StoredDatabase.requireFile(path)
        do {
            let connection = try SQLiteConnection(path: path, create: false)
            // One read transaction: every figure from the same committed state, even while an import commits.
            // In WAL mode a reader never waits for a writer; the timeout covers a database of an earlier
            // version, in rollback-journal mode, while its first import switches it to WAL.
            connection.setBusyTimeout(milliseconds: 5_000)
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            if let error = try SchemaState(of: connection).readingError(path: path) { throw error }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            var status = DatabaseStatus(path: path, bytes: size ?? 0)
            status.runningImport = running
            status.timeZone = try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'").text
            status.coverage = try FeedCoverage.read(connection)
            let counted = [
                "cumulative_samples", "discrete_samples", "category_samples", "correlations", "workouts",
                "route_points", "activity_summaries", "ecg_recordings", "state_of_mind", "deleted_samples",
            ]
            for table in counted {
                if case .integer(let count) = try connection.scalar("SELECT count(*) FROM \(table)") {
                    status.totals[table] = count
                }
            }
            let runs = try connection.query(
                """
                SELECT id, started_at, finished_at, outcome, input_path, export_date, added, replaced, deleted,
                       unchanged, error
                FROM import_runs ORDER BY id DESC LIMIT ?1
                """, [.integer(Int64(runCount))])
            status.lastRuns = runs.map { row in
                Run(
                    id: row[0].integer ?? 0, startedAt: row[1].text, finishedAt: row[2].text, outcome: row[3].text,
                    input: row[4].text, exportDate: row[5].text, added: row[6].integer, replaced: row[7].integer,
                    deleted: row[8].integer, unchanged: row[9].integer, error: row[10].text)
            }
            status.anchors = try connection.query(
                "SELECT type, row_table, row_count, newest_end_date, export_date FROM anchors ORDER BY type"
            ).map { row in
                Anchor(
                    type: row[0].text ?? "", table: row[1].text ?? "", rows: row[2].integer ?? 0,
                    newestEndDate: row[3].text, exportDate: row[4].text)
            }
            return status
        } catch let error as SQLiteError {
            throw ImportError(.input, "cannot read the database: \(error)", file: path)
        }
    }

    /// The status for people: totals, the last runs, then one line per type.
    public var text: String {
        // A server's person has no file size.
        let size = bytes > 0 ? "\(bytes / 1_000_000) MB, " : ""
        var lines = ["\(path): \(size)local dates in \(timeZone ?? "(not set)")"]
        if let runningImport {
            lines.append("  running now: \(runningImport.description); what follows is the last committed state")
        }
        lines.append(
            "  rows: "
                + totals.sorted { $0.key < $1.key }.map { "\($0.key) \(DigitGrouping.grouped(Int($0.value)))" }
                .joined(separator: ", "))
        lines.append("  data: " + coverage.text)
        lines.append("  last runs (newest first):")
        for run in lastRuns {
            var line = "    #\(run.id) \(run.startedAt ?? "?") \(run.outcome ?? "?")"
            if let exportDate = run.exportDate { line += ", export of \(exportDate)" }
            if let added = run.added {
                line +=
                    ": +\(added) added, \(run.replaced ?? 0) replaced, -\(run.deleted ?? 0) deleted, "
                    + "\(run.unchanged ?? 0) unchanged"
            }
            if let error = run.error { line += " — \(error)" }
            lines.append(line)
        }
        lines.append("  anchors (type: rows, newest end, from the export of):")
        for anchor in anchors {
            lines.append(
                "    \(anchor.type): \(DigitGrouping.grouped(Int(anchor.rows))), \(anchor.newestEndDate ?? "-"), "
                    + "\(anchor.exportDate ?? "-")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
