import Foundation
import HealthModel
import HealthSQLite

/// The end of a run, after its rows: the tables computed from them (workout links and totals, `data_types`,
/// the rollups), the record of the run (`RunRecorder`), statistics for the planner, and the commit. Also the
/// end of a run that found its input unchanged, and of one that failed.
struct RunEnd {
    let target: SQLiteTarget
    let recorder: RunRecorder
    let opening: StoreOpening
    let options: SQLiteSink.Options
    private var connection: SQLiteConnection { target.connection }
    private var timeZone: TimeZone { opening.timeZone }

    init(_ target: SQLiteTarget, opening: StoreOpening, options: SQLiteSink.Options) throws {
        self.target = target
        self.opening = opening
        self.options = options
        recorder = try RunRecorder(target.connection, hadData: opening.hadData)
    }

    /// Links probable duplicate workouts again, fills workout totals and local starts, and rebuilds
    /// `data_types`.
    func completeTables(_ summary: inout ImportSummary) throws {
        try connection.execute("DELETE FROM workout_duplicates")
        let linked = try linkProbableDuplicateWorkouts()
        if linked > 0 {
            summary.stages["dedup", default: [:]]["workouts linked as probable duplicates (kept)"] = linked
        }
        try WorkoutTotals.fill(connection)
        try WorkoutTotals.updateLocalStarts(connection, timeZone: timeZone, onlyMissing: true)
        try DataTypesTable.rebuild(connection)
    }

    /// Writes what is recorded about the run: its `import_runs` row and changes, the anchors (an export run
    /// over every source and date: a feed run, or a filtered one, sees only part of each type), the settings
    /// and the last ids given out.
    func record(_ summary: ImportSummary, changes: [String: TypeChanges], lastIDs: [(String, Int64)]) throws {
        if !options.feed {
            try recorder.writeAnchors(changes, exportDate: summary.exportDate, scope: options.scope)
        }
        try recorder.writeRun(summary)
        try recorder.writeChanges(changes)
        try recorder.writeSetting("time_zone", timeZone.identifier)
        try recorder.writeSetting("units", options.convertsUnits ? "converted" : "as exported")
        try recorder.writeLastIDs(lastIDs)
    }

    /// A sampled ANALYZE (enough for the query planner, and fast on a multi-GB database), then the commit,
    /// which compacts the file after a schema upgrade or when more than a quarter of it is free pages.
    func commit(_ summary: inout ImportSummary) throws {
        let mostlyFreeSpace: Bool
        do {
            try connection.execute("PRAGMA analysis_limit = 1000; ANALYZE")
            mostlyFreeSpace = try Self.isMostlyFreeSpace(connection)
        } catch let error as SQLiteError {
            target.rollback()
            throw runError(error)
        }
        let logLeft = try target.commit(compact: opening.upgradedSchema || mostlyFreeSpace)
        if let failure = target.compactionFailure {
            summary.warnings[StoreWarning.notCompacted(failure).summaryKey] = 1
        }
        if logLeft > 0 {
            let name = (target.path as NSString).lastPathComponent
            summary.warnings[StoreWarning.logNotEmptied(databaseName: name).summaryKey] = Int(logLeft)
        }
    }

    /// Whether more than a quarter of the file is free pages (after a schema upgrade, or a run that deleted
    /// much): the commit then compacts it.
    static func isMostlyFreeSpace(_ connection: SQLiteConnection) throws -> Bool {
        let free = try connection.scalar("PRAGMA freelist_count").integer ?? 0
        let total = try connection.scalar("PRAGMA page_count").integer ?? 0
        return free > 64 && free * 4 > total
    }

    // MARK: Rollups

    var rollupSettingText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(options.rollups)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A new database, another zone or other rollup options: every rollup is built again.
    func needsFullRollups(hasEarlierRows: Bool) throws -> Bool {
        guard hasEarlierRows else { return true }
        let stored = try connection.scalar("SELECT value FROM settings WHERE key = 'rollups'").text
        return opening.storedTimeZone != timeZone.identifier || stored != rollupSettingText
    }

    /// Rebuilds the rollups and remembers their options, so `set-timezone` can rebuild them the same way.
    /// A re-import with the same zone and options recomputes only the changed types, from 32 days before
    /// their earliest change on: every hour, day, ISO week and month that holds a change starts after that
    /// (a month is at most 31 days and an hour), so the periods before it cannot have changed.
    func rebuildRollups(into summary: inout ImportSummary, changes: [String: TypeChanges], full: Bool) throws {
        let clock = ContinuousClock()
        let started = clock.now
        var only: [String: RollupTables.Refresh]?
        if !full {
            only = [:]
            for (type, change) in changes
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
            rowsByType: changes.mapValues(\.rows))
        summary.rows["rollups"] = rows
        summary.rollupSeconds = ImportSummary.seconds(clock.now - started)
        try recorder.writeSetting("rollups", rollupSettingText)
    }

    // MARK: Other ends

    /// Records a run that found the same input as the last successful one, and changes nothing else.
    func finishUnchanged(_ summary: ImportSummary) throws -> ImportSummary {
        var summary = summary
        summary.outcome = "unchanged"
        summary.timeZone = timeZone.identifier
        do {
            // Nothing new to read, but rollups in another zone or with other options are built again.
            if try needsFullRollups(hasEarlierRows: true) {
                try rebuildRollups(into: &summary, changes: [:], full: true)
            }
            try recorder.writeRun(summary)
            try recorder.writeSetting("time_zone", timeZone.identifier)
        } catch let error as SQLiteError {
            target.rollback()
            throw runError(error)
        }
        try target.commit(compact: opening.upgradedSchema)
        if let failure = target.compactionFailure {
            summary.warnings[StoreWarning.notCompacted(failure).summaryKey] = 1
        }
        return summary
    }

    /// Rolls back, then records the failed run in `import_runs` when the database existed before it (a new
    /// one is simply not created). Recording is best effort: the error that ended the run matters more.
    func abort(recording error: Error, summary: ImportSummary) {
        target.rollback()
        defer { target.close() }
        guard !target.isNew else { return }
        do {
            try target.beginRecord()
            var summary = summary
            summary.outcome = (error as? ImportError)?.kind == .refused ? "refused" : "failed"
            summary.error = "\(error)"
            try recorder.writeRun(summary)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
        }
    }

    /// An SQLite failure during the run as the user sees it: a statement that a signal stopped
    /// (`sqlite3_interrupt`, in any phase: the load, the rollups, the bookkeeping) is the interruption, not a
    /// fault of the database.
    func runError(_ error: SQLiteError) -> ImportError {
        Interruption.error(file: target.path) ?? ImportError(.output, "\(error)", file: target.path)
    }

    /// Links workouts of different sources that cover the same stretch of time (one session recorded by two
    /// apps). Only workouts starting within the longest workout's span before another can overlap it, so the
    /// start-date index bounds each search from both sides (an open-ended range would make it quadratic).
    /// Returns how many links it made.
    private func linkProbableDuplicateWorkouts() throws -> Int {
        let longest = try connection.scalar(
            "SELECT coalesce(max(julianday(end_date) - julianday(start_date)), 0) FROM workouts")
        guard case .real(let days) = longest, days > 0 else { return 0 }
        try connection.execute(
            """
            INSERT INTO workout_duplicates (workout_id, probable_duplicate_of, overlap_fraction)
            SELECT later.id, earlier.id,
                   (min(julianday(later.end_date), julianday(earlier.end_date))
                    - max(julianday(later.start_date), julianday(earlier.start_date)))
                   / max(min(julianday(later.end_date) - julianday(later.start_date),
                             julianday(earlier.end_date) - julianday(earlier.start_date)), 1e-9) AS fraction
            FROM workouts AS later JOIN workouts AS earlier
              ON earlier.id < later.id
             AND earlier.start_date < later.end_date AND earlier.end_date > later.start_date
             AND earlier.start_date >= strftime('%Y-%m-%dT%H:%M:%SZ', julianday(later.start_date) - \(min(days, 3650)))
             AND earlier.source_name <> later.source_name
            WHERE fraction >= 0.5
            """)
        return connection.changes
    }
}
