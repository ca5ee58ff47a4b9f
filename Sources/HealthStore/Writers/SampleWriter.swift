import HealthModel
import HealthSQLite
import HealthSchema

/// The samples: each goes where `SamplePolicy` decides, and a new one is written into its compact table
/// (`SampleRowWriter`) with its metadata and beats. Owns the sample tables' row ids, `type_names`, and the
/// top-level samples a correlation may list again as children (`CorrelationCandidates`). What each write did
/// goes into the caller's `WriteReport`.
final class SampleWriter: SampleLookups {
    private let connection: SQLiteConnection
    let policy: SamplePolicy
    private let origin: RowOrigin
    /// The compact sample tables, by `TrackedTable` raw value (cumulative, discrete, category).
    var rowWriters: [SampleRowWriter]
    /// The last id given out per sample table, by `TrackedTable` raw value.
    private(set) var lastIDs: [Int64]
    /// `type_names`: the id of each sample type.
    var typeNames: NameDictionary
    /// The table decision of the last type seen, and its `type_names` id: exports are grouped by type.
    /// `kind` is nil for types missing from the catalog, whose table depends on each sample's shape.
    private var lastKind: (type: String, kind: TypeCatalog.SampleKind?, correlationChild: Bool, typeID: Int64)?
    private let beats: BeatWriter
    /// Top-level samples that a correlation may list again as children, by identity → (table, id).
    let correlationCandidates: CorrelationCandidates
    private let sync: SyncVersions
    let common: CommonRows
    let session: ReimportSession
    private let feed: FeedMerge
    /// What the feed's merge did while answering `feedPlacement`, a `SampleLookups` question asked inside the
    /// policy, which has no report to pass on: moved into the write's report as soon as the policy returns.
    private var feedReport = WriteReport()
    /// The batch being written: each type's decisions by vocabulary type id (nil: not made yet), and the
    /// roles of its metadata keys (SampleWriter+Batch.swift).
    var batchTypes: [BatchType?] = []
    var batchKeyRoles: [Int8] = []
    /// A re-import's earlier rows of the days met lately (SampleWriter+Days.swift).
    var earlierDays = EarlierDays()
    /// How many rows were met by day, not looked up one by one (the tests ask).
    var rowsMetByDay = 0

    init(
        _ connection: SQLiteConnection, policy: SamplePolicy, lastIDs: LastRowIDs, hadData: Bool,
        statements: SchemaStatements, common: CommonRows, session: ReimportSession, feed: FeedMerge
    ) throws {
        self.connection = connection
        self.policy = policy
        origin = policy.isFeed ? .feed : .export
        rowWriters = try TrackedTable.sampleTables.map { try SampleRowWriter(connection, table: $0) }
        self.lastIDs = TrackedTable.sampleTables.map { lastIDs[$0] }
        typeNames = try NameDictionary(connection, table: "type_names", column: "type", hadData: hadData)
        beats = try BeatWriter(connection)
        correlationCandidates = try CorrelationCandidates(connection)
        sync = SyncVersions(statements)
        self.common = common
        self.session = session
        self.feed = feed
    }

    /// Correlation children are listed again at top level; only the types that can be children are
    /// remembered (blood pressure and dietary), which keeps the map small.
    static func mayBeCorrelationChild(_ type: String) -> Bool {
        type.hasPrefix("HKQuantityTypeIdentifierDietary") || type.hasPrefix("HKQuantityTypeIdentifierBloodPressure")
    }

    /// A sample at the top level of the export.
    func writeTopLevel(_ sample: Sample, identity: Int64? = nil, into report: inout WriteReport) throws {
        let identity = identity ?? SampleIdentity.fingerprint(sample)
        guard let (table, id) = try write(sample, identity: identity, into: &report) else { return }
        if lastKind?.correlationChild == true {
            try correlationCandidates.remember(identity, (table, id))
        }
    }

    /// The row of a correlation's child: the top-level sample it repeats, else the child stored here (not
    /// repeated at top level, against the format's rule). Nil when it is not stored.
    func correlationChild(_ child: Sample, identity: Int64, into report: inout WriteReport) throws
        -> (table: TrackedTable, id: Int64)?
    {
        if let existing = try correlationCandidates[identity] { return existing }
        guard let (table, id) = try write(child, identity: identity, into: &report) else { return nil }
        try correlationCandidates.remember(identity, (table, id))
        return (table, id)
    }

    /// Writes one sample with its metadata and beats; returns its table and id, or nil when it was not
    /// stored (an exact duplicate, or an older sync version). In a re-import, a sample already in the
    /// database is only looked up, never written.
    func write(_ sample: Sample, identity: Int64, into report: inout WriteReport) throws -> (TrackedTable, Int64)? {
        let (table, typeID) = try kind(of: sample, into: &report)
        return try write(sample, table: table, typeID: typeID, identity: identity, into: &report)
    }

    /// Writes one sample (a `Sample` or a batch's row) of a table and type decided by the caller.
    @inline(__always) func write<Fields: SampleFields>(
        _ sample: Fields, table: TrackedTable, typeID: Int64, identity: Int64, into report: inout WriteReport
    ) throws -> (TrackedTable, Int64)? {
        // The feed's facts reach this item's report also when the policy throws after the feed placed it.
        defer {
            if policy.isFeed {
                report.add(feedReport)
                feedReport = WriteReport()
            }
        }
        let destination = try policy.destination(
            of: sample, table: table, typeID: typeID, identity: identity, lookups: self)
        switch destination {
        case .notStored(let reason):
            if let reason { report.drop(reason) }
            return nil
        case .keptFeedRow(let id):
            return (table, id)
        case .matched(let id):
            report.countUnchanged(
                table, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate,
                creation: sample.creationDate)
            return (table, id)
        case .insert(let insertion):
            return try insert(sample, table: table, typeID: typeID, insertion, into: &report)
        }
    }

    /// The sample's table and type id; a type missing from the catalog is reported.
    @inline(__always) private func kind(of sample: Sample, into report: inout WriteReport) throws
        -> (TrackedTable, Int64)
    {
        if lastKind?.type != sample.type {
            let known = TypeCatalog.isKnown(sample.type) ? TypeCatalog.kind(of: sample) : nil
            lastKind = (sample.type, known, Self.mayBeCorrelationChild(sample.type), try typeNames.id(of: sample.type))
        }
        // swift-format-ignore: NeverForceUnwrap
        // Set just above.
        let current = lastKind!
        if current.kind == nil { report.noteUnknownType(sample.type) }
        return (Self.table(current.kind ?? TypeCatalog.kind(of: sample)), current.typeID)
    }

    @inline(__always) static func table(_ kind: TypeCatalog.SampleKind) -> TrackedTable {
        switch kind {
        case .cumulative: .cumulative
        case .discrete: .discrete
        case .category: .category
        }
    }

    private func insert<Fields: SampleFields>(
        _ sample: Fields, table: TrackedTable, typeID: Int64, _ insertion: SamplePolicy.Insertion,
        into report: inout WriteReport
    ) throws -> (TrackedTable, Int64)? {
        var replacing = false
        if let replaced = insertion.replaces { replacing = try session.replaceSample(replaced, into: &report) }
        let index = table.rawValue
        lastIDs[index] += 1
        let id = lastIDs[index]
        let sourceID = try common.writeSource(sample.source, into: &report)
        let localDay = (sample.startDate ?? sample.endDate).map {
            common.day(of: $0, zoneName: sample.metadataValue(.timeZone))
        }
        let userEntered = sample.hasMetadata(.userEntered, value: "1")
        let flags = Int64(sample.flags.rawValue) | (userEntered ? Self.userEnteredFlag : 0)
        rowWriters[index].bind(
            sample, id: id, typeID: typeID, sourceID: sourceID, localDay: localDay, flags: flags, origin: origin)
        // The insert is the look-up: the UNIQUE (type_id, start_date, identity) index refuses a taken identity.
        let placement = try insertion.duplicates.place(insertion.identity) { candidate in
            try rowWriters[index].store(identity: candidate, connection) ? .free : .taken
        }
        guard case .free(let identity) = placement else {
            report.drop(.exactDuplicate)
            lastIDs[index] -= 1  // the id was not used
            return nil
        }
        report.count(WrittenTable(table))
        report.countInserted(
            table, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate,
            creation: sample.creationDate, replacing: replacing)
        if let key = insertion.sync {
            try sync.remember(source: sample.source.name, key: key, row: SyncedRow(table: .samples(table), id: id))
        }
        try sample.writeMetadata(common, parent: MetadataParent(table), id: id, into: &report)
        let beatCount = try sample.writeBeats(beats, sampleID: id)
        if beatCount > 0 { report.count(.hrvBeats, beatCount) }
        return (table, id)
    }

    /// The `flags` bit of samples entered by hand; set here rather than in `SampleFlags`, which lists problems.
    static let userEnteredFlag: Int64 = 512

    // MARK: SampleLookups, from the database

    func feedPlacement(of sample: Sample, table: TrackedTable, identity: Int64) throws -> FeedPlacement {
        try feed.place(sample, table: table, identity: identity, into: &feedReport)
    }

    func hasRowWithoutStart(_ table: TrackedTable, typeID: Int64, identity: Int64) throws -> Bool {
        try rowWriters[table.rawValue].find(typeID: typeID, start: nil, identity: identity) != nil
    }

    func matchEarlierRow(_ table: TrackedTable, typeID: Int64, start: Timestamp?, identity: Int64) throws
        -> DuplicateRule.Probe
    {
        guard let id = try rowWriters[table.rawValue].find(typeID: typeID, start: start, identity: identity) else {
            return .free
        }
        // A question answered at once, not a report: whether the row is still free decides where the sample
        // goes, and a second identical sample must find it taken.
        return session.markSeen(table, id: id) ? .matched(id) : .taken
    }

    func storedSync(source: String, identifier: String) throws -> (row: SyncedRow, version: Int64)? {
        try sync.stored(source: source, identifier: identifier)
    }

    func isUnseenEarlierRow(_ row: SyncedRow) -> Bool {
        guard case .samples(let table) = row.table else { return false }
        return session.isUnseenEarlierRow(table, id: row.id)
    }
}
