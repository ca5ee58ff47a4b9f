import Foundation

/// Writes export items into the SQLite schema (`Schema`), in one transaction per run.
///
/// Statements are prepared once and reused for every row; dates are formatted into a scratch buffer and
/// bound without creating `String`s.
public final class SQLiteSink: ExportSink {
    let target: SQLiteTarget
    var connection: SQLiteConnection { target.connection }
    var localDates: LocalDateResolver
    let statements: SchemaStatements
    var ids = RowIDs()
    /// Top-level samples that a correlation may list again as children, by identity → (table, id).
    var correlationCandidates: [Int64: (table: String, id: Int64)] = [:]
    public let options: Options
    /// Records not stored, by reason: every dropped record is counted.
    public internal(set) var dropped: [String: Int] = [:]
    /// Types missing from the catalog (new iOS versions, `HKDataType…` names), stored by the fallback rule.
    public internal(set) var unknownTypes: [String: Int] = [:]

    /// What the sink does with duplicates (the dedup stage's switches).
    public struct Options: Sendable {
        /// Store one copy of records that say exactly the same thing.
        public var dropExactDuplicates = true
        /// Keep only the highest `HKMetadataKeySyncVersion` per app and sync identifier.
        public var keepHighestSyncVersion = true
        public init() {}
    }
    /// Counts of rows written, by table.
    public private(set) var rowCounts: [String: Int] = [:]
    var writtenSources: [Bool] = []
    var utcWriter = TimestampFormatting.CachedUTCWriter()
    /// The table decision of the last type seen: exports are grouped by type.
    /// `kind` is nil for types missing from the catalog, whose table depends on each sample's shape.
    var lastKind: (type: String, kind: TypeCatalog.SampleKind?, correlationChild: Bool)?
    var lastOffset: (seconds: Int32, text: String) = (Int32.min, "")
    private let scratchBuffer = ScratchBuffer(byteCount: 16 * 32)
    var scratch: UnsafeMutablePointer<UInt8> { scratchBuffer.bytes }

    public init(
        path: String, timeZone: TimeZone, options: Options = Options(), lockTimeoutMilliseconds: Int32 = 10_000
    ) throws {
        self.options = options
        target = try SQLiteTarget(path: path, lockTimeoutMilliseconds: lockTimeoutMilliseconds)
        localDates = LocalDateResolver(timeZone: timeZone)
        do {
            try Self.prepareSchema(target.connection, isNew: target.isNew)
            statements = try SchemaStatements(target.connection)
        } catch let error as ImportError {
            target.rollback()
            throw error
        } catch {
            target.rollback()
            throw ImportError(.output, "cannot prepare the database: \(error)", file: path)
        }
    }


    /// Creates the schema in a new database. An existing one must carry this version's schema; until
    /// incremental imports land, its data tables are emptied and refilled inside the same transaction, so a
    /// re-import replaces the previous data atomically instead of duplicating it.
    static func prepareSchema(_ connection: SQLiteConnection, isNew: Bool) throws {
        if isNew {
            for table in Schema.tables { try connection.execute(table.createSQL) }
            for view in Schema.views { try connection.execute(view) }
            // Created before the load rather than after: rows arrive grouped by type and in time order within a
            // type, so keeping these indexes up to date is nearly sequential and runs while the other thread
            // decodes, instead of a single-threaded sort at the end.
            for index in Schema.indexes { try connection.execute(index) }
            try connection.execute("PRAGMA user_version = \(Schema.userVersion)")
            return
        }
        let version = try connection.scalar("PRAGMA user_version")
        let tableCount = try connection.scalar("SELECT count(*) FROM sqlite_master")
        if version == .integer(0), tableCount == .integer(0) {
            try prepareSchema(connection, isNew: true)
            return
        }
        guard version == .integer(Int64(Schema.userVersion)) else {
            throw ImportError(
                .output,
                "the database was not written by this version of healthetl (user_version \(version), expected "
                    + "\(Schema.userVersion))", hint: "import into a new file")
        }
        for table in Schema.tables where table.name != "import_runs" && table.name != "import_warnings" {
            try connection.execute("DELETE FROM \"\(table.name)\"")
        }
    }

    public func write(_ item: ExportItem) throws {
        do {
            try writeItem(item)
        } catch let error as SQLiteError {
            throw ImportError(.output, "\(error)", file: target.path)
        }
    }

    public func finish(_ summary: ImportSummary) throws -> ImportSummary {
        var summary = summary
        do {
            let linked = try linkProbableDuplicateWorkouts()
            if linked > 0 { summary.stages["dedup", default: [:]]["workouts linked as probable duplicates (kept)"] = linked }
            try writeRun(summary)
            // A sampled ANALYZE: enough for the query planner, and fast on a multi-GB database.
            try connection.execute("PRAGMA analysis_limit = 1000; ANALYZE")
        } catch let error as SQLiteError {
            target.rollback()
            throw ImportError(.output, "\(error)", file: target.path)
        }
        try target.commit()
        return summary
    }

    public func abort() { target.rollback() }

    func count(_ table: String, _ increment: Int = 1) { rowCounts[table, default: 0] += increment }
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
