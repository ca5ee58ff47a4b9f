import Foundation
import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// Writers report, the front applies: a `WriteReport` applied (`SQLiteSink.apply`) gives the run's tally and the
/// session's ledger their values, and a writer's report says what the write did.
struct WriteReportTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let start = "2024-02-01 08:00:00 +0100"

    @Test func anAppliedReportGivesTheTallyAndTheLedgerTheirValues() throws {
        let store = try StoreFixture()
        let session = try ReimportSession(store.connection, lastIDs: nil, runID: 1)
        let tally = RunTally()
        let at = Timestamp.parse(Self.start)
        var report = WriteReport()
        report.count(.cumulativeSamples, 2)
        report.count(.sources)
        report.count(.metadata, 3)
        report.drop(.exactDuplicate)
        report.warn(.documentNotStored("a.xml: too large"))
        report.warn(.documentNotStored("a.xml: too large"))
        report.noteUnknownType("HKQuantityTypeIdentifierNew")
        report.countInserted(
            .cumulative, type: Self.steps, identity: 1, start: at, end: at, creation: nil, replacing: false)
        report.countInserted(
            .cumulative, type: Self.steps, identity: 2, start: at, end: at, creation: nil, replacing: true)
        report.countUnchanged(.cumulative, type: Self.steps, identity: 3, start: at, end: at, creation: nil)
        report.countUnchanged(
            .workouts, type: "HKWorkoutActivityTypeRunning", identity: 4, startSeconds: nil, endSeconds: nil,
            creationSeconds: nil)
        #expect(report.ledger.count == 4)
        SQLiteSink.apply(report, to: tally, session: session)
        // A second item's report adds to the first's.
        var second = WriteReport()
        second.count(.cumulativeSamples)
        second.drop(.exactDuplicate)
        second.noteUnknownType("HKQuantityTypeIdentifierNew")
        SQLiteSink.apply(second, to: tally, session: session)

        #expect(tally.rows.byName == ["cumulative_samples": 3, "sources": 1, "metadata": 3])
        #expect(tally.drops.bySummaryKey == ["exact duplicate records": 2])
        #expect(tally.warnings == ["document not stored: a.xml: too large": 2])
        #expect(tally.unknownTypes == ["HKQuantityTypeIdentifierNew": 2])
        let changes = session.closeLedger()
        let steps = try #require(changes[Self.steps])
        #expect((steps.added, steps.replaced, steps.unchanged, steps.deleted) == (1, 1, 1, 0))
        #expect(steps.rows == 3)
        #expect(steps.earliestChange == at?.seconds)
        // Workouts are one type to the ledger, whatever their activity.
        #expect(changes[TrackedTable.workoutType]?.unchanged == 1)
    }

    /// The counters are inline: one per table and per reason, whatever is added later.
    @Test func theCountersHoldEveryTableAndReason() {
        #expect(RowCounts().capacity == WrittenTable.allCases.count)
        #expect(DropCounts().capacity == DropReason.allCases.count)
    }

    @Test func aListHoldsItsElementsInOrder() {
        var list = SmallList<Int>()
        #expect(list.isEmpty && list.count == 0)
        for number in 1...3 { list.append(number) }
        #expect(Array(list) == [1, 2, 3] && list.count == 3)
    }

    /// The parts of a first import's sample writer, over an empty database or one `StoreFixture` imported.
    static func sampleWriter(_ store: StoreFixture, earlier: Bool) throws -> SampleWriter {
        let connection = store.connection
        let lastIDs = earlier ? try LastRowIDs(connection) : LastRowIDs()
        let session = try ReimportSession(connection, lastIDs: earlier ? lastIDs : nil, runID: 2)
        let policy = SamplePolicy(
            dropsExactDuplicates: true, keepsHighestSyncVersion: true, isFeed: false, hasEarlierRows: earlier)
        return try SampleWriter(
            connection, policy: policy, lastIDs: lastIDs, hadData: earlier, statements: SchemaStatements(connection),
            common: CommonRows(connection, hadData: earlier, timeZone: TimeZone(identifier: "Europe/Berlin")!),
            session: session, feed: FeedMerge(connection, isFeed: false, session: session))
    }

    @Test func aSampleWriterReportsTheRowsItWroteAndTheRecordsItDropped() throws {
        let store = try StoreFixture()
        let writer = try Self.sampleWriter(store, earlier: false)
        let sample = StoreFixture.sample(
            start: Self.start, metadata: [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "1")])
        var report = WriteReport()
        try writer.writeTopLevel(sample, into: &report)
        #expect(report.rows.byName == ["cumulative_samples": 1, "sources": 1, "metadata": 1])
        #expect(report.drops.bySummaryKey.isEmpty)
        let facts = Array(report.ledger)
        #expect(facts.map(\.kind) == [.added])
        #expect(facts.first?.type == Self.steps && facts.first?.start == sample.startDate?.seconds)
        // The writer wrote the row; it counted nothing anywhere but in the report.
        #expect(try store.integer("SELECT count(*) FROM cumulative_rows") == 1)

        var again = WriteReport()
        try writer.writeTopLevel(sample, into: &again)
        #expect(again.rows.byName.isEmpty)
        #expect(again.drops[.exactDuplicate] == 1)
        #expect(again.ledger.isEmpty)

        var unknown = WriteReport()
        try writer.writeTopLevel(
            StoreFixture.sample("HKQuantityTypeIdentifierNotInTheCatalog", start: Self.start), into: &unknown)
        #expect(Array(unknown.unknownTypes) == ["HKQuantityTypeIdentifierNotInTheCatalog"])
    }

    /// In a re-import, a sample an earlier run stored is met: reported unchanged, nothing written.
    @Test func aMatchedSampleIsReportedUnchanged() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let writer = try Self.sampleWriter(store, earlier: true)
        let sample = StoreFixture.sample(start: Self.start, value: 5)
        var report = WriteReport()
        try writer.writeTopLevel(sample, into: &report)
        #expect(report.rows.byName.isEmpty)
        #expect(report.ledger.map(\.kind) == [.unchanged])
        #expect(try store.integer("SELECT count(*) FROM cumulative_rows") == 3)
    }
}
