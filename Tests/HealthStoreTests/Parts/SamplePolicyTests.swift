import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthStore

/// `SamplePolicy` on its own: where a sample goes, with the database's answers given by a table.
struct SamplePolicyTests {
    /// The database as the policy sees it, and which questions it was asked.
    final class TableLookups: SampleLookups {
        var feed: FeedPlacement = .insert
        /// Identities of rows without a start.
        var withoutStart: Set<Int64> = []
        /// Earlier runs' rows by identity (id), and rows this run stored (identities).
        var earlier: [Int64: Int64] = [:]
        var seen: Set<Int64> = []
        var storedThisRun: Set<Int64> = []
        var syncs: [String: (row: SyncedRow, version: Int64)] = [:]
        var unseenEarlier: Set<Int64> = []
        var asked: [String] = []

        func feedPlacement(of sample: Sample, table: TrackedTable, identity: Int64) throws -> FeedPlacement {
            asked.append("feed")
            return feed
        }

        func hasRowWithoutStart(_ table: TrackedTable, typeID: Int64, identity: Int64) throws -> Bool {
            asked.append("without start \(identity)")
            return withoutStart.contains(identity)
        }

        func matchEarlierRow(_ table: TrackedTable, typeID: Int64, start: Timestamp?, identity: Int64) throws
            -> DuplicateRule.Probe
        {
            asked.append("earlier \(identity)")
            if let id = earlier[identity] { return seen.insert(id).inserted ? .matched(id) : .taken }
            return storedThisRun.contains(identity) ? .taken : .free
        }

        func storedSync(source: String, identifier: String) throws -> (row: SyncedRow, version: Int64)? {
            asked.append("sync \(identifier)")
            return syncs[identifier]
        }

        func isUnseenEarlierRow(_ row: SyncedRow) -> Bool { unseenEarlier.contains(row.id) }
    }

    static func policy(
        dropsDuplicates: Bool = true, keepsHighest: Bool = true, feed: Bool = false, earlierRows: Bool = false
    ) -> SamplePolicy {
        SamplePolicy(
            dropsExactDuplicates: dropsDuplicates, keepsHighestSyncVersion: keepsHighest, isFeed: feed,
            hasEarlierRows: earlierRows)
    }

    static let start = "2024-02-01 08:00:00 +0100"

    static func synced(version: String) -> Sample {
        StoreFixture.sample(
            start: start,
            metadata: [
                MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "s-1"),
                MetadataEntry(key: "HKMetadataKeySyncVersion", value: version),
            ])
    }

    func destination(_ policy: SamplePolicy, _ sample: Sample, identity: Int64 = 100, _ lookups: TableLookups)
        throws -> SamplePolicy.Destination
    {
        try policy.destination(of: sample, table: .cumulative, typeID: 1, identity: identity, lookups: lookups)
    }

    @Test func aFirstImportInsertsWithoutAskingTheDatabase() throws {
        let lookups = TableLookups()
        let sample = StoreFixture.sample(start: Self.start)
        let found = try destination(Self.policy(), sample, lookups)
        #expect(found == .insert(.init(identity: 100, duplicates: DuplicateRule(dropsDuplicates: true))))
        // No sync identifier: nothing to look up; the insert itself is the duplicate check.
        #expect(lookups.asked.isEmpty)
    }

    @Test func aRecordWithoutStartIsLookedUpAndAKeptCopyTakesTheNextIdentity() throws {
        let lookups = TableLookups()
        lookups.withoutStart = [100, 101]
        let sample = StoreFixture.sample(start: nil)
        #expect(try destination(Self.policy(), sample, lookups) == .notStored(.exactDuplicate))
        let kept = try destination(Self.policy(dropsDuplicates: false), sample, lookups)
        #expect(kept == .insert(.init(identity: 102, duplicates: DuplicateRule(dropsDuplicates: false))))
        #expect(lookups.asked == ["without start 100", "without start 100", "without start 101", "without start 102"])
    }

    @Test func aRecordWithUnreadableDatesIsNeverADuplicate() throws {
        let lookups = TableLookups()
        lookups.withoutStart = [100]
        var sample = StoreFixture.sample(start: nil)
        sample.flags.insert(.badDate)
        let found = try destination(Self.policy(dropsDuplicates: true), sample, lookups)
        #expect(found == .insert(.init(identity: 101, duplicates: DuplicateRule(dropsDuplicates: false))))
    }

    @Test func aReimportMatchesEachEarlierRowOnce() throws {
        let lookups = TableLookups()
        lookups.earlier = [100: 7]
        let policy = Self.policy(earlierRows: true)
        let sample = StoreFixture.sample(start: Self.start)
        #expect(try destination(policy, sample, lookups) == .matched(id: 7))
        // The same record again in this export: a duplicate, since its row was met already.
        #expect(try destination(policy, sample, lookups) == .notStored(.exactDuplicate))
        // With duplicates kept, the copy goes on to the next identity, which is free.
        let kept = try destination(Self.policy(dropsDuplicates: false, earlierRows: true), sample, lookups)
        #expect(kept == .insert(.init(identity: 101, duplicates: DuplicateRule(dropsDuplicates: false))))
        // A record without a start is matched like any other in a re-import, not looked up separately.
        #expect(!lookups.asked.contains { $0.hasPrefix("without start") })
    }

    @Test func theHighestSyncVersionWins() throws {
        let lookups = TableLookups()
        let old = SyncedRow(table: .samples(.discrete), id: 5)
        lookups.syncs["s-1"] = (old, 3)
        let policy = Self.policy()
        #expect(try destination(policy, Self.synced(version: "2"), lookups) == .notStored(.superseded))
        #expect(try destination(policy, Self.synced(version: "3"), lookups) == .notStored(.superseded))
        let higher = try destination(policy, Self.synced(version: "4"), lookups)
        #expect(
            higher
                == .insert(
                    .init(
                        identity: 100, duplicates: DuplicateRule(dropsDuplicates: true), replaces: old,
                        sync: SyncKey(identifier: "s-1", version: 4))))
    }

    /// The same version as an earlier run's row this export has not shown: the export's copy replaces it.
    @Test func theSameVersionReplacesAnUnseenEarlierRow() throws {
        let lookups = TableLookups()
        let old = SyncedRow(table: .samples(.cumulative), id: 5)
        lookups.syncs["s-1"] = (old, 3)
        lookups.unseenEarlier = [5]
        let found = try destination(Self.policy(), Self.synced(version: "3"), lookups)
        guard case .insert(let insertion) = found else {
            Issue.record("expected an insert, got \(found)")
            return
        }
        #expect(insertion.replaces == old)
        #expect(insertion.sync == SyncKey(identifier: "s-1", version: 3))
    }

    @Test func withoutTheSyncRuleNothingIsLookedUpOrRemembered() throws {
        let lookups = TableLookups()
        lookups.syncs["s-1"] = (SyncedRow(table: .samples(.cumulative), id: 5), 9)
        let found = try destination(Self.policy(keepsHighest: false), Self.synced(version: "1"), lookups)
        #expect(found == .insert(.init(identity: 100, duplicates: DuplicateRule(dropsDuplicates: true))))
        #expect(lookups.asked.isEmpty)
    }

    @Test func aFeedRunFollowsTheMergeRuleAndNeverMatchesEarlierRuns() throws {
        let lookups = TableLookups()
        lookups.earlier = [100: 7]
        let policy = Self.policy(feed: true, earlierRows: true)
        let sample = StoreFixture.sample(start: Self.start)
        lookups.feed = .skip
        #expect(try destination(policy, sample, lookups) == .notStored(nil))
        lookups.feed = .kept(12)
        #expect(try destination(policy, sample, lookups) == .keptFeedRow(id: 12))
        lookups.feed = .insert
        #expect(
            try destination(policy, sample, lookups)
                == .insert(.init(identity: 100, duplicates: DuplicateRule(dropsDuplicates: true))))
        #expect(lookups.asked == ["feed", "feed", "feed"])
    }

    @Test func syncKeyReadsIdentifierAndVersion() {
        #expect(SyncKey([MetadataEntry(key: "HKMetadataKeySyncVersion", value: "2")]) == nil)
        #expect(
            SyncKey([MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "a")])
                == SyncKey(identifier: "a", version: 0))
        #expect(
            SyncKey([
                MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "a"),
                MetadataEntry(key: "HKMetadataKeySyncVersion", value: "x"),
            ]) == SyncKey(identifier: "a", version: 0))
    }
}
