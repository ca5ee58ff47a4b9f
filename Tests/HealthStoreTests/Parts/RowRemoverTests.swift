import Foundation
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `RowRemover` on a database an import wrote: rows out with what hangs off them, archived when asked.
struct RowRemoverTests {
    @Test func anArchivedRowLeavesWithItsMetadataAndIsKeptInDeletedSamples() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let remover = try RowRemover(store.connection, runID: 42)
        let heartRate = try #require(try store.integer("SELECT id FROM discrete_samples"))
        let identity = try store.integer("SELECT identity FROM discrete_samples")
        #expect(try store.integer("SELECT count(*) FROM metadata WHERE parent_table = 'discrete_samples'") == 1)

        let removed = try #require(try remover.remove(.discrete, id: heartRate, reason: .deleted, archiving: true))
        #expect(removed.type == "HKQuantityTypeIdentifierHeartRate")
        #expect(removed.identity == identity)
        #expect(removed.start == Int64(Timestamp.parse("2024-02-01 08:00:00 +0100")!.seconds))
        #expect(try store.integer("SELECT count(*) FROM discrete_samples") == 0)
        #expect(try store.integer("SELECT count(*) FROM metadata WHERE parent_table = 'discrete_samples'") == 0)
        let archived = try store.connection.query(
            "SELECT run_id, reason, row_table, row_id, json_extract(row_json, '$.value'), metadata_json "
                + "FROM deleted_samples")
        #expect(archived.count == 1)
        #expect(archived.first?[0] == .integer(42))
        #expect(archived.first?[1] == .text("deleted"))
        #expect(archived.first?[2] == .text("discrete_samples"))
        #expect(archived.first?[3] == .integer(heartRate))
        #expect(archived.first?[4] == .real(61))
        #expect(archived.first?[5] == .text(#"[["HKMetadataKeyHeartRateMotionContext","1"]]"#))
        // Gone: a second removal finds nothing.
        #expect(try remover.remove(.discrete, id: heartRate, reason: .deleted, archiving: true) == nil)
    }

    @Test func aRowOfThisRunLeavesWithoutAnArchive() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let remover = try RowRemover(store.connection, runID: 2)
        let removed = try #require(try remover.remove(.cumulative, id: 2, reason: .replaced, archiving: false))
        #expect(removed.type == "HKQuantityTypeIdentifierStepCount")
        #expect(try store.integer("SELECT count(*) FROM cumulative_samples") == 2)
        #expect(try store.integer("SELECT count(*) FROM cumulative_samples WHERE id = 2") == 0)
        #expect(try store.integer("SELECT count(*) FROM deleted_samples") == 0)
    }

    @Test func unseenRowsAreTheExportsRowsNotMetInsideTheScope() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        let remover = try RowRemover(store.connection, runID: 2)
        var seen = SeenRows()
        _ = seen.insert(1)
        #expect(try remover.unseenRows(.cumulative, through: 3, seen: seen, scope: SampleFilter()) == [2, 3])
        // Rows above the earlier runs' last id are this run's: never unseen.
        #expect(try remover.unseenRows(.cumulative, through: 2, seen: seen, scope: SampleFilter()) == [2])
        // Outside the run's filters a row's absence says nothing.
        let february2 = Timestamp.parse("2024-02-02 00:00:00 +0100")!.seconds
        let scope = SampleFilter(from: Int64(february2))
        #expect(try remover.unseenRows(.cumulative, through: 3, seen: seen, scope: scope) == [3])
        let otherType = SampleFilter(types: ["HKQuantityTypeIdentifierHeartRate"])
        #expect(try remover.unseenRows(.cumulative, through: 3, seen: seen, scope: otherType) == [])
        // Feed rows are not the export's to delete.
        try store.connection.execute("UPDATE cumulative_rows SET origin = 1 WHERE id = 3")
        #expect(try remover.unseenRows(.cumulative, through: 3, seen: seen, scope: SampleFilter()) == [2])
    }

    @Test func feedRowsBeforeADateLeaveTalliedByType() throws {
        let store = try StoreFixture(importing: StoreFixture.records)
        try store.connection.execute("UPDATE cumulative_rows SET origin = 1")
        let remover = try RowRemover(store.connection, runID: 5)
        let removed = try remover.removeFeedRows(.cumulative, before: "2024-02-02T00:00:00Z", reason: .feedSuperseded)
        #expect(removed.count == 1)
        #expect(removed.first?.type == "HKQuantityTypeIdentifierStepCount")
        #expect(removed.first?.count == 2)
        #expect(removed.first?.earliest == Int64(Timestamp.parse("2024-02-01 08:00:00 +0100")!.seconds))
        #expect(try store.integer("SELECT count(*) FROM cumulative_samples") == 1)
        #expect(
            try store.integer("SELECT count(*) FROM deleted_samples WHERE reason = 'feed_superseded' AND run_id = 5")
                == 2)
        // The export's rows (origin 0) of the other table are untouched.
        #expect(try remover.removeFeedRows(.discrete, before: "2025-01-01T00:00:00Z", reason: .feedSuperseded).isEmpty)
        #expect(try store.integer("SELECT count(*) FROM discrete_samples") == 1)
    }

    @Test func aSupersededRouteLeavesWithItsPointsAndMetadata() throws {
        let store = try StoreFixture()
        let c = store.connection
        try c.execute(
            "INSERT INTO workout_routes (id, workout_id, source_id, source_name, point_count) VALUES (7, 1, 1, 'W', 2)")
        try c.execute(
            "INSERT INTO route_point_rows (route_id, seq, latitude, longitude) VALUES (7, 0, 1.0, 2.0), (7, 1, 1.5, 2.5)"
        )
        try c.execute("INSERT INTO metadata_keys (id, key) VALUES (1, 'k')")
        try c.execute(
            "INSERT INTO metadata_rows (parent_table_id, parent_id, key_id, value) VALUES "
                + "(\(MetadataParent.workoutRoutes.rawValue), 7, 1, 'v')")
        try RowRemover(c, runID: 1).removeSuperseded(.routes, id: 7)
        #expect(try store.integer("SELECT count(*) FROM workout_routes") == 0)
        #expect(try store.integer("SELECT count(*) FROM route_point_rows") == 0)
        #expect(try store.integer("SELECT count(*) FROM metadata_rows") == 0)
    }
}
