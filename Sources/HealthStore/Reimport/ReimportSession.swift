import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// A run against the rows of earlier runs: which of them this export has met, and what it did per type
/// (`ChangeLedger`). It matches rows (samples through their writer's look-up, correlations and workouts by
/// identity), takes rows out (`RowRemover`: replaced by a sync version, resent or covered feed rows, and at
/// the end those the export no longer has), and keeps the ledger of all of it. For a new database it is
/// inactive: every row is new, and only the ledger counts.
///
/// Writers do not count into the ledger: the rows they met or inserted come in their `WriteReport`, which the
/// front applies (`count`). What the session does itself (removals) it counts itself, and what a removal does
/// to this run's rows (a row of this run taken out again) goes into the caller's report. Matching (`markSeen`,
/// `matchNested`) stays a question asked and answered at once: it decides the outcome, and two identical
/// samples of one item must not both match the same earlier row.
final class ReimportSession {
    /// False for a new database: every row is new and nothing is looked up.
    let isActive: Bool
    /// Routes with an id up to this one were stored by earlier runs.
    let routeMaxID: Int64
    /// The rows of each tracked table before this run, and which of them this export has met.
    private var tables = TrackedTable.allCases.map { TrackedRows(name: $0.name) }
    /// The newest `ExportDate` imported so far (UTC text, which sorts like the instants).
    private let newestExportDate: String?
    private var snapshotsCleared = false
    /// How many times rows were taken out during the run: what a copy of stored rows (`EarlierDays`) was
    /// read at tells whether it may be stale.
    private(set) var removals = 0
    /// What this run did, per type: counts, fingerprints, earliest changes.
    private var ledger = ChangeLedger()
    private let connection: SQLiteConnection
    private let remover: RowRemover
    private let findCorrelation: SQLiteStatement
    private let findWorkout: SQLiteStatement
    /// The samples linked to a correlation (?1 its id).
    private let correlationChildren: SQLiteStatement

    /// `lastIDs`: the ids earlier runs gave out (`nil`: a new database, nothing to match).
    init(_ connection: SQLiteConnection, lastIDs: LastRowIDs?, runID: Int64) throws {
        self.connection = connection
        remover = try RowRemover(connection, runID: runID)
        findCorrelation = try connection.prepare("SELECT id FROM correlations WHERE identity = ?1 ORDER BY id")
        findWorkout = try connection.prepare("SELECT id FROM workouts WHERE identity = ?1 ORDER BY id")
        correlationChildren = try connection.prepare(
            "SELECT sample_table, sample_id FROM correlation_samples WHERE correlation_id = ?1 ORDER BY rowid")
        isActive = lastIDs != nil
        routeMaxID = lastIDs?["workout_routes"] ?? 0
        guard let lastIDs else {
            newestExportDate = nil
            return
        }
        for table in TrackedTable.allCases {
            tables[table.rawValue].previousMaxID = lastIDs[table]
            if case .integer(let count) = try connection.scalar("SELECT count(*) FROM \"\(table.storageName)\"") {
                tables[table.rawValue].previousCount = Int(count)
            }
        }
        newestExportDate = try connection.scalar(
            "SELECT max(export_date) FROM import_runs WHERE outcome IN ('ok', 'unchanged')"
        ).text
    }

    // MARK: Before the first row

    /// Empties the tables this run refills (`Schema.snapshotTables`), once, when the first item arrives: a run
    /// that stops before reading (the same export again) leaves them alone.
    @inline(__always) func clearSnapshotTablesOnce(replacesStateOfMind: Bool) throws {
        guard isActive, !snapshotsCleared else { return }
        try clearSnapshotTables(replacesStateOfMind: replacesStateOfMind)
    }

    private func clearSnapshotTables(replacesStateOfMind: Bool) throws {
        snapshotsCleared = true
        for table in Schema.snapshotTables { try connection.execute("DELETE FROM \"\(table)\"") }
        try connection.execute(
            "DELETE FROM metadata_rows WHERE parent_table_id IN "
                + "(\(MetadataParent.audiograms.rawValue), \(MetadataParent.visionPrescriptions.rawValue))")
        if replacesStateOfMind { try connection.execute("DELETE FROM state_of_mind") }
    }

    /// Refuses an export older than the newest one imported: its absence of newer samples would read as
    /// deletions. Equal dates pass (the same export again).
    func checkExportDate(_ exportDate: Timestamp?, allowOlder: Bool, path: String) throws {
        guard !allowOlder, let newest = newestExportDate, let exportDate else { return }
        let date = TimestampFormatting.utcString(exportDate.seconds)
        guard date < newest else { return }
        throw ImportError(
            .refused,
            "this export (exported \(date)) is older than the one the database was last updated from "
                + "(\(newest)); importing it would record every newer sample as deleted",
            file: path, hint: "import the newest export, or pass --force to import this one anyway")
    }

    // MARK: Matching

    /// Marks an earlier run's row as met in this export; false when it is not an earlier row, or was met already.
    @inline(__always) func markSeen(_ table: TrackedTable, id: Int64) -> Bool {
        isActive && tables[table.rawValue].isPrevious(id) && tables[table.rawValue].seen.insert(id)
    }

    func wasSeen(_ table: TrackedTable, id: Int64) -> Bool { tables[table.rawValue].seen.contains(id) }

    /// An earlier run's row that this export has not shown (yet).
    func isUnseenEarlierRow(_ table: TrackedTable, id: Int64) -> Bool {
        isActive && tables[table.rawValue].isPrevious(id) && !tables[table.rawValue].seen.contains(id)
    }

    /// Looks a correlation or workout up by identity: the first earlier row not yet met in this export.
    func matchNested(_ table: TrackedTable, identity: Int64) throws -> Int64? {
        guard isActive else { return nil }
        let statement = table == .workouts ? findWorkout : findCorrelation
        statement.bind(1, identity)
        for id in try statement.integers() where markSeen(table, id: id) { return id }
        return nil
    }

    /// An unchanged correlation's children are met with it, also those the export did not repeat at top level
    /// (against the format's rule): otherwise the end of the run would take them for deleted. Each is reported
    /// as met, with its dates as stored.
    func markChildrenSeen(ofCorrelation id: Int64, into report: inout WriteReport) throws {
        for link in try correlationChildren.rows([.integer(id)]) {
            guard let name = link[0].text, let table = TrackedTable(name: name), case .integer(let childID) = link[1],
                markSeen(table, id: childID),
                let row = try remover.storedRow(table, id: childID),
                case .integer(let identity) = row[1]
            else { continue }
            report.countUnchanged(
                table, type: row[0].text ?? "", identity: identity, startSeconds: row[2].integer,
                endSeconds: row[3].integer, creationSeconds: row[4].integer)
        }
    }

    // MARK: Counting

    /// Counts the rows a write reported met or inserted (called by the front only, `SQLiteSink.apply`).
    @inline(__always) func count(_ facts: borrowing SmallList<LedgerFact>) {
        facts.each { ledger.count($0) }
    }

    // MARK: Taking rows out

    /// Deletes a row and everything hanging off it. A row of an earlier run is first copied to
    /// `deleted_samples` with `reason`, and is no longer one of the earlier rows.
    private func remove(_ table: TrackedTable, id: Int64, reason: RemovalReason) throws -> RemovedRow? {
        removals += 1
        let wasPrevious = isActive && tables[table.rawValue].isPrevious(id)
        let wasSeen = tables[table.rawValue].seen.contains(id)
        guard let found = try remover.remove(table, id: id, reason: reason, archiving: wasPrevious) else { return nil }
        if wasPrevious {
            tables[table.rawValue].previousCount -= 1
            tables[table.rawValue].seen.remove(id)
        }
        return RemovedRow(
            type: found.type, identity: found.identity, wasPrevious: wasPrevious, wasSeen: wasSeen,
            start: found.start)
    }

    /// Removes the sample row a higher sync version replaces; returns whether it was an earlier run's row (then
    /// it is archived as `replaced`, and the new row counts as a replacement rather than an addition). A row of
    /// this run is reported taken out again, and its record dropped as replaced.
    func replaceSample(_ row: SyncedRow, into report: inout WriteReport) throws -> Bool {
        guard case .samples(let table) = row.table, let removed = try remove(table, id: row.id, reason: .replaced)
        else { return false }
        ledger.uncount(removed, table: table)
        if !removed.wasPrevious {
            report.count(WrittenTable(table), -1)
            report.drop(.replaced)
        }
        return removed.wasPrevious
    }

    /// Removes a row of this run that a higher sync version superseded (a route) and everything hanging off it.
    func removeSuperseded(_ row: SyncedRow, into report: inout WriteReport) throws {
        removals += 1
        try remover.removeSuperseded(row.table, id: row.id)
        switch row.table {
        case .routes: report.count(.workoutRoutes, -1)
        case .samples(let samples): report.count(WrittenTable(samples), -1)
        }
        report.drop(.replaced)
    }

    /// Takes a feed row out: an earlier run's is archived in `deleted_samples` with `reason` and counted as
    /// replaced; one of this run (an earlier file) simply leaves again.
    func removeFeedRow(_ table: TrackedTable, id: Int64, reason: RemovalReason, into report: inout WriteReport)
        throws
    {
        guard let removed = try remove(table, id: id, reason: reason) else { return }
        if removed.wasPrevious {
            ledger.countFeedReplaced(removed, table: table)
        } else {
            ledger.uncount(removed, table: table)
            report.count(WrittenTable(table), -1)
        }
    }

    /// Moves the feed rows of a sample table that start before `date` to `deleted_samples` (`reason`), counted
    /// as replaced; returns how many.
    func removeFeedRows(_ table: TrackedTable, before date: String, reason: RemovalReason) throws -> Int {
        var removed = 0
        removals += 1
        for (type, count, earliest) in try remover.removeFeedRows(table, before: date, reason: reason) {
            ledger.countFeedReplaced(type: type, table: table, count: count, earliest: earliest)
            tables[table.rawValue].previousCount -= count
            removed += count
        }
        return removed
    }

    /// The end of a re-import: the rows of earlier runs inside `scope` that this export no longer has are
    /// moved to `deleted_samples` and counted as deleted. A table whose earlier rows were all met is not
    /// searched.
    func removeUnseenRows(scope: SampleFilter) throws {
        guard isActive else { return }
        for table in TrackedTable.allCases where tables[table.rawValue].hasUnseenRows {
            let rows = tables[table.rawValue]
            for id in try remover.unseenRows(table, through: rows.previousMaxID, seen: rows.seen, scope: scope) {
                guard let removed = try remove(table, id: id, reason: .deleted) else { continue }
                ledger.countDeleted(removed, table: table)
            }
        }
    }

    /// The changes by type, complete: read at the end of the run.
    func closeLedger() -> [String: TypeChanges] {
        ledger.flush()
        return ledger.changes
    }
}
