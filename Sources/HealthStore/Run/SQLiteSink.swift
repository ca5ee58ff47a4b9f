import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// Writes export items into the SQLite schema (`Schema`), in one transaction per run.
///
/// A front: it composes the parts that own the run's state, routes each item to the writer of its kind, and
/// orders the end of the run. Writers report, the front applies: each item is written into a `WriteReport`
/// (rows per table, drops, warnings, unknown types, rows met or inserted), and `apply` alone turns it into the
/// run's tally and the re-import session's ledger. Who writes what:
///
/// | part | owns |
/// |---|---|
/// | `StoreOpening` | schema preparation and migration, the run's zone, the unit check |
/// | `WriteReport` (one per item, applied by `apply` only) | what the item did: counts and ledger facts |
/// | `RunTally` (held by the front only) | rows per table, drops, the sink's warnings, unknown types |
/// | `ReimportSession` | the earlier runs' rows met, the change ledger, removals (`RowRemover`) |
/// | `SampleWriter` (`SamplePolicy`) | sample rows and ids, type names, correlation candidates |
/// | `CorrelationWriter`, `WorkoutWriter`, `RecordWriter`, `DocumentWriter` | their tables' rows and ids |
/// | `CommonRows` | `sources`, metadata rows, local days |
/// | `FeedMerge` | the Health Auto Export feed's merge rule and its counts |
/// | `RunEnd` | the tables computed at the end, the run's record (`RunRecorder`), the commit |
public final class SQLiteSink {
    public let options: Options
    /// Filled only by `apply`.
    private let tally = RunTally()
    private let session: ReimportSession
    private let feed: FeedMerge
    private let samples: SampleWriter
    private let correlations: CorrelationWriter
    private let workouts: WorkoutWriter
    private let records: RecordWriter
    private let documents: DocumentWriter
    private let end: RunEnd

    /// What the sink does with duplicates and with an existing database.
    public struct Options: Sendable {
        /// Store one copy of records that say exactly the same thing.
        public var dropExactDuplicates = true
        /// Keep only the highest `HKMetadataKeySyncVersion` per app and sync identifier.
        public var keepHighestSyncVersion = true
        /// Import an export older than the one the database was last updated from (its newer samples would
        /// be recorded as deleted).
        public var allowOlderExport = false
        /// This run reads a State of Mind file, so the `state_of_mind` table is replaced by its entries;
        /// without one, the entries of earlier runs stay.
        public var replacesStateOfMind = false
        /// The rollups rebuilt at the end of the run.
        public var rollups = RollupOptions()
        /// What the run reads (a pipeline's filters): rows outside it are not this run's to delete.
        public var scope = SampleFilter()
        /// Whether the unit stage runs. A database keeps one choice: rows already stored are matched, not
        /// rewritten, so a change would mix converted and exported units in one column.
        public var convertsUnits = true
        /// A run of Health Auto Export's feed: rows are marked `RowOrigin.feed` and merged by the feed's rule, and
        /// nothing else of the database is touched (FeedMerge.swift, docs/incremental.md).
        public var feed = false
        public init() {}
    }
    /// Opens (or creates) the database and takes its lock. `timeZone` nil means: keep the zone the database
    /// was built with; if a different zone is asked for, every `local_date` is recomputed in it.
    public init(
        path: String, timeZone: TimeZone?, options: Options = Options(), lockTimeoutMilliseconds: Int32 = 10_000
    ) throws {
        self.options = options
        let target = try SQLiteTarget(path: path, lockTimeoutMilliseconds: lockTimeoutMilliseconds)
        do {
            let opening = try StoreOpening(target, timeZone: timeZone, convertsUnits: options.convertsUnits)
            let connection = target.connection
            let lastIDs = opening.hadData ? try LastRowIDs(connection) : LastRowIDs()
            end = try RunEnd(target, opening: opening, options: options)
            session = try ReimportSession(
                connection, lastIDs: opening.hadData ? lastIDs : nil, runID: end.recorder.runID)
            feed = try FeedMerge(connection, isFeed: options.feed, session: session)
            let statements = try SchemaStatements(connection)
            let common = try CommonRows(
                connection, hadData: opening.hadData, timeZone: opening.timeZone)
            let policy = SamplePolicy(
                dropsExactDuplicates: options.dropExactDuplicates,
                keepsHighestSyncVersion: options.keepHighestSyncVersion, isFeed: options.feed,
                hasEarlierRows: session.isActive)
            samples = try SampleWriter(
                connection, policy: policy, lastIDs: lastIDs, hadData: opening.hadData, statements: statements,
                common: common, session: session, feed: feed)
            correlations = CorrelationWriter(
                statements: statements, lastIDs: lastIDs, common: common, session: session, samples: samples)
            workouts = try WorkoutWriter(
                connection, statements: statements, lastIDs: lastIDs, options: options, common: common,
                session: session, feed: feed)
            records = RecordWriter(
                statements: statements, lastIDs: lastIDs, isFeed: options.feed, common: common, feed: feed)
            documents = DocumentWriter(connection, statements: statements)
        } catch let error as ImportError {
            target.rollback()
            throw error.located(file: path, entry: nil)
        } catch {
            target.rollback()
            throw ImportError(.output, "cannot prepare the database: \(error)", file: path)
        }
    }

    package var connection: SQLiteConnection { end.target.connection }
    /// The zone `local_date` is computed in: the one asked for, else the database's, else the machine's.
    public var timeZone: TimeZone { end.opening.timeZone }
    /// Whether this run updates a database that earlier runs wrote (most samples are then only looked up).
    public var updatesExistingDatabase: Bool { session.isActive }
    /// Rows written, by public table (`ImportSummary.rows`).
    public var rowsByTable: [String: Int] { tally.rows.byName }
    /// Records not stored, by the summary's keys (`ImportSummary.dropped`).
    public var dropped: [String: Int] { tally.drops.bySummaryKey }
    /// Counted warnings of the sink's own (a document it could not store), merged into the run's.
    public var warnings: [String: Int] { tally.warnings }
    /// Types missing from the catalog (new iOS versions, `HKDataType…` names), stored by the fallback rule.
    public var unknownTypes: [String: Int] { tally.unknownTypes }

    // MARK: Items

    public func write(_ item: ExportItem) throws { try write(item, sampleIdentity: nil) }

    /// `write`, with a sample's `SampleIdentity.fingerprint` when it was computed already (by the decoding
    /// thread, which has time to spare in a first import).
    public func write(_ item: ExportItem, sampleIdentity: Int64?) throws {
        try reporting { report in try write(item, sampleIdentity: sampleIdentity, into: &report) }
    }

    /// Runs `body` with a report on the stack (it allocates nothing for a sample) and applies it as the body
    /// ends: also when it fails, so the failed run's record counts what was written before (as when writers
    /// counted into the tally directly). Applied in both paths rather than in a `defer`, which copied the report.
    private func reporting(_ body: (inout WriteReport) throws -> Void) throws {
        var report = WriteReport()
        do {
            try body(&report)
        } catch let error as SQLiteError {
            apply(report)
            throw end.runError(error)
        } catch {
            apply(report)
            throw error
        }
        apply(report)
    }

    // MARK: Batches

    /// Writes a batch's rows from its columns and its other items by their writers, in document order (an
    /// item of `others` before the row it preceded): the same ids, rows, drops, warnings and ledger facts as
    /// writing the same items one by one (feed runs included: a row is made into a `Sample` only for the
    /// feed's merge rule). `identitiesFilled`: `batch.identity` holds every row's `SampleIdentity.fingerprint`
    /// (the decoding thread's identity pass ran); else the rows are fingerprinted here.
    ///
    /// One report for the whole batch, applied once: also when a row fails, so the failed run's record counts
    /// what was written before it. `completing`: called on each other item just before it is written (the
    /// writing thread resolves workouts' routes there in a re-import: one workout's points in memory at a time).
    package func write(
        _ batch: borrowing SampleBatch, identitiesFilled: Bool, completing: ((inout ExportItem) -> Void)? = nil
    ) throws {
        try reporting { report in
            try writeRows(batch, identitiesFilled: identitiesFilled, completing: completing, into: &report)
        }
    }

    private func writeRows(
        _ batch: borrowing SampleBatch, identitiesFilled: Bool, completing: ((inout ExportItem) -> Void)?,
        into report: inout WriteReport
    ) throws {
        let rowCount = batch.rowCount
        let others = batch.others
        var nextOther = 0
        if rowCount > 0 {
            let rows = samples.beginBatch(batch)
            let identities = identitiesFilled ? batch.identity : []
            // Not an optional: calling through one copied the fingerprinter (six references) once per row.
            let fingerprints = BatchFingerprints(batch.vocabulary)
            for row in 0..<rowCount {
                while nextOther < others.count, others[nextOther].beforeRow <= row {
                    try writeOther(others[nextOther].item, completing: completing, into: &report)
                    nextOther += 1
                }
                if !options.feed {
                    try session.clearSnapshotTablesOnce(replacesStateOfMind: options.replacesStateOfMind)
                }
                let identity = identitiesFilled ? identities[row] : fingerprints.fingerprint(batch, row)
                try samples.writeTopLevel(rows, row: row, identity: identity, into: &report)
            }
        }
        while nextOther < others.count {
            try writeOther(others[nextOther].item, completing: completing, into: &report)
            nextOther += 1
        }
    }

    /// An item of a batch's `others`, borrowed unless it must be completed first.
    @inline(__always) private func writeOther(
        _ item: ExportItem, completing: ((inout ExportItem) -> Void)?, into report: inout WriteReport
    ) throws {
        guard let completing else { return try write(item, sampleIdentity: nil, into: &report) }
        var completed = item
        completing(&completed)
        try write(completed, sampleIdentity: nil, into: &report)
    }

    /// Routes the item to the writer of its kind.
    @inline(__always) private func write(_ item: ExportItem, sampleIdentity: Int64?, into report: inout WriteReport)
        throws
    {
        if !options.feed { try session.clearSnapshotTablesOnce(replacesStateOfMind: options.replacesStateOfMind) }
        switch item {
        case .sample(let sample): try samples.writeTopLevel(sample, identity: sampleIdentity, into: &report)
        case .correlation(let correlation): try correlations.write(correlation, into: &report)
        case .workout(let workout): try workouts.write(workout, into: &report)
        case .header(_, let exportDate):  // the rest goes to import_runs
            try session.checkExportDate(exportDate, allowOlder: options.allowOlderExport, path: end.target.path)
        case .characteristics(let me): try records.writeMe(me, into: &report)
        case .activitySummary(let summary): try records.writeActivitySummary(summary, into: &report)
        case .clinicalRecord(let record): try records.writeClinicalRecord(record, into: &report)
        case .audiogram(let audiogram): try records.writeAudiogram(audiogram, into: &report)
        case .visionPrescription(let prescription): try records.writeVisionPrescription(prescription, into: &report)
        case .electrocardiogram(let recording): try records.writeECG(recording, into: &report)
        case .stateOfMind(let entry): try records.writeStateOfMind(entry, into: &report)
        case .document(let document): try documents.write(document, into: &report)
        }
    }

    /// Starts a feed file: rows written from here on are the file's own.
    public func beginFeedFile() {
        feed.beginFile(lastIDs: samples.lastIDs + [correlations.lastID, workouts.lastWorkoutID])
    }

    /// Ends a feed file: the feed rows it covers and did not repeat are replaced by its points (FeedMerge.swift).
    public func endFeedFile(spans: [String: (start: Int64, end: Int64)]) throws {
        var report = WriteReport()
        defer { apply(report) }
        do {
            try feed.endFile(spans: spans, into: &report)
        } catch let error as SQLiteError {
            throw end.runError(error)
        }
    }

    /// The one place what the parts reported takes effect: the counts in the run's tally, the rows met or
    /// inserted in the re-import session's ledger.
    @inline(__always) private func apply(_ report: borrowing WriteReport) {
        Self.apply(report, to: tally, session: session)
    }

    @inline(__always) static func apply(
        _ report: borrowing WriteReport, to tally: RunTally, session: ReimportSession
    ) {
        tally.add(report)
        session.count(report.ledger)
    }

    // MARK: The end of a run

    public func finish(_ summary: ImportSummary) throws -> ImportSummary {
        var summary = summary
        do {
            var report = WriteReport()
            try feed.finish(&summary, into: &report)
            apply(report)
            if !options.feed { try session.removeUnseenRows(scope: options.scope) }
            let changes = session.closeLedger()
            summary.changes = changes.filter {
                $0.value.added + $0.value.replaced + $0.value.deleted + $0.value.unchanged > 0
            }
            try end.completeTables(&summary)
            summary.timeZone = timeZone.identifier
            try end.rebuildRollups(
                into: &summary, changes: changes, full: try end.needsFullRollups(hasEarlierRows: session.isActive))
            try end.record(summary, changes: changes, lastIDs: lastIDs)
        } catch let error as SQLiteError {
            end.target.rollback()
            throw end.runError(error)
        }
        try end.commit(&summary)
        return summary
    }

    /// How many rows of earlier runs this run met a day at a time (SampleWriter+Days.swift).
    package var rowsMetByDay: Int { samples.rowsMetByDay }

    /// The last id each writer gave out, by table.
    private var lastIDs: [(String, Int64)] {
        zip(TrackedTable.sampleTables.map(\.name), samples.lastIDs).map { ($0, $1) }
            + [("correlations", correlations.lastID)] + workouts.lastIDs
            + [("state_of_mind", records.lastStateOfMindID)]
    }

    /// The newest successful run, for the unchanged-input shortcut: its input fingerprint.
    public func lastInputFingerprint() throws -> String? {
        try connection.scalar(
            "SELECT input_fingerprint FROM import_runs WHERE outcome IN ('ok', 'unchanged') ORDER BY id DESC LIMIT 1"
        ).text
    }

    /// Records a run that found the same input as the last successful one, and changes nothing else.
    public func finishUnchanged(_ summary: ImportSummary) throws -> ImportSummary {
        try end.finishUnchanged(summary)
    }

    /// Rolls back, then records the failed run in `import_runs` when the database existed before it.
    public func abort(recording error: Error, summary: ImportSummary) {
        end.abort(recording: error, summary: summary)
    }
}
