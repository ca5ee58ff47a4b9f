import HealthModel
import HealthSchema

/// What the sample policy asks of the database. `SampleWriter` answers from SQLite; a test can answer from a
/// table of its own.
protocol SampleLookups: AnyObject {
    /// A feed run: where the feed's merge rule puts the point (FeedMerge.swift).
    func feedPlacement(of sample: Sample, table: TrackedTable, identity: Int64) throws -> FeedPlacement
    /// Whether a row of this type, with no start, holds `identity`.
    func hasRowWithoutStart(_ table: TrackedTable, typeID: Int64, identity: Int64) throws -> Bool
    /// A re-import: trying `identity` against the rows of the table (an earlier run's row not met yet is this
    /// sample again, and is marked met).
    func matchEarlierRow(_ table: TrackedTable, typeID: Int64, start: Timestamp?, identity: Int64) throws
        -> DuplicateRule.Probe
    /// The row stored for a sync identifier of an app, and its version.
    func storedSync(source: String, identifier: String) throws -> (row: SyncedRow, version: Int64)?
    /// Whether the row is an earlier run's that this export has not shown (yet).
    func isUnseenEarlierRow(_ row: SyncedRow) -> Bool
}

/// Where a sample (a `Sample` or a batch's row: `SampleFields`) goes, decided before its row is written, by the rules in the order they apply: the feed's
/// merge rule (feed runs), the look-up of a record without a start (a new database, whose UNIQUE index sees
/// NULL starts as all different), the match against earlier runs (a re-import), and the sync version
/// (`SyncDecision`). The exact-duplicate rule (`DuplicateRule`) runs inside each look-up, and once more as the
/// insert itself (`SampleWriter`), where the UNIQUE index answers.
struct SamplePolicy {
    /// Store one copy of records that say exactly the same thing (a record whose dates cannot be read is
    /// never anyone's duplicate).
    let dropsExactDuplicates: Bool
    /// Keep only the highest `HKMetadataKeySyncVersion` per app and sync identifier.
    let keepsHighestSyncVersion: Bool
    /// A run of Health Auto Export's feed.
    let isFeed: Bool
    /// The database holds rows of earlier runs.
    let hasEarlierRows: Bool

    enum Destination: Equatable {
        /// Not stored, counted under `reason` (nil: left out by the feed's rule, which counts it).
        case notStored(DropReason?)
        /// A feed row that says the same already (the feed's merge counted it).
        case keptFeedRow(id: Int64)
        /// An earlier run's row that this sample is again: nothing is written.
        case matched(id: Int64)
        /// Written as a new row.
        case insert(Insertion)
    }

    struct Insertion: Equatable {
        /// The identity to try first; with duplicates kept, the insert tries the next ones.
        var identity: Int64
        var duplicates: DuplicateRule
        /// The row that the sample's sync version takes the place of: removed before the insert.
        var replaces: SyncedRow?
        /// The sync identifier to remember for the new row.
        var sync: SyncKey?
    }

    @inline(__always)
    func destination<Fields: SampleFields, Lookups: SampleLookups>(
        of sample: Fields, table: TrackedTable, typeID: Int64, identity fingerprint: Int64,
        lookups: Lookups
    ) throws -> Destination {
        var identity = fingerprint
        // A record whose dates cannot be read is never anyone's duplicate: its fingerprint lacks the dates, so
        // records that differ only in them would collide. Each copy is kept with the next free identity, as
        // with --keep-duplicates.
        let duplicates = DuplicateRule(dropsDuplicates: dropsExactDuplicates && !sample.flags.contains(.badDate))
        if isFeed {
            switch try lookups.feedPlacement(of: sample.asSample, table: table, identity: identity) {
            case .skip: return .notStored(nil)
            case .kept(let id): return .keptFeedRow(id: id)
            case .insert: break
            }
        }
        if !hasEarlierRows, sample.startDate == nil {
            // The UNIQUE index treats NULL starts as all different; look such a record up as a re-import does,
            // and give a kept copy the next free identity there too, so that a re-import meets them one by one.
            let placement = try duplicates.place(identity) { candidate in
                try lookups.hasRowWithoutStart(table, typeID: typeID, identity: candidate) ? .taken : .free
            }
            guard case .free(let free) = placement else { return .notStored(.exactDuplicate) }
            identity = free
        }
        if hasEarlierRows, !isFeed {
            let start = sample.startDate
            switch try duplicates.place(
                identity,
                probe: { candidate in
                    try lookups.matchEarlierRow(table, typeID: typeID, start: start, identity: candidate)
                })
            {
            case .matched(let id): return .matched(id: id)
            case .duplicate: return .notStored(.exactDuplicate)
            case .free(let free): identity = free
            }
        }
        guard keepsHighestSyncVersion, let sync = SyncKey(sample) else {
            return .insert(Insertion(identity: identity, duplicates: duplicates))
        }
        var replaces: SyncedRow?
        let stored = try lookups.storedSync(source: sample.source.name, identifier: sync.identifier)
        switch SyncDecision(stored: stored, version: sync.version) {
        case .keep: break
        case .drop(let old, let version) where version == sync.version && lookups.isUnseenEarlierRow(old):
            // The same version saying something else than an earlier run's row, which this export has not
            // shown (yet): the export's copy is the current one. Dropping it would lose the sample when the
            // old row turns out to be gone.
            replaces = old
        case .drop: return .notStored(.superseded)
        case .replace(let old): replaces = old
        }
        return .insert(Insertion(identity: identity, duplicates: duplicates, replaces: replaces, sync: sync))
    }
}
