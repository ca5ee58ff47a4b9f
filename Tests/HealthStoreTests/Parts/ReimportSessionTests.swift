import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `ReimportSession` over a database one import wrote: three step counts (ids 1–3) and a heart rate (id 1).
struct ReimportSessionTests {
    static func session(_ store: StoreFixture) throws -> ReimportSession {
        try ReimportSession(store.connection, lastIDs: try LastRowIDs(store.connection), runID: 2)
    }

    @Test func eachEarlierRowIsMetOnce() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let session = try Self.session(store)
        #expect(session.isActive)
        #expect(session.markSeen(.cumulative, id: 2))
        #expect(!session.markSeen(.cumulative, id: 2))
        #expect(session.wasSeen(.cumulative, id: 2))
        // Above the earlier runs' ids: a row of this run, never "met".
        #expect(!session.markSeen(.cumulative, id: 4))
        #expect(session.isUnseenEarlierRow(.cumulative, id: 1))
        #expect(!session.isUnseenEarlierRow(.cumulative, id: 2))
    }

    @Test func aNewDatabaseHasNothingToMatch() throws {
        let store = try StoreFixture()
        let session = try ReimportSession(store.connection, lastIDs: nil, runID: 1)
        #expect(!session.isActive)
        #expect(!session.markSeen(.cumulative, id: 1))
        #expect(try session.matchNested(.workouts, identity: 1) == nil)
        try session.removeUnseenRows(scope: SampleFilter())
        #expect(session.closeLedger().isEmpty)
    }

    /// At the end, the earlier rows not met are archived as deleted and counted, per type.
    @Test func unseenRowsAreDeletedAndCounted() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let tally = RunTally()
        let session = try Self.session(store)
        _ = session.markSeen(.cumulative, id: 1)
        _ = session.markSeen(.discrete, id: 1)
        try session.removeUnseenRows(scope: SampleFilter())
        let changes = session.closeLedger()
        #expect(changes["HKQuantityTypeIdentifierStepCount"]?.deleted == 2)
        #expect(changes["HKQuantityTypeIdentifierHeartRate"] == nil)
        #expect(try store.integer("SELECT count(*) FROM cumulative_samples") == 1)
        #expect(try store.integer("SELECT count(*) FROM deleted_samples WHERE reason = 'deleted' AND run_id = 2") == 2)
        // Deletions of earlier rows are not this run's rows: nothing is reported (`removeUnseenRows` takes no
        // report), so the tally's counts stay as they were.
        #expect(tally.rows.byName.isEmpty)
    }

    /// A higher sync version takes the place of a row: an earlier run's is archived as replaced; one of this
    /// run is taken back from the counts and the drop counted.
    @Test func replacingASampleCountsByWhoseRowItWas() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let tally = RunTally()
        let session = try Self.session(store)
        // What the session reports is applied as the front applies it.
        func apply(_ report: WriteReport) { SQLiteSink.apply(report, to: tally, session: session) }
        var report = WriteReport()
        #expect(try session.replaceSample(SyncedRow(table: .samples(.cumulative), id: 3), into: &report))
        apply(report)
        #expect(try store.integer("SELECT count(*) FROM deleted_samples WHERE reason = 'replaced'") == 1)
        #expect(tally.drops[.replaced] == 0)
        // A row of this run (above the earlier ids): no archive, its count and the drop.
        try store.connection.execute(
            "INSERT INTO cumulative_rows (id, type_id, source_id, start_date, identity) VALUES (9, 1, 1, "
                + "'2024-02-03T00:00:00Z', 1234)")
        report = WriteReport()
        report.count(.cumulativeSamples)
        report.countInserted(
            .cumulative, type: "HKQuantityTypeIdentifierStepCount", identity: 1234, start: nil, end: nil,
            creation: nil, replacing: false)
        apply(report)
        report = WriteReport()
        #expect(try !session.replaceSample(SyncedRow(table: .samples(.cumulative), id: 9), into: &report))
        apply(report)
        #expect(tally.drops[.replaced] == 1)
        #expect(tally.rows[.cumulativeSamples] == 0)
        #expect(try store.integer("SELECT count(*) FROM deleted_samples") == 1)
        // A route is not a sample: nothing to replace here.
        #expect(try !session.replaceSample(SyncedRow(table: .routes, id: 1), into: &report))
        let changes = session.closeLedger()
        #expect(changes["HKQuantityTypeIdentifierStepCount"]?.added == 0)
    }

    @Test func anOlderExportIsRefusedUnlessAllowed() throws {
        let store = try StoreFixture(importing: StoreFixture.records, exportDate: "2024-03-01 10:00:00 +0100")
        let session = try Self.session(store)
        let older = Timestamp.parse("2024-02-15 10:00:00 +0100")
        let error = #expect(throws: ImportError.self) {
            try session.checkExportDate(older, allowOlder: false, path: store.path)
        }
        #expect(error?.kind == .refused)
        try session.checkExportDate(older, allowOlder: true, path: store.path)
        try session.checkExportDate(Timestamp.parse("2024-03-01 10:00:00 +0100"), allowOlder: false, path: store.path)
    }

    @Test func snapshotTablesAreEmptiedOnceWhenTheFirstItemArrives() throws {
        let body =
            StoreFixture.records + """
                 <ActivitySummary dateComponents="2024-02-01" activeEnergyBurned="590" activeEnergyBurnedGoal="630" activeEnergyBurnedUnit="kcal"/>
                """
        let store = try StoreFixture(importing: body)
        #expect(try store.integer("SELECT count(*) FROM activity_summaries") == 1)
        let session = try Self.session(store)
        try session.clearSnapshotTablesOnce(replacesStateOfMind: false)
        #expect(try store.integer("SELECT count(*) FROM activity_summaries") == 0)
        try store.connection.execute("INSERT INTO activity_summaries (id, date) VALUES (1, '2024-02-02')")
        try session.clearSnapshotTablesOnce(replacesStateOfMind: false)
        #expect(try store.integer("SELECT count(*) FROM activity_summaries") == 1)
    }
}
