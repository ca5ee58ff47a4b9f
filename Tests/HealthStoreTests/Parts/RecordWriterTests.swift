import Foundation
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `RecordWriter`: the items of few rows beside samples and workouts, each in its table with its own ids,
/// counted.
struct RecordWriterTests {
    static func writer(_ rig: WriterRig, lastIDs: LastRowIDs = LastRowIDs()) -> RecordWriter {
        RecordWriter(statements: rig.statements, lastIDs: lastIDs, isFeed: false, common: rig.common, feed: rig.feed)
    }

    @Test func characteristicsAndActivitySummaries() throws {
        let rig = try WriterRig()
        let writer = Self.writer(rig)
        try writer.writeMe(
            Characteristics(attributes: [
                ("HKCharacteristicTypeIdentifierBloodType", "HKBloodTypeAPositive"),
                ("HKCharacteristicTypeIdentifierBiologicalSex", "HKBiologicalSexFemale"),
            ]), into: &rig.report)
        #expect(
            try rig.rows("SELECT key, value FROM me ORDER BY key") == [
                ["HKCharacteristicTypeIdentifierBiologicalSex", "HKBiologicalSexFemale"],
                ["HKCharacteristicTypeIdentifierBloodType", "HKBloodTypeAPositive"],
            ])
        try writer.writeActivitySummary(
            ActivitySummary(
                date: "2024-02-01", values: [("activeEnergyBurned", 410), ("appleStandHours", 9), ("newRing", 3)],
                activeEnergyBurnedUnit: "kcal", line: 5), into: &rig.report)
        try writer.writeActivitySummary(ActivitySummary(date: "2024-02-02", line: 6), into: &rig.report)
        #expect(
            try rig.rows(
                "SELECT id, date, active_energy_burned, active_energy_burned_unit, apple_stand_hours, apple_move_time, "
                    + "other_json FROM activity_summaries ORDER BY id")
                == [
                    ["1", "2024-02-01", "410.0", "kcal", "9.0", "nil", #"{"newRing":3.0}"#],
                    ["2", "2024-02-02", "nil", "nil", "nil", "nil", "nil"],
                ])
        #expect(rig.tally.rows.byName == ["me": 2, "activity_summaries": 2])
    }

    @Test func clinicalRecordsAudiogramsAndPrescriptions() throws {
        let rig = try WriterRig()
        let writer = Self.writer(rig)
        try writer.writeClinicalRecord(
            ClinicalRecord(
                type: "Observation", identifier: "o1", sourceName: "Clinic", fhirVersion: "4.0.1",
                receivedDate: WriterRig.instant("2024-02-01 08:00:00 +0100"), resourceJSON: "{}", line: 9),
            into: &rig.report)
        #expect(
            try rig.rows("SELECT id, type, identifier, received_date, resource_json, xml_line FROM clinical_records")
                == [["1", "Observation", "o1", "2024-02-01T07:00:00Z", "{}", "9"]])
        try writer.writeAudiogram(
            Audiogram(
                type: "HKDataTypeIdentifierAudiogram", source: WriterRig.phone,
                startDate: WriterRig.instant("2024-02-01 08:00:00 +0100"),
                points: [
                    [
                        ("frequencyValue", "500"), ("frequencyUnit", "Hz"), ("leftEarValue", "15"),
                        ("leftEarUnit", "dBHL"),
                    ]
                ],
                line: 10), into: &rig.report)
        #expect(
            try rig.rows("SELECT id, type, source_name, local_date FROM audiograms") == [
                ["1", "HKDataTypeIdentifierAudiogram", "Phone", "2024-02-01"]
            ])
        #expect(
            try rig.rows(
                "SELECT audiogram_id, frequency, frequency_unit, left_ear_value, right_ear_value FROM audiogram_points")
                == [["1", "500.0", "Hz", "15.0", "nil"]])
        try writer.writeVisionPrescription(
            VisionPrescription(
                attributes: [("type", "glasses"), ("dateIssued", "2024-01-15 00:00:00 +0100")],
                metadata: [MetadataEntry(key: "Optician", value: "X")],
                eyes: [(eye: "LeftEye", attributes: [("sphere", "-1.25")])], line: 11), into: &rig.report)
        #expect(
            try rig.rows(
                "SELECT id, type, date_issued, left_eye_json, right_eye_json, attachments_json FROM vision_prescriptions"
            )
                == [["1", "glasses", "2024-01-14T23:00:00Z", #"{"sphere":"-1.25"}"#, "nil", "nil"]])
        #expect(
            try rig.rows("SELECT parent_table, parent_id, key FROM metadata") == [
                ["vision_prescriptions", "1", "Optician"]
            ])
        #expect(
            rig.tally.rows.byName == [
                "clinical_records": 1, "audiograms": 1, "audiogram_points": 1, "vision_prescriptions": 1, "sources": 1,
                "metadata": 1,
            ])
    }

    /// The voltages are stored as little-endian 32-bit floats, read back here byte by byte.
    @Test func anECGsSamplesAreABlobOfFloats() throws {
        let rig = try WriterRig()
        let writer = Self.writer(rig)
        let voltages: [Float] = [0.5, -12.25, 1e-3]
        try writer.writeECG(
            ElectrocardiogramRecording(
                fileName: "ecg_2024-02-01.csv", header: [("Name", "X")],
                recordedDate: WriterRig.instant("2024-02-01 23:30:00 +0100"), classification: "Sinus Rhythm",
                sampleRateHz: 512, unit: "µV", samples: voltages), into: &rig.report)
        let row = try #require(
            try rig.connection.query(
                "SELECT samples, sample_count, local_date, utc_offset, header_json FROM ecg_recordings"
            ).first)
        guard case .blob(let bytes) = row[0] else { Issue.record("no blob"); return }
        let decoded = stride(from: 0, to: bytes.count, by: 4).map { offset in
            Float(bitPattern: bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) })
        }
        #expect(decoded == voltages)
        #expect(row[1] == .integer(3))
        #expect(row[2] == .text("2024-02-01"))  // in the import's zone (Berlin)
        #expect(row[3] == .text("+01:00"))
        #expect(row[4] == .text(#"[["Name","X"]]"#))
    }

    @Test func stateOfMindIdsGoOnFromEarlierRuns() throws {
        let rig = try WriterRig()
        try rig.connection.execute("INSERT INTO state_of_mind (id, source_name) VALUES (4, 'Journal')")
        let writer = Self.writer(rig, lastIDs: try LastRowIDs(rig.connection))
        var entry = StateOfMindEntry(source: "Journal", origin: "test")
        entry.kind = "dailyMood"
        entry.startDate = WriterRig.instant("2024-02-01 22:30:00 +0000")
        entry.valence = 0.5
        entry.labels = ["calm"]
        try writer.writeStateOfMind(entry, into: &rig.report)
        #expect(
            try rig.rows(
                "SELECT id, kind, start_date, local_date, valence, labels_json FROM state_of_mind WHERE id > 4")
                == [["5", "dailyMood", "2024-02-01T22:30:00Z", "2024-02-01", "0.5", #"["calm"]"#]])
        #expect(writer.lastStateOfMindID == 5)
        #expect(rig.tally.rows[.stateOfMind] == 1)
    }
}
