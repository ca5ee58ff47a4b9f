import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `SampleRowWriter`: the row of a sample in its compact table, the insert as the duplicate check, and the
/// look-up by (type, start, identity).
struct SampleRowWriterTests {
    @Test func aRowReadsBackThroughItsViewAsBound() throws {
        let store = try StoreFixture()
        try store.connection.execute("INSERT INTO type_names (id, type) VALUES (1, 'HKQuantityTypeIdentifierBodyMass')")
        try store.connection.execute("INSERT INTO sources (id, name) VALUES (1, 'Scale')")
        var writer = try SampleRowWriter(store.connection, table: .discrete)
        var sample = StoreFixture.sample(
            "HKQuantityTypeIdentifierBodyMass", start: "2024-02-01 07:00:00 +0100", value: 70)
        sample.unit = "kg"
        sample.rawValue = 154.3
        sample.rawUnit = "lb"
        writer.bind(sample, id: 5, typeID: 1, sourceID: 1, localDay: 19_754, flags: 512, origin: .feed)
        #expect(try writer.store(identity: 77, store.connection))
        let row = try #require(
            try store.connection.query(
                """
                SELECT id, type, source_name, start_date, end_date, utc_offset, local_date, value, unit, raw_value,
                       raw_unit, flags, identity, origin
                FROM discrete_samples
                """
            ).first)
        #expect(row[0] == .integer(5))
        #expect(row[1] == .text("HKQuantityTypeIdentifierBodyMass"))
        #expect(row[2] == .text("Scale"))
        #expect(row[3] == .text("2024-02-01T06:00:00Z"))
        #expect(row[4] == .text("2024-02-01T06:05:00Z"))
        #expect(row[5] == .text("+01:00"))
        #expect(row[6] == .text(TimestampFormatting.dayString(19_754)))
        #expect(row[7] == .real(70))
        #expect(row[8] == .text("kg"))
        #expect(row[9] == .real(154.3))
        #expect(row[10] == .text("lb"))
        #expect(row[11] == .integer(512))
        #expect(row[12] == .integer(77))
        #expect(row[13] == .integer(RowOrigin.feed.rawValue))
    }

    /// The UNIQUE (type, start, identity) index refuses a second row: `store` says so, and nothing is added.
    @Test func aTakenIdentityIsRefusedAndFoundByTheLookUp() throws {
        let store = try StoreFixture()
        var writer = try SampleRowWriter(store.connection, table: .cumulative)
        let sample = StoreFixture.sample(start: "2024-02-01 08:00:00 +0100")
        writer.bind(sample, id: 1, typeID: 1, sourceID: 1, localDay: nil, flags: 0, origin: .export)
        #expect(try writer.store(identity: 10, store.connection))
        writer.bind(sample, id: 2, typeID: 1, sourceID: 1, localDay: nil, flags: 0, origin: .export)
        #expect(try !writer.store(identity: 10, store.connection))
        #expect(try writer.store(identity: 11, store.connection))
        #expect(try store.integer("SELECT count(*) FROM cumulative_rows") == 2)
        #expect(try writer.find(typeID: 1, start: sample.startDate, identity: 10) == 1)
        #expect(try writer.find(typeID: 1, start: sample.startDate, identity: 11) == 2)
        #expect(try writer.find(typeID: 1, start: sample.startDate, identity: 12) == nil)
        #expect(try writer.find(typeID: 2, start: sample.startDate, identity: 10) == nil)
        #expect(try store.integer("SELECT origin FROM cumulative_rows WHERE id = 1") == RowOrigin.export.rawValue)
    }

    /// NULL starts are all different to the index: two rows are stored, and the look-up finds each by identity.
    @Test func rowsWithoutStartAreFoundByTheLookUp() throws {
        let store = try StoreFixture()
        var writer = try SampleRowWriter(store.connection, table: .category)
        var sample = StoreFixture.sample("HKCategoryTypeIdentifierSleepAnalysis", start: nil)
        sample.value = nil
        sample.unit = nil
        sample.textValue = "HKCategoryValueSleepAnalysisInBed"
        writer.bind(sample, id: 1, typeID: 3, sourceID: 1, localDay: nil, flags: 0, origin: .export)
        #expect(try writer.store(identity: 5, store.connection))
        writer.bind(sample, id: 2, typeID: 3, sourceID: 1, localDay: nil, flags: 0, origin: .export)
        #expect(try writer.store(identity: 5, store.connection))
        #expect(try writer.find(typeID: 3, start: nil, identity: 5) != nil)
        #expect(try store.text("SELECT value FROM category_rows WHERE id = 2") == "HKCategoryValueSleepAnalysisInBed")
        #expect(try store.integer("SELECT count(*) FROM category_rows WHERE raw_value IS NULL AND unit IS NULL") == 2)
    }
}
