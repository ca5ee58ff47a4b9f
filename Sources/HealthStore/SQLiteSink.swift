import Foundation
import HealthModel
import HealthSQLite

/// Writes export items into the SQLite schema (`Schema`), in one transaction per run.
///
/// A front: it opens the database, routes each item to the code that writes its rows, and orders the end of
/// a run. The rows of the large tables go through writers that own their statements (`SampleRowWriter`,
/// `MetadataWriter`, `BeatWriter`, `RoutePointWriter`); the rest through `SchemaStatements`, all bound by
/// column name.
public final class SQLiteSink {
    let target: SQLiteTarget
    package var connection: SQLiteConnection { target.connection }
    var localDates: LocalDateResolver
    let statements: SchemaStatements
    var ids = RowIDs()
    /// Top-level samples that a correlation may list again as children, by identity → (table, id).
    let correlationCandidates: CorrelationCandidates
    public let options: Options
    /// Records not stored, by reason: every dropped record is counted.
    var drops = DropCounts()
    /// `drops` by the summary's keys (`ImportSummary.dropped`).
    public var dropped: [String: Int] { drops.bySummaryKey }
    /// Counted warnings of the sink's own (a document it could not store), merged into the run's.
    public internal(set) var warnings: [String: Int] = [:]
    /// Types missing from the catalog (new iOS versions, `HKDataType…` names), stored by the fallback rule.
    public internal(set) var unknownTypes: [String: Int] = [:]

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
        /// A run of Health Auto Export's feed: rows are marked `origin` 1 and merged by the feed's rule, and
        /// nothing else of the database is touched (FeedMerge.swift, docs/incremental.md).
        public var feed = false
        public init() {}
    }
    /// Counts of rows written, by table.
    private(set) var rowCounts = RowCounts()
    /// Rows written, by public table (`ImportSummary.rows`).
    public var rowsByTable: [String: Int] { rowCounts.byName }
    /// The `sources` rows, and the row id of each of the decoder's source ids.
    var sources: SourceTable
    /// Deletions, replacements and superseded routes: rows out, archived in `deleted_samples` when earlier.
    let remover: RowRemover
    /// The table decision of the last type seen, and its `type_names` id: exports are grouped by type.
    /// `kind` is nil for types missing from the catalog, whose table depends on each sample's shape.
    var lastKind: (type: String, kind: TypeCatalog.SampleKind?, correlationChild: Bool, typeID: Int64)?
    /// The compact sample tables, by `TrackedTable` raw value (cumulative, discrete, category).
    var sampleWriters: [SampleRowWriter]
    var metadataWriter: MetadataWriter
    let beatWriter: BeatWriter
    let pointWriter: RoutePointWriter
    /// `type_names`: the id of each sample type.
    var typeNames: NameDictionary

    /// This run moved a database of an earlier schema version to this one (its commit then compacts the file).
    var upgradedSchema = false
    /// More than a quarter of the file is free pages at the end of the run (see `isMostlyFreeSpace`).
    var mostlyFreeSpace = false
    /// Matching against the rows of earlier runs (an empty state for a new database).
    var previous = PreviousState()
    /// What this run did, per type: counts, fingerprints, earliest changes.
    var ledger = ChangeLedger()
    let lookups: ReimportStatements
    /// `import_runs`, its changes, the anchors and settings, written at the end of the run.
    let runs: RunRecorder
    /// The zone `local_date` is computed in: the one asked for, else the database's, else the machine's.
    public let timeZone: TimeZone
    /// The feed's merge state (FeedMerge.swift): the cutoff, this file's spans; also used by an export run to
    /// retire the feed rows it covers.
    var feedMerge: FeedMerge

    /// Opens (or creates) the database and takes its lock. `timeZone` nil means: keep the zone the database
    /// was built with; if a different zone is asked for, every `local_date` is recomputed in it.
    public init(
        path: String, timeZone: TimeZone?, options: Options = Options(), lockTimeoutMilliseconds: Int32 = 10_000
    ) throws {
        self.options = options
        target = try SQLiteTarget(path: path, lockTimeoutMilliseconds: lockTimeoutMilliseconds)
        do {
            let (hadData, upgraded) = try Self.prepareSchema(target.connection, isNew: target.isNew)
            upgradedSchema = upgraded
            let stored = try Self.storedTimeZone(target.connection)
            previous.storedTimeZone = stored?.identifier
            self.timeZone = timeZone ?? stored ?? TimeZone.current
            localDates = LocalDateResolver(timeZone: self.timeZone)
            if hadData, let stored, stored.identifier != self.timeZone.identifier {
                try Self.recomputeLocalDates(target.connection, timeZone: self.timeZone)
            }
            statements = try SchemaStatements(target.connection)
            let connection = target.connection
            sampleWriters = try TrackedTable.sampleTables.map { try SampleRowWriter(connection, table: $0) }
            metadataWriter = try MetadataWriter(target.connection, hadData: hadData)
            beatWriter = try BeatWriter(target.connection)
            pointWriter = try RoutePointWriter(target.connection)
            typeNames = try NameDictionary(target.connection, table: "type_names", column: "type", hadData: hadData)
            lookups = try ReimportStatements(target.connection)
            correlationCandidates = try CorrelationCandidates(target.connection)
            runs = try RunRecorder(target.connection, hadData: hadData)
            sources = try SourceTable(target.connection, hadData: hadData)
            remover = try RowRemover(target.connection, runID: runs.runID)
            feedMerge = try FeedMerge(target.connection)
            if hadData {
                try loadPreviousState()
                try checkUnitSetting()
            }
        } catch let error as ImportError {
            target.rollback()
            throw error.located(file: path, entry: nil)
        } catch {
            target.rollback()
            throw ImportError(.output, "cannot prepare the database: \(error)", file: path)
        }
    }

    /// Creates the schema in a new (or empty) database, or checks an existing one; migrates a version-1
    /// database by rebuilding its data tables (the run then refills them), a version-2 one by adding what
    /// version 3 added (the run then fills it). Returns whether the database
    /// holds data of earlier runs to match against.
    static func prepareSchema(_ connection: SQLiteConnection, isNew: Bool) throws -> (hadData: Bool, upgraded: Bool) {
        if isNew {
            // Indexes before the load rather than after: rows arrive grouped by type and in time order within
            // a type, so keeping these indexes up to date is nearly sequential and runs while the other thread
            // decodes, instead of a single-threaded sort at the end.
            try Schema.createTables(connection)
            try Schema.createIndexes(connection)
            return (false, false)
        }
        switch try SchemaState(of: connection) {
        case .empty:
            return try prepareSchema(connection, isNew: true)
        case .current:
            return (true, false)
        case .older(1):
            try SchemaMigration.fromVersion1(connection)
            return (true, false)
        case .older(2):
            try SchemaMigration.fromVersion2(connection)
            try SchemaMigration.fromVersion3(connection)
            try SchemaMigration.fromVersion4(connection)
            return (true, true)
        case .older(3):
            try SchemaMigration.fromVersion3(connection)
            try SchemaMigration.fromVersion4(connection)
            return (true, true)
        case .older(4):
            try SchemaMigration.fromVersion4(connection)
            return (true, false)
        case .older(let version), .newer(let version):
            throw ImportError(
                .output,
                "the database was not written by this version of healthetl (user_version \(version), expected "
                    + "\(Schema.userVersion))", hint: "import into a new file")
        case .foreign:
            // Another application's SQLite file, never to be written into.
            throw ImportError(
                .output, "not a healthetl database (it holds another application's tables)",
                hint: "import into a new file")
        }
    }

    public func write(_ item: ExportItem) throws { try write(item, sampleIdentity: nil) }

    /// `write`, with a sample's `SampleIdentity.fingerprint` when it was computed already (by the decoding
    /// thread, which has time to spare in a first import).
    public func write(_ item: ExportItem, sampleIdentity: Int64?) throws {
        do {
            if previous.isActive, !previous.snapshotsCleared, !options.feed { try clearSnapshotTables() }
            try writeItem(item, sampleIdentity: sampleIdentity)
        } catch let error as SQLiteError {
            throw runError(error)
        }
    }

    /// Whether more than a quarter of the file is free pages (after a schema upgrade, or a run that deleted
    /// much): the commit then compacts it.
    static func isMostlyFreeSpace(_ connection: SQLiteConnection) throws -> Bool {
        let free = try connection.scalar("PRAGMA freelist_count").integer ?? 0
        let total = try connection.scalar("PRAGMA page_count").integer ?? 0
        return free > 64 && free * 4 > total
    }

    /// Whether this run updates a database that earlier runs wrote (most samples are then only looked up).
    public var updatesExistingDatabase: Bool { previous.isActive }

    public func finish(_ summary: ImportSummary) throws -> ImportSummary {
        var summary = summary
        do {
            try finishFeedMerge(&summary)  // Health Auto Export feed (FeedMerge.swift)
            if !options.feed {
                try remover.removeUnseenRows(previous: &previous, scope: options.scope, ledger: &ledger)
            }
            ledger.flush()
            summary.changes = ledger.changes.filter {
                $0.value.added + $0.value.replaced + $0.value.deleted + $0.value.unchanged > 0
            }
            try connection.execute("DELETE FROM workout_duplicates")
            let linked = try linkProbableDuplicateWorkouts()
            if linked > 0 {
                summary.stages["dedup", default: [:]]["workouts linked as probable duplicates (kept)"] = linked
            }
            try WorkoutTotals.fill(connection)
            try WorkoutTotals.updateLocalStarts(connection, timeZone: timeZone, onlyMissing: true)
            try DataTypesTable.rebuild(connection)
            summary.timeZone = timeZone.identifier
            try rebuildRollups(into: &summary, full: try needsFullRollups())
            // A feed run sees only part of each type: its fingerprints would not be the type's (FeedMerge.swift).
            if !options.feed {
                try runs.writeAnchors(ledger.changes, exportDate: summary.exportDate, scope: options.scope)
            }
            try runs.writeRun(summary)
            try runs.writeChanges(ledger.changes)
            try runs.writeSetting("time_zone", timeZone.identifier)
            try runs.writeSetting("units", options.convertsUnits ? "converted" : "as exported")
            try runs.writeLastIDs(ids)
            // A sampled ANALYZE: enough for the query planner, and fast on a multi-GB database.
            try connection.execute("PRAGMA analysis_limit = 1000; ANALYZE")
            mostlyFreeSpace = try Self.isMostlyFreeSpace(connection)
        } catch let error as SQLiteError {
            target.rollback()
            throw runError(error)
        }
        let logLeft = try target.commit(compact: upgradedSchema || mostlyFreeSpace)
        if let failure = target.compactionFailure {
            summary.warnings[StoreWarning.notCompacted(failure).summaryKey] = 1
        }
        if logLeft > 0 {
            let name = (target.path as NSString).lastPathComponent
            summary.warnings[StoreWarning.logNotEmptied(databaseName: name).summaryKey] = Int(logLeft)
        }
        return summary
    }

    /// An SQLite failure during the run as the user sees it: a statement that a signal stopped
    /// (`sqlite3_interrupt`, in any phase: the load, the rollups, the bookkeeping) is the interruption, not a
    /// fault of the database.
    func runError(_ error: SQLiteError) -> ImportError {
        Interruption.error(file: target.path) ?? ImportError(.output, "\(error)", file: target.path)
    }

    /// Rolls back, then records the failed run in `import_runs` when the database existed before it (a new
    /// one is simply not created). Recording is best effort: the error that ended the run matters more.
    public func abort(recording error: Error, summary: ImportSummary) {
        target.rollback()
        defer { target.close() }
        guard !target.isNew else { return }
        do {
            try target.beginRecord()
            var summary = summary
            summary.outcome = (error as? ImportError)?.kind == .refused ? "refused" : "failed"
            summary.error = "\(error)"
            try runs.writeRun(summary)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
        }
    }

    @inline(__always) func count(_ table: WrittenTable, _ increment: Int = 1) { rowCounts.add(table, increment) }

    func warn(_ warning: StoreWarning, count: Int = 1) { warnings[warning.summaryKey, default: 0] += count }
}

/// Row ids assigned by the sink, so children can reference parents without asking SQLite.
struct RowIDs {
    var cumulative: Int64 = 0
    var discrete: Int64 = 0
    var category: Int64 = 0
    var correlation: Int64 = 0
    var workout: Int64 = 0
    var event: Int64 = 0
    var activity: Int64 = 0
    var statistic: Int64 = 0
    var route: Int64 = 0
    var summary: Int64 = 0
    var ecg: Int64 = 0
    var clinical: Int64 = 0
    var audiogram: Int64 = 0
    var vision: Int64 = 0
    var stateOfMind: Int64 = 0
}

/// Memory for formatting dates, owned by an object so it is freed even when the sink's init throws (a
/// property allocated in place would leak then: deinit does not run for a half-initialised class).
final class ScratchBuffer {
    let bytes: UnsafeMutablePointer<UInt8>
    init(byteCount: Int) { bytes = .allocate(capacity: byteCount) }
    deinit { bytes.deallocate() }
}
