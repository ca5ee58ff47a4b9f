import Foundation
import HealthModel
import HealthSQLite

/// The record of each run: `import_runs`, its per-type changes, and the anchors it leaves.
extension SQLiteSink {
    func writeRun(_ summary: ImportSummary) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) }
        // swift-format-ignore: NeverForceUnwrap
        let runs = Schema.tables.first { $0.name == "import_runs" }!
        let totals = summary.changeTotals
        try connection.prepare(runs.insertSQL()).run([
            .integer(previous.runID), .text(summary.input), .integer(Int64(summary.inputBytes)),
            .text(summary.inputKind), .text(summary.mainEntry), text(summary.exportDate),
            text(summary.exportUTCOffset), text(summary.locale), .text(summary.timeZone), .text(summary.startedAt),
            .text(summary.finishedAt), .text(summary.outcome), .text(summary.toolVersion), text(json),
            text(summary.inputFingerprint), text(summary.error), .integer(Int64(totals.added)),
            .integer(Int64(totals.replaced)), .integer(Int64(totals.deleted)), .integer(Int64(totals.unchanged)),
        ])
        // swift-format-ignore: NeverForceUnwrap
        let warnings = try connection.prepare(Schema.tables.first { $0.name == "import_warnings" }!.insertSQL())
        for (message, count) in summary.warnings.sorted(by: { $0.key < $1.key }) {
            try warnings.run([.integer(previous.runID), .text(message), .integer(Int64(count))])
        }
    }

    func writeChanges() throws {
        // swift-format-ignore: NeverForceUnwrap
        let insert = try connection.prepare(Schema.tables.first { $0.name == "import_run_changes" }!.insertSQL())
        for (type, change) in changes.sorted(by: { $0.key < $1.key })
        where change.added + change.replaced + change.deleted + change.unchanged > 0 {
            try insert.run([
                .integer(previous.runID), .text(type), .text(change.table), .integer(Int64(change.added)),
                .integer(Int64(change.replaced)), .integer(Int64(change.deleted)), .integer(Int64(change.unchanged)),
            ])
        }
    }

    /// Writes the anchor of every type whose content changed; an unchanged type's anchor is left as it was.
    func writeAnchors(exportDate: String?) throws {
        // A run that read only some sources or dates of a type saw part of it: its fingerprint would be wrong.
        let scope = options.scope
        guard scope.sources == nil, scope.from == nil, scope.to == nil else { return }
        let upsert = try connection.prepare(
            """
            INSERT OR REPLACE INTO anchors (type, row_table, row_count, newest_end_date, newest_creation_date,
                fingerprint, export_date, run_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        for (type, change) in changes.sorted(by: { $0.key < $1.key }) {
            let fingerprint = change.fingerprint
            guard previous.anchors[type] != fingerprint else { continue }
            func date(_ seconds: Int64) -> SQLiteValue {
                seconds == Int64.min ? .null : .text(TimestampFormatting.utcString(seconds))
            }
            try upsert.run([
                .text(type), .text(change.table), .integer(Int64(change.rows)), date(change.newestEnd),
                date(change.newestCreation), .text(fingerprint), text(exportDate), .integer(previous.runID),
            ])
        }
    }

    func writeSetting(_ key: String, _ value: String) throws { try Self.writeSetting(connection, key, value) }

    /// The highest id given out per table that keeps rows across runs, so ids are never reused.
    func writeLastIDs() throws {
        let last: [(String, Int64)] = [
            ("cumulative_samples", ids.cumulative), ("discrete_samples", ids.discrete),
            ("category_samples", ids.category), ("correlations", ids.correlation), ("workouts", ids.workout),
            ("workout_events", ids.event), ("workout_activities", ids.activity), ("workout_statistics", ids.statistic),
            ("workout_routes", ids.route), ("state_of_mind", ids.stateOfMind),
        ]
        for (table, id) in last { try writeSetting("last_id:" + table, String(id)) }
    }

    static func writeSetting(_ connection: SQLiteConnection, _ key: String, _ value: String) throws {
        try connection.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES (?1, ?2)").run([
            .text(key), .text(value),
        ])
    }

    var rollupSettingText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(options.rollups)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Rebuilds the rollups and remembers their options, so `set-timezone` can rebuild them the same way.
    /// A re-import with the same zone and options recomputes only the changed types, from 32 days before
    /// their earliest change on: every hour, day, ISO week and month that holds a change starts after that
    /// (a month is at most 31 days and an hour), so the periods before it cannot have changed.
    func rebuildRollups(into summary: inout ImportSummary, full: Bool) throws {
        let clock = ContinuousClock()
        let started = clock.now
        var only: [String: RollupTables.Refresh]?
        if !full {
            only = [:]
            for (type, change) in changes where change.changed && change.table != "workouts" && change.table != "correlations" {
                let from = change.earliestChange == Int64.min ? Int64.min : change.earliestChange - 32 * 86_400
                // Twice the longest span: a sample that overlaps one reaching into the rebuilt periods (and so
                // competes with it for the same stretch) starts no earlier than that.
                only?[type] = RollupTables.Refresh(table: change.table, from: from, lookback: 2 * change.longestSpan)
            }
        }
        let rows = try RollupTables.rebuild(connection, timeZone: timeZone, options: options.rollups, only: only)
        summary.rows["rollups"] = rows
        summary.rollupSeconds = ImportSummary.seconds(clock.now - started)
        try writeSetting("rollups", rollupSettingText)
    }

    /// A new database, another zone or other rollup options: every rollup is built again.
    func needsFullRollups() throws -> Bool {
        guard previous.isActive else { return true }
        let stored = try connection.scalar("SELECT value FROM settings WHERE key = 'rollups'").text
        return previous.storedTimeZone != timeZone.identifier || stored != rollupSettingText
    }

    /// The zone an earlier run computed `local_date` in, if any.
    static func storedTimeZone(_ connection: SQLiteConnection) throws -> TimeZone? {
        guard case .text(let name) = try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'")
        else { return nil }
        return TimeZone(identifier: name)
    }

    /// The newest successful run, for the unchanged-input shortcut: its input fingerprint.
    public func lastInputFingerprint() throws -> String? {
        try connection.scalar(
            "SELECT input_fingerprint FROM import_runs WHERE outcome IN ('ok', 'unchanged') ORDER BY id DESC LIMIT 1"
        ).text
    }

    /// Records a run that found the same input as the last successful one, and changes nothing else.
    public func finishUnchanged(_ summary: ImportSummary) throws -> ImportSummary {
        var summary = summary
        summary.outcome = "unchanged"
        summary.timeZone = timeZone.identifier
        do {
            // Nothing new to read, but rollups in another zone or with other options are built again.
            let stored = try connection.scalar("SELECT value FROM settings WHERE key = 'rollups'").text
            if try Self.storedTimeZone(connection)?.identifier != timeZone.identifier || stored != rollupSettingText {
                try rebuildRollups(into: &summary, full: true)
            }
            try writeRun(summary)
            try writeSetting("time_zone", timeZone.identifier)
        } catch let error as SQLiteError {
            target.rollback()
            throw ImportError(.output, "\(error)", file: target.path)
        }
        try target.commit()
        return summary
    }
}
