import Foundation
import HealthModel
import HealthSQLite

/// The end of a run as the sink decides it: which rollups to rebuild, and the unchanged-input shortcut. What
/// is recorded about the run is `RunRecorder`'s.
extension SQLiteSink {
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
            for (type, change) in ledger.changes
            where change.changed && change.table != "workouts" && change.table != "correlations" {
                let from = change.earliestChange == Int64.min ? Int64.min : change.earliestChange - 32 * 86_400
                // Twice the longest span: a sample that overlaps one reaching into the rebuilt periods (and so
                // competes with it for the same stretch) starts no earlier than that.
                only?[type] = RollupTables.Refresh(table: change.table, from: from, lookback: 2 * change.longestSpan)
            }
        }
        // A new database is read back by two more connections, at the cost of one early commit.
        let sharedPath = full ? try target.shareLoadedRows() : nil
        let rows = try RollupTables.rebuild(
            connection, timeZone: timeZone, options: options.rollups, only: only, sharedPath: sharedPath,
            rowsByType: ledger.changes.mapValues(\.rows))
        summary.rows["rollups"] = rows
        summary.rollupSeconds = ImportSummary.seconds(clock.now - started)
        try runs.writeSetting("rollups", rollupSettingText)
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
            try runs.writeRun(summary)
            try runs.writeSetting("time_zone", timeZone.identifier)
        } catch let error as SQLiteError {
            target.rollback()
            throw runError(error)
        }
        try target.commit(compact: upgradedSchema)
        if let failure = target.compactionFailure {
            summary.warnings[StoreWarning.notCompacted(failure).summaryKey] = 1
        }
        return summary
    }
}
