import Foundation
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `CommonRows`: sources written and counted once, metadata counted, the local day in the sample's own zone
/// before the import's, and the header columns of the sample-like tables.
struct CommonRowsTests {
    @Test func sourcesAreCountedOnceAndMetadataByRow() throws {
        let rig = try WriterRig()
        #expect(try rig.common.writeSource(WriterRig.phone, into: &rig.report) == 1)
        #expect(try rig.common.writeSource(WriterRig.phone, into: &rig.report) == 1)
        #expect(try rig.common.writeSource(WriterRig.watch, into: &rig.report) == 2)
        try rig.common.writeMetadata([], parent: .workouts, id: 1, into: &rig.report)
        try rig.common.writeMetadata(
            [MetadataEntry(key: "A", value: "1"), MetadataEntry(key: "B", value: "2")], parent: .workouts, id: 1,
            into: &rig.report)
        #expect(rig.tally.rows.byName == ["sources": 2, "metadata": 2])
        #expect(try rig.integer("SELECT count(*) FROM metadata WHERE parent_table = 'workouts'") == 2)
    }

    /// 23:30 UTC is the next day in Berlin (the import's zone), and the same day in New York (the sample's).
    @Test func theLocalDayIsInTheSamplesOwnZoneFirst() throws {
        let rig = try WriterRig()
        let instant = try #require(WriterRig.instant("2024-02-01 23:30:00 +0000"))
        #expect(TimestampFormatting.dayString(rig.common.day(of: instant)) == "2024-02-02")
        let newYork = [MetadataEntry(key: "HKTimeZone", value: "America/New_York")]
        #expect(TimestampFormatting.dayString(rig.common.day(of: instant, metadata: newYork)) == "2024-02-01")
        #expect(CommonRows.timeZoneName(newYork) == "America/New_York")
        #expect(CommonRows.timeZoneName([MetadataEntry(key: "Other", value: "x")]) == nil)
    }

    @Test func headerColumnsComeFromTheFirstInstantThereIs() throws {
        let rig = try WriterRig()
        let end = WriterRig.instant("2024-02-01 23:30:00 -0500")
        let header = try rig.common.headerColumns(
            id: 3, typeColumn: "activity_type", type: "HKWorkoutActivityTypeWalking", source: WriterRig.watch,
            start: nil, end: end, creation: nil, metadata: [], into: &rig.report)
        #expect(
            header.map(\.0) == [
                "id", "activity_type", "source_id", "source_name", "start_date", "end_date", "creation_date",
                "utc_offset",
                "local_date",
            ])
        #expect(
            header.map(\.1) == [
                .integer(3), .text("HKWorkoutActivityTypeWalking"), .integer(1), .text("Watch"), .null,
                .text("2024-02-02T04:30:00Z"), .null, .text("-05:00"), .text("2024-02-02"),
            ])
        let bare = try rig.common.headerColumns(
            id: 4, type: "T", source: WriterRig.watch, start: nil, end: nil, creation: nil, metadata: [],
            into: &rig.report)
        #expect(bare.suffix(5).map(\.1) == [.null, .null, .null, .null, .null])
    }

    @Test func nullableValues() {
        #expect(SQLiteValue.nullable(Double.nan) == .null)
        #expect(SQLiteValue.nullable(Double.infinity) == .null)
        #expect(SQLiteValue.nullable(2.5) == .real(2.5))
        #expect(SQLiteValue.nullable(nil as String?) == .null)
        #expect(SQLiteValue.instant(Timestamp(seconds: 0, offsetSeconds: 3600)) == .text("1970-01-01T00:00:00Z"))
    }
}
