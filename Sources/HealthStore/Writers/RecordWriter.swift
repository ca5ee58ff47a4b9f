import Foundation
import HealthJSON
import HealthModel
import HealthSQLite

/// The items of few rows beside samples and workouts: activity summaries, clinical records, audiograms,
/// vision prescriptions, ECG recordings, State of Mind entries and the Me characteristics. Owns their row ids;
/// the rows each write stored go into the caller's `WriteReport`.
final class RecordWriter {
    private var lastSummaryID: Int64 = 0
    private var lastClinicalID: Int64 = 0
    private var lastAudiogramID: Int64 = 0
    private var lastVisionID: Int64 = 0
    private var lastECGID: Int64 = 0
    /// `state_of_mind` keeps its rows across runs (a run without a State of Mind file leaves them).
    private(set) var lastStateOfMindID: Int64
    private let statements: SchemaStatements
    private let isFeed: Bool
    private let common: CommonRows
    private let feed: FeedMerge

    init(statements: SchemaStatements, lastIDs: LastRowIDs, isFeed: Bool, common: CommonRows, feed: FeedMerge) {
        lastStateOfMindID = lastIDs["state_of_mind"]
        self.statements = statements
        self.isFeed = isFeed
        self.common = common
        self.feed = feed
    }

    func writeMe(_ me: Characteristics, into report: inout WriteReport) throws {
        for (key, value) in me.attributes {
            try statements.me.run([
                "key": .text(key),
                "value": .text(value),
            ])
        }
        report.count(.me, me.attributes.count)
    }

    func writeActivitySummary(_ summary: ActivitySummary, into report: inout WriteReport) throws {
        lastSummaryID += 1
        let known = [
            "activeEnergyBurned", "activeEnergyBurnedGoal", "appleMoveTime", "appleMoveTimeGoal",
            "appleExerciseTime", "appleExerciseTimeGoal", "appleStandHours", "appleStandHoursGoal",
        ]
        func value(_ name: String) -> SQLiteValue { .nullable(summary.values.first { $0.name == name }?.value) }
        let others = summary.values.filter { !known.contains($0.name) }
        let otherJSON: SQLiteValue =
            others.isEmpty ? .null : .text(JSONText.json(Dictionary(others, uniquingKeysWith: { a, _ in a })))
        try statements.summary.run([
            "id": .integer(lastSummaryID),
            "date": .nullable(summary.date),
            "active_energy_burned": value("activeEnergyBurned"),
            "active_energy_burned_goal": value("activeEnergyBurnedGoal"),
            "active_energy_burned_unit": .nullable(summary.activeEnergyBurnedUnit),
            "apple_move_time": value("appleMoveTime"),
            "apple_move_time_goal": value("appleMoveTimeGoal"),
            "apple_exercise_time": value("appleExerciseTime"),
            "apple_exercise_time_goal": value("appleExerciseTimeGoal"),
            "apple_stand_hours": value("appleStandHours"),
            "apple_stand_hours_goal": value("appleStandHoursGoal"),
            "other_json": otherJSON,
            "raw_active_energy_burned_unit": .nullable(summary.rawActiveEnergyBurnedUnit),
        ])
        report.count(.activitySummaries)
    }

    func writeClinicalRecord(_ record: ClinicalRecord, into report: inout WriteReport) throws {
        lastClinicalID += 1
        try statements.clinical.run([
            "id": .integer(lastClinicalID),
            "type": .nullable(record.type),
            "identifier": .nullable(record.identifier),
            "source_name": .nullable(record.sourceName),
            "source_url": .nullable(record.sourceURL),
            "fhir_version": .nullable(record.fhirVersion),
            "received_date": .instant(record.receivedDate),
            "resource_file_path": .nullable(record.resourceFilePath),
            "resource_json": .nullable(record.resourceJSON),
            "problem": .nullable(record.problem),
            "xml_line": .integer(Int64(record.line)),
        ])
        report.count(.clinicalRecords)
    }

    func writeAudiogram(_ audiogram: Audiogram, into report: inout WriteReport) throws {
        lastAudiogramID += 1
        let id = lastAudiogramID
        let header = try common.headerColumns(
            id: id, type: audiogram.type, source: audiogram.source, start: audiogram.startDate,
            end: audiogram.endDate, creation: audiogram.creationDate, metadata: audiogram.metadata,
            into: &report)
        try statements.audiogram.run(columns: header + [("xml_line", .integer(Int64(audiogram.line)))])
        report.count(.audiograms)
        try common.writeMetadata(audiogram.metadata, parent: .audiograms, id: id, into: &report)
        for point in audiogram.points {
            func number(_ name: String) -> SQLiteValue {
                .nullable(point.first { $0.name == name }.flatMap { NumberParsing.parseDouble($0.value) })
            }
            func string(_ name: String) -> SQLiteValue { .nullable(point.first { $0.name == name }?.value) }
            try statements.audiogramPoint.run([
                "audiogram_id": .integer(id),
                "frequency": number("frequencyValue"),
                "frequency_unit": string("frequencyUnit"),
                "left_ear_value": number("leftEarValue"),
                "left_ear_unit": string("leftEarUnit"),
                "right_ear_value": number("rightEarValue"),
                "right_ear_unit": string("rightEarUnit"),
                "attributes_json": .text(JSONText.json(point)),
            ])
        }
        report.count(.audiogramPoints, audiogram.points.count)
    }

    func writeVisionPrescription(_ prescription: VisionPrescription, into report: inout WriteReport) throws {
        lastVisionID += 1
        func attribute(_ name: String) -> String? { prescription.attributes.first { $0.name == name }?.value }
        func date(_ name: String) -> SQLiteValue { .instant(attribute(name).flatMap(Timestamp.parse)) }
        func eye(_ name: String) -> SQLiteValue {
            prescription.eyes.first { $0.eye == name }.map { .text(JSONText.json($0.attributes)) } ?? .null
        }
        try statements.vision.run([
            "id": .integer(lastVisionID),
            "type": .nullable(attribute("type")),
            "date_issued": date("dateIssued"),
            "expiration_date": date("expirationDate"),
            "brand": .nullable(attribute("brand")),
            "attributes_json": .text(JSONText.json(prescription.attributes)),
            "right_eye_json": eye("RightEye"),
            "left_eye_json": eye("LeftEye"),
            "attachments_json": prescription.attachments.isEmpty
                ? .null : .text(JSONText.json(prescription.attachments)),
        ])
        report.count(.visionPrescriptions)
        try common.writeMetadata(
            prescription.metadata, parent: .visionPrescriptions, id: lastVisionID, into: &report)
    }

    func writeECG(_ recording: ElectrocardiogramRecording, into report: inout WriteReport) throws {
        lastECGID += 1
        var day: SQLiteValue = .null
        if let recorded = recording.recordedDate {
            day = .text(TimestampFormatting.dayString(common.day(of: recorded)))
        }
        var blob = [UInt8]()
        blob.reserveCapacity(recording.samples.count * 4)
        for sample in recording.samples {
            withUnsafeBytes(of: sample.bitPattern.littleEndian) { blob.append(contentsOf: $0) }
        }
        try statements.ecg.run([
            "id": .integer(lastECGID),
            "file_name": .text(recording.fileName),
            "recorded_date": .instant(recording.recordedDate),
            "utc_offset": recording.recordedDate.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) }
                ?? .null,
            "local_date": day,
            "classification": .nullable(recording.classification),
            "symptoms": .nullable(recording.symptoms),
            "software_version": .nullable(recording.softwareVersion),
            "device": .nullable(recording.device),
            "sample_rate_hz": .nullable(recording.sampleRateHz),
            "lead": .nullable(recording.lead),
            "unit": .nullable(recording.unit),
            "sample_count": .integer(Int64(recording.samples.count)),
            "samples": .blob(blob),
            "header_json": .text(JSONText.json(recording.header.map { [$0.label, $0.value] })),
        ])
        report.count(.ecgRecordings)
    }

    func writeStateOfMind(_ entry: StateOfMindEntry, into report: inout WriteReport) throws {
        if isFeed, try feed.hasStateOfMind(entry) { return }  // sent again by the feed (FeedMerge.swift)
        lastStateOfMindID += 1
        var day: SQLiteValue = .null
        if let start = entry.startDate { day = .text(TimestampFormatting.dayString(common.day(of: start))) }
        try statements.stateOfMind.run([
            "id": .integer(lastStateOfMindID),
            "identifier": .nullable(entry.identifier),
            "source_name": .text(entry.source),
            "kind": .nullable(entry.kind),
            "start_date": .instant(entry.startDate),
            "end_date": .instant(entry.endDate),
            "utc_offset": entry.startDate.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) } ?? .null,
            "local_date": day,
            "valence": .nullable(entry.valence),
            "valence_shifted": .nullable(entry.valenceShifted),
            "valence_percent": .nullable(entry.valencePercent),
            "classification": .nullable(entry.classification),
            "labels_json": .text(JSONText.json(entry.labels)),
            "associations_json": .text(JSONText.json(entry.associations)),
            "metadata_json": .nullable(entry.metadataJSON),
        ])
        report.count(.stateOfMind)
    }
}
