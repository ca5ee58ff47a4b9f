import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// The record of each run: its `import_runs` row (with its warnings and per-type changes), the anchors it
/// leaves, and the settings the next run reads. Written at the end of the run, inside its transaction.
struct RunRecorder {
    let connection: SQLiteConnection
    /// The `import_runs` id this run will have (rows it archives in `deleted_samples` point to it).
    let runID: Int64
    /// The fingerprint of each type's anchor before this run: a type whose content did not change keeps its
    /// anchor (and the run that wrote it).
    private let previousAnchors: [String: String]

    /// `hadData`: the database holds earlier runs, whose anchors are read.
    init(_ connection: SQLiteConnection, hadData: Bool) throws {
        self.connection = connection
        let last = try connection.scalar("SELECT coalesce(max(id), 0) FROM import_runs").integer ?? 0
        runID = last + 1
        var anchors: [String: String] = [:]
        if hadData {
            for row in try connection.query("SELECT type, fingerprint FROM anchors") {
                if case .text(let type) = row[0], case .text(let fingerprint) = row[1] { anchors[type] = fingerprint }
            }
        }
        previousAnchors = anchors
    }

    func writeRun(_ summary: ImportSummary) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) }
        let totals = summary.changeTotals
        try connection.prepare(Self.insertSQL("import_runs")).run([
            .integer(runID), .text(summary.input), .integer(Int64(summary.inputBytes)),
            .text(summary.inputKind), .text(summary.mainEntry), text(summary.exportDate),
            text(summary.exportUTCOffset), text(summary.locale), .text(summary.timeZone), .text(summary.startedAt),
            .text(summary.finishedAt), .text(summary.outcome), .text(summary.toolVersion), text(json),
            text(summary.inputFingerprint), text(summary.error), .integer(Int64(totals.added)),
            .integer(Int64(totals.replaced)), .integer(Int64(totals.deleted)), .integer(Int64(totals.unchanged)),
        ])
        let warnings = try connection.prepare(Self.insertSQL("import_warnings"))
        for (message, count) in summary.warnings.sorted(by: { $0.key < $1.key }) {
            try warnings.run([.integer(runID), .text(message), .integer(Int64(count))])
        }
    }

    /// `import_run_changes`: a row per type this run added, replaced, deleted or met unchanged.
    func writeChanges(_ changes: [String: TypeChanges]) throws {
        let insert = try connection.prepare(Self.insertSQL("import_run_changes"))
        for (type, change) in changes.sorted(by: { $0.key < $1.key })
        where change.added + change.replaced + change.deleted + change.unchanged > 0 {
            try insert.run([
                .integer(runID), .text(type), .text(change.table), .integer(Int64(change.added)),
                .integer(Int64(change.replaced)), .integer(Int64(change.deleted)), .integer(Int64(change.unchanged)),
            ])
        }
    }

    /// Writes the anchor of every type whose content changed; an unchanged type's anchor is left as it was.
    func writeAnchors(_ changes: [String: TypeChanges], exportDate: String?, scope: SampleFilter) throws {
        // A run that read only some sources or dates of a type saw part of it: its fingerprint would be wrong.
        guard scope.sources == nil, scope.from == nil, scope.to == nil else { return }
        let upsert = try connection.prepare(
            """
            INSERT OR REPLACE INTO anchors (type, row_table, row_count, newest_end_date, newest_creation_date,
                fingerprint, export_date, run_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        for (type, change) in changes.sorted(by: { $0.key < $1.key }) {
            let fingerprint = change.fingerprint
            guard previousAnchors[type] != fingerprint else { continue }
            func date(_ seconds: Int64) -> SQLiteValue {
                seconds == Int64.min ? .null : .text(TimestampFormatting.utcString(seconds))
            }
            try upsert.run([
                .text(type), .text(change.table), .integer(Int64(change.rows)), date(change.newestEnd),
                date(change.newestCreation), .text(fingerprint), text(exportDate), .integer(runID),
            ])
        }
    }

    /// The highest id given out per table that keeps rows across runs (`LastRowIDs`), so ids are never reused.
    func writeLastIDs(_ last: [(table: String, id: Int64)]) throws {
        for (table, id) in last { try writeSetting("last_id:" + table, String(id)) }
    }

    func writeSetting(_ key: String, _ value: String) throws { try Self.writeSetting(connection, key, value) }

    static func writeSetting(_ connection: SQLiteConnection, _ key: String, _ value: String) throws {
        try connection.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES (?1, ?2)").run([
            .text(key), .text(value),
        ])
    }

    private static func insertSQL(_ table: String) -> String {
        // swift-format-ignore: NeverForceUnwrap
        Schema.tables.first { $0.name == table }!.insertSQL()
    }

    private func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
