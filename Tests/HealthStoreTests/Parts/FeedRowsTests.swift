import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `FeedRows`: the look-ups `FeedMerge` makes, which find the feed's rows (`RowOrigin.feed`) and never an
/// export's.
struct FeedRowsTests {
    static func seconds(_ text: String) -> Int64 { Timestamp.parse(text)!.seconds }

    /// Two feed rows of heart rate (08:00, 09:00) and an export row (10:00), ids 1…3.
    static func store() throws -> StoreFixture {
        let store = try StoreFixture()
        try store.connection.execute(
            "INSERT INTO type_names (id, type) VALUES (1, 'HKQuantityTypeIdentifierHeartRate')")
        var writer = try SampleRowWriter(store.connection, table: .discrete)
        for (id, hour, origin) in [(Int64(1), "08", RowOrigin.feed), (2, "09", .feed), (3, "10", .export)] {
            let sample = StoreFixture.sample(
                "HKQuantityTypeIdentifierHeartRate", start: "2024-02-01 \(hour):00:00 +0100", value: 60)
            writer.bind(sample, id: id, typeID: 1, sourceID: 1, localDay: nil, flags: 0, origin: origin)
            #expect(try writer.store(identity: 10 + id, store.connection))
        }
        return store
    }

    @Test func onlyTheFeedsRowsAreFound() throws {
        let store = try Self.store()
        let rows = FeedRows(store.connection)
        let type = "HKQuantityTypeIdentifierHeartRate"
        #expect(try rows.newestStart(type, table: .discrete) == Self.seconds("2024-02-01 09:00:00 +0100"))
        #expect(try rows.newestStart("HKQuantityTypeIdentifierStepCount", table: .discrete) == Int64.min)
        let eight = Self.seconds("2024-02-01 08:00:00 +0100")
        #expect(try rows.identical(.discrete, type: type, start: eight, identity: 11) == 1)
        #expect(try rows.identical(.discrete, type: type, start: eight, identity: 99) == nil)
        #expect(
            try rows.identical(.discrete, type: type, start: Self.seconds("2024-02-01 10:00:00 +0100"), identity: 13)
                == nil)
        #expect(try rows.rows(.discrete, type: type, start: eight).map(\.0) == [1])
        let all = try rows.rows(
            .discrete, type: type, from: Self.seconds("2024-02-01 07:00:00 +0100"),
            through: Self.seconds("2024-02-01 10:00:00 +0100"), where: { _ in true })
        #expect(all == [1, 2])
        let some = try rows.rows(
            .discrete, type: type, from: eight, through: Self.seconds("2024-02-01 10:00:00 +0100"), where: { $0 != 1 })
        #expect(some == [2])
        #expect(try rows.rows(.discrete, before: "2024-02-01T07:30:00Z") == [1])
    }

    @Test func feedWorkoutsAreFoundByIdentity() throws {
        let store = try StoreFixture()
        try store.connection.execute(
            """
            INSERT INTO workouts (id, activity_type, source_id, source_name, identity, origin) VALUES
                (1, 'HKWorkoutActivityTypeRunning', 1, 'App', 5, \(RowOrigin.export.rawValue)),
                (2, 'HKWorkoutActivityTypeRunning', 1, 'App', 5, \(RowOrigin.feed.rawValue))
            """)
        let rows = FeedRows(store.connection)
        #expect(try rows.identicalWorkout(5) == 2)
        #expect(try rows.identicalWorkout(6) == nil)
    }
}
