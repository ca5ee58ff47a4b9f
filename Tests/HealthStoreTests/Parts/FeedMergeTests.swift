import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `FeedMerge` on its own, against a database whose last export was exported at 2024-03-01 09:00 UTC.
struct FeedMergeTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"

    /// A database with one earlier export run, and a feed run's merge over it.
    static func merge() throws -> (StoreFixture, FeedMerge, ReimportSession) {
        let store = try StoreFixture()
        var summary = ImportSummary()
        summary.exportDate = "2024-03-01T09:00:00Z"
        try RunRecorder(store.connection, hadData: false).writeRun(summary)
        let session = try ReimportSession(store.connection, lastIDs: nil, runID: 2)
        return (store, try FeedMerge(store.connection, isFeed: true, session: session), session)
    }

    @Test func pointsBeforeTheLastExportAreLeftOutAndReported() throws {
        let (_, merge, _) = try Self.merge()
        var report = WriteReport()
        #expect(merge.cutoffText == "2024-03-01T09:00:00Z")
        let early = StoreFixture.sample(start: "2024-03-01 09:59:00 +0100")
        let late = StoreFixture.sample(start: "2024-03-01 10:01:00 +0100")
        #expect(try merge.place(early, table: .cumulative, identity: 1, into: &report) == .skip)
        #expect(try merge.place(late, table: .cumulative, identity: 2, into: &report) == .insert)
        // Later than every feed row of its type: inserted without a look-up.
        let later = StoreFixture.sample(start: "2024-03-01 10:02:00 +0100")
        #expect(try merge.place(later, table: .cumulative, identity: 3, into: &report) == .insert)
        #expect(merge.beforeExport == 1)
        #expect(merge.inserted == 2)
        var summary = ImportSummary()
        try merge.finish(&summary, into: &report)
        #expect(
            summary.warnings == [
                "feed points before the last export's ExportDate 2024-03-01T09:00:00Z (the export covers them; not stored)":
                    1
            ])
    }

    @Test func aFeedLyingBeforeTheExportSaysNothingChanged() throws {
        let (_, merge, _) = try Self.merge()
        var report = WriteReport()
        #expect(
            try merge.place(
                StoreFixture.sample(start: "2024-02-01 08:00:00 +0100"), table: .cumulative, identity: 1, into: &report)
                == .skip)
        var summary = ImportSummary()
        try merge.finish(&summary, into: &report)
        #expect(summary.warnings.count == 2)
        #expect(summary.warnings.keys.contains { $0.hasPrefix("this feed lies entirely before the last export") })
    }

    /// A point the database holds as a feed row already is kept; a second point at the same start in the same
    /// file replaces the first.
    @Test func anIdenticalFeedRowIsKeptAndARepeatInOneFileReplaced() throws {
        let (store, merge, _) = try Self.merge()
        var report = WriteReport()
        var writer = try SampleRowWriter(store.connection, table: .cumulative)
        try store.connection.execute("INSERT INTO type_names (id, type) VALUES (1, '\(Self.steps)')")
        let point = StoreFixture.sample(start: "2024-03-02 08:00:00 +0100")
        writer.bind(point, id: 1, typeID: 1, sourceID: 1, localDay: nil, flags: 0, origin: .feed)
        #expect(try writer.store(identity: 50, store.connection))

        merge.beginFile(lastIDs: [1, 0, 0, 0, 0])
        #expect(try merge.place(point, table: .cumulative, identity: 50, into: &report) == .kept(1))
        // A new point later in the same file, then one at its start again with other content.
        let next = StoreFixture.sample(start: "2024-03-02 09:00:00 +0100", value: 3)
        #expect(try merge.place(next, table: .cumulative, identity: 60, into: &report) == .insert)
        writer.bind(next, id: 2, typeID: 1, sourceID: 1, localDay: nil, flags: 0, origin: .feed)
        #expect(try writer.store(identity: 60, store.connection))
        let again = StoreFixture.sample(start: "2024-03-02 09:00:00 +0100", value: 4)
        #expect(try merge.place(again, table: .cumulative, identity: 61, into: &report) == .insert)
        #expect(merge.duplicatesInFile == 1)
        #expect(try store.integer("SELECT count(*) FROM cumulative_rows WHERE id = 2") == 0)
        // The file covered 08:00–09:00; the kept row stays, nothing else of earlier files was in that span.
        try merge.endFile(spans: [Self.steps: (point.startDate!.seconds, next.startDate!.seconds)], into: &report)
        #expect(merge.resent == 0)
        #expect(try store.integer("SELECT count(*) FROM cumulative_rows WHERE id = 1") == 1)
    }

    /// At a file's end, the feed rows of earlier files inside the span it covers that it did not repeat go.
    @Test func rowsOfAnEarlierFileInTheSpanNotRepeatedAreReplaced() throws {
        let (store, merge, _) = try Self.merge()
        var report = WriteReport()
        var writer = try SampleRowWriter(store.connection, table: .cumulative)
        try store.connection.execute("INSERT INTO type_names (id, type) VALUES (1, '\(Self.steps)')")
        let starts = ["2024-03-02 08:00:00 +0100", "2024-03-02 08:30:00 +0100", "2024-03-02 11:00:00 +0100"]
        for (index, start) in starts.enumerated() {
            writer.bind(
                StoreFixture.sample(start: start), id: Int64(index + 1), typeID: 1, sourceID: 1, localDay: nil,
                flags: 0, origin: .feed)
            #expect(try writer.store(identity: Int64(index + 1), store.connection))
        }
        merge.beginFile(lastIDs: [3, 0, 0, 0, 0])
        let point = StoreFixture.sample(start: starts[0])
        #expect(try merge.place(point, table: .cumulative, identity: 1, into: &report) == .kept(1))
        let end = StoreFixture.sample(start: "2024-03-02 09:00:00 +0100")
        try merge.endFile(spans: [Self.steps: (point.startDate!.seconds, end.startDate!.seconds)], into: &report)
        // 08:30 lay inside the file's span and was not sent again; 11:00 lay after it.
        #expect(merge.resent == 1)
        let left = try store.connection.query("SELECT id FROM cumulative_rows ORDER BY id").map { $0[0] }
        #expect(left == [.integer(1), .integer(3)])
        var summary = ImportSummary()
        try merge.finish(&summary, into: &report)
        #expect(
            summary.stages["feed"]?["feed rows sent again by a later file, replaced (earlier runs' in deleted_samples)"]
                == 1)
    }

    @Test func aStateOfMindEntryIsFoundByIdentifierOrBySourceAndStart() throws {
        let (store, merge, _) = try Self.merge()
        try store.connection.execute(
            "INSERT INTO state_of_mind (id, identifier, source_name, start_date) VALUES "
                + "(1, 'som-1', 'App', '2024-03-02T07:00:00Z'), (2, NULL, 'App', '2024-03-02T08:00:00Z')")
        var entry = StateOfMindEntry(source: "App", origin: "feed")
        entry.identifier = "som-1"
        #expect(try merge.hasStateOfMind(entry))
        entry.identifier = "som-2"
        #expect(try !merge.hasStateOfMind(entry))
        entry.identifier = nil
        entry.startDate = Timestamp.parse("2024-03-02 09:00:00 +0100")
        #expect(try merge.hasStateOfMind(entry))
        entry.startDate = Timestamp.parse("2024-03-02 10:00:00 +0100")
        #expect(try !merge.hasStateOfMind(entry))
    }
}
