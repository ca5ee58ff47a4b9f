import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `SampleWriter`: a sample goes into its compact table with its type, source, metadata and beats, counted; an
/// exact duplicate is dropped without using an id; a correlation's child is the top-level sample it repeats.
struct SampleWriterTests {
    static func steps(_ start: String, value: Double = 10, metadata: [MetadataEntry] = []) -> Sample {
        StoreFixture.sample(start: start, value: value, metadata: metadata)
    }

    @Test func aSampleIsWrittenWithItsTypeSourceAndMetadata() throws {
        let rig = try WriterRig()
        let sample = Self.steps(
            "2024-02-01 08:00:00 +0100", value: 12,
            metadata: [MetadataEntry(key: "HKWasUserEntered", value: "1"), MetadataEntry(key: "Note", value: "walk")])
        let written = try #require(try rig.samples.write(sample, identity: 41, into: &rig.report))
        #expect(written.0 == .cumulative)
        #expect(written.1 == 1)
        #expect(
            try rig.rows(
                "SELECT id, type, source_name, start_date, local_date, value, unit, flags, identity FROM cumulative_samples"
            )
                == [
                    [
                        "1", "HKQuantityTypeIdentifierStepCount", "Phone", "2024-02-01T07:00:00Z", "2024-02-01", "12.0",
                        "count", String(SampleWriter.userEnteredFlag), "41",
                    ]
                ])
        #expect(
            try rig.rows("SELECT parent_table, parent_id, key, value FROM metadata ORDER BY rowid") == [
                ["cumulative_samples", "1", "HKWasUserEntered", "1"], ["cumulative_samples", "1", "Note", "walk"],
            ])
        #expect(try rig.rows("SELECT id, type FROM type_names") == [["1", "HKQuantityTypeIdentifierStepCount"]])
        #expect(rig.tally.rows.byName == ["cumulative_samples": 1, "sources": 1, "metadata": 2])
        #expect(rig.samples.lastIDs[TrackedTable.cumulative.rawValue] == 1)
    }

    @Test func anExactDuplicateIsDroppedAndItsIdNotUsed() throws {
        let rig = try WriterRig()
        let sample = Self.steps("2024-02-01 08:00:00 +0100")
        #expect(try rig.samples.write(sample, identity: 41, into: &rig.report) != nil)
        #expect(try rig.samples.write(sample, identity: 41, into: &rig.report) == nil)
        let next = try #require(
            try rig.samples.write(Self.steps("2024-02-01 09:00:00 +0100"), identity: 41, into: &rig.report))
        #expect(next.1 == 2)
        #expect(rig.tally.drops.bySummaryKey == ["exact duplicate records": 1])
        #expect(try rig.integer("SELECT count(*) FROM cumulative_samples") == 2)
    }

    @Test func keptDuplicatesTakeTheNextIdentity() throws {
        let rig = try WriterRig(dropsDuplicates: false)
        let sample = Self.steps("2024-02-01 08:00:00 +0100")
        #expect(try rig.samples.write(sample, identity: 41, into: &rig.report) != nil)
        #expect(try rig.samples.write(sample, identity: 41, into: &rig.report) != nil)
        #expect(
            try rig.rows("SELECT id, identity FROM cumulative_samples ORDER BY id") == [["1", "41"], ["2", "42"]])
        #expect(rig.tally.drops.bySummaryKey.isEmpty)
    }

    @Test func aLowerSyncVersionIsDropped() throws {
        let rig = try WriterRig()
        func weight(_ version: String, _ value: Double) -> Sample {
            var sample = StoreFixture.sample(
                "HKQuantityTypeIdentifierBodyMass", start: "2024-02-01 08:00:00 +0100", value: value,
                metadata: [
                    MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "w1"),
                    MetadataEntry(key: "HKMetadataKeySyncVersion", value: version),
                ])
            sample.unit = "kg"
            return sample
        }
        #expect(try rig.samples.write(weight("2", 70), identity: 1, into: &rig.report) != nil)
        #expect(try rig.samples.write(weight("1", 71), identity: 2, into: &rig.report) == nil)
        #expect(try rig.rows("SELECT value FROM discrete_samples") == [["70.0"]])
        #expect(rig.tally.drops.bySummaryKey == ["records superseded by a higher sync version": 1])
        #expect(
            try rig.rows("SELECT version, row_table, row_id FROM sync_identifiers") == [["2", "discrete_samples", "1"]])
    }

    @Test func beatsAndUnknownTypesAreWrittenAndCounted() throws {
        let rig = try WriterRig()
        var hrv = StoreFixture.sample(
            "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", start: "2024-02-01 08:00:00 +0100", value: 40)
        hrv.unit = "ms"
        hrv.beats = [
            HeartbeatReading(bpm: 61, seconds: 1_706_770_800.5, rawTime: "8:00:00.50 AM"),
            HeartbeatReading(bpm: 62, seconds: nil, rawTime: "?"),
        ]
        #expect(try rig.samples.write(hrv, identity: 1, into: &rig.report) != nil)
        #expect(
            try rig.rows("SELECT sample_id, seq, bpm, time, raw_time FROM hrv_beats ORDER BY seq") == [
                ["1", "0", "61.0", "2024-02-01T07:00:00.50Z", "8:00:00.50 AM"], ["1", "1", "62.0", "nil", "?"],
            ])
        #expect(rig.tally.rows[.hrvBeats] == 2)
        let unknown = StoreFixture.sample("HKQuantityTypeIdentifierBrandNew", start: "2024-02-01 08:00:00 +0100")
        #expect(try rig.samples.write(unknown, identity: 2, into: &rig.report) != nil)
        #expect(try rig.samples.write(unknown, identity: 3, into: &rig.report) != nil)
        #expect(rig.tally.unknownTypes == ["HKQuantityTypeIdentifierBrandNew": 2])
    }

    /// A child is the top-level sample it repeats (of a type that may be a child); one not repeated at top
    /// level is stored once, as the format's rule breaks.
    @Test func aCorrelationsChildIsTheTopLevelSampleItRepeats() throws {
        let rig = try WriterRig()
        var systolic = StoreFixture.sample(
            "HKQuantityTypeIdentifierBloodPressureSystolic", start: "2024-02-01 08:00:00 +0100", value: 120)
        systolic.unit = "mmHg"
        let identity = SampleIdentity.fingerprint(systolic)
        try rig.samples.writeTopLevel(systolic, into: &rig.report)
        let child = try #require(try rig.samples.correlationChild(systolic, identity: identity, into: &rig.report))
        #expect(child.table == .discrete)
        #expect(child.id == 1)
        var diastolic = systolic
        diastolic.type = "HKQuantityTypeIdentifierBloodPressureDiastolic"
        diastolic.value = 80
        let alone = try #require(try rig.samples.correlationChild(diastolic, identity: 7, into: &rig.report))
        #expect(alone.id == 2)
        #expect(try rig.samples.correlationChild(diastolic, identity: 7, into: &rig.report)?.id == 2)
        #expect(try rig.integer("SELECT count(*) FROM discrete_samples") == 2)
    }
}
