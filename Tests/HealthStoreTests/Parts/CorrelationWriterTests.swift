import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `CorrelationWriter`: a correlation's row with the header every sample-like table starts with, its
/// metadata, and a link to each child: the top-level sample it repeats, or the child stored on its own.
struct CorrelationWriterTests {
    @Test func aCorrelationLinksTheTopLevelSamplesItRepeats() throws {
        let rig = try WriterRig()
        let writer = CorrelationWriter(
            statements: rig.statements, lastIDs: LastRowIDs(), common: rig.common, session: rig.session,
            samples: rig.samples)
        func pressure(_ type: String, _ value: Double) -> Sample {
            var sample = StoreFixture.sample(
                "HKQuantityTypeIdentifierBloodPressure" + type, start: "2024-02-01 08:00:00 +0100", value: value)
            sample.unit = "mmHg"
            return sample
        }
        let systolic = pressure("Systolic", 120)
        let diastolic = pressure("Diastolic", 80)
        try rig.samples.writeTopLevel(systolic, into: &rig.report)
        try rig.samples.writeTopLevel(diastolic, into: &rig.report)
        let correlation = Correlation(
            type: "HKCorrelationTypeIdentifierBloodPressure", source: WriterRig.phone,
            startDate: WriterRig.instant("2024-02-01 08:00:00 +0100"),
            endDate: WriterRig.instant("2024-02-01 08:01:00 +0100"),
            metadata: [MetadataEntry(key: "Arm", value: "left")], children: [systolic, diastolic], line: 12)
        try writer.write(correlation, into: &rig.report)
        let identity = SampleIdentity.fingerprint(
            correlation, childIdentities: [systolic, diastolic].map(SampleIdentity.fingerprint))
        #expect(
            try rig.rows(
                "SELECT id, type, source_name, start_date, end_date, utc_offset, local_date, xml_line, identity "
                    + "FROM correlations")
                == [
                    [
                        "1", "HKCorrelationTypeIdentifierBloodPressure", "Phone", "2024-02-01T07:00:00Z",
                        "2024-02-01T07:01:00Z", "+01:00", "2024-02-01", "12", String(identity),
                    ]
                ])
        #expect(
            try rig.rows("SELECT correlation_id, sample_table, sample_id FROM correlation_samples ORDER BY rowid") == [
                ["1", "discrete_samples", "1"], ["1", "discrete_samples", "2"],
            ])
        #expect(try rig.rows("SELECT parent_table, parent_id, key FROM metadata") == [["correlations", "1", "Arm"]])
        // The children were not stored again.
        #expect(try rig.integer("SELECT count(*) FROM discrete_samples") == 2)
        #expect(rig.tally.rows[.correlations] == 1)
        #expect(rig.tally.rows[.correlationSamples] == 2)
        #expect(writer.lastID == 1)
    }

    @Test func aChildNotRepeatedAtTopLevelIsStoredOnce() throws {
        let rig = try WriterRig()
        let writer = CorrelationWriter(
            statements: rig.statements, lastIDs: LastRowIDs(), common: rig.common, session: rig.session,
            samples: rig.samples)
        var energy = StoreFixture.sample(
            "HKQuantityTypeIdentifierDietaryEnergyConsumed", start: "2024-02-01 12:00:00 +0100", value: 500)
        energy.unit = "kcal"
        let food = Correlation(
            type: "HKCorrelationTypeIdentifierFood", source: WriterRig.phone,
            startDate: WriterRig.instant("2024-02-01 12:00:00 +0100"), children: [energy], line: 3)
        try writer.write(food, into: &rig.report)
        #expect(
            try rig.rows(
                "SELECT c.correlation_id, s.type, s.value FROM correlation_samples AS c JOIN cumulative_samples AS s ON s.id = c.sample_id"
            )
                == [["1", "HKQuantityTypeIdentifierDietaryEnergyConsumed", "500.0"]])
        #expect(
            rig.tally.rows.byName == [
                "correlations": 1, "correlation_samples": 1, "cumulative_samples": 1, "sources": 1,
            ])
    }
}
