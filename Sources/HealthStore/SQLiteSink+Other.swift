import Foundation
import HealthModel
import HealthSQLite

extension SQLiteSink {
    func writeActivitySummary(_ summary: ActivitySummary) throws {
        ids.summary += 1
        let known = [
            "activeEnergyBurned", "activeEnergyBurnedGoal", "appleMoveTime", "appleMoveTimeGoal",
            "appleExerciseTime", "appleExerciseTimeGoal", "appleStandHours", "appleStandHoursGoal",
        ]
        func value(_ name: String) -> SQLiteValue { real(summary.values.first { $0.name == name }?.value) }
        let others = summary.values.filter { !known.contains($0.name) }
        let otherJSON: SQLiteValue =
            others.isEmpty ? .null : .text(JSONText.json(Dictionary(others, uniquingKeysWith: { a, _ in a })))
        try statements.summary.run([
            "id": .integer(ids.summary),
            "date": text(summary.date),
            "active_energy_burned": value("activeEnergyBurned"),
            "active_energy_burned_goal": value("activeEnergyBurnedGoal"),
            "active_energy_burned_unit": text(summary.activeEnergyBurnedUnit),
            "apple_move_time": value("appleMoveTime"),
            "apple_move_time_goal": value("appleMoveTimeGoal"),
            "apple_exercise_time": value("appleExerciseTime"),
            "apple_exercise_time_goal": value("appleExerciseTimeGoal"),
            "apple_stand_hours": value("appleStandHours"),
            "apple_stand_hours_goal": value("appleStandHoursGoal"),
            "other_json": otherJSON,
            "raw_active_energy_burned_unit": text(summary.rawActiveEnergyBurnedUnit),
        ])
        count(.activitySummaries)
    }

    func writeClinicalRecord(_ record: ClinicalRecord) throws {
        ids.clinical += 1
        try statements.clinical.run([
            "id": .integer(ids.clinical),
            "type": text(record.type),
            "identifier": text(record.identifier),
            "source_name": text(record.sourceName),
            "source_url": text(record.sourceURL),
            "fhir_version": text(record.fhirVersion),
            "received_date": instantText(record.receivedDate),
            "resource_file_path": text(record.resourceFilePath),
            "resource_json": text(record.resourceJSON),
            "problem": text(record.problem),
            "xml_line": .integer(Int64(record.line)),
        ])
        count(.clinicalRecords)
    }

    func writeAudiogram(_ audiogram: Audiogram) throws {
        ids.audiogram += 1
        let id = ids.audiogram
        let header = try headerColumns(
            id: id, type: audiogram.type, source: audiogram.source, start: audiogram.startDate,
            end: audiogram.endDate, creation: audiogram.creationDate, metadata: audiogram.metadata)
        try statements.audiogram.run(columns: header + [("xml_line", .integer(Int64(audiogram.line)))])
        count(.audiograms)
        try writeMetadata(audiogram.metadata, parent: .audiograms, id: id)
        for point in audiogram.points {
            func number(_ name: String) -> SQLiteValue {
                real(point.first { $0.name == name }.flatMap { NumberParsing.parseDouble($0.value) })
            }
            func string(_ name: String) -> SQLiteValue { text(point.first { $0.name == name }?.value) }
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
        count(.audiogramPoints, audiogram.points.count)
    }

    func writeVisionPrescription(_ prescription: VisionPrescription) throws {
        ids.vision += 1
        func attribute(_ name: String) -> String? { prescription.attributes.first { $0.name == name }?.value }
        func date(_ name: String) -> SQLiteValue { instantText(attribute(name).flatMap(Timestamp.parse)) }
        func eye(_ name: String) -> SQLiteValue {
            prescription.eyes.first { $0.eye == name }.map { .text(JSONText.json($0.attributes)) } ?? .null
        }
        try statements.vision.run([
            "id": .integer(ids.vision),
            "type": text(attribute("type")),
            "date_issued": date("dateIssued"),
            "expiration_date": date("expirationDate"),
            "brand": text(attribute("brand")),
            "attributes_json": .text(JSONText.json(prescription.attributes)),
            "right_eye_json": eye("RightEye"),
            "left_eye_json": eye("LeftEye"),
            "attachments_json": prescription.attachments.isEmpty
                ? .null : .text(JSONText.json(prescription.attachments)),
        ])
        count(.visionPrescriptions)
        try writeMetadata(prescription.metadata, parent: .visionPrescriptions, id: ids.vision)
    }

    func writeECG(_ recording: ElectrocardiogramRecording) throws {
        ids.ecg += 1
        var day: SQLiteValue = .null
        if let recorded = recording.recordedDate {
            day = .text(TimestampFormatting.dayString(localDates.day(of: recorded)))
        }
        var blob = [UInt8]()
        blob.reserveCapacity(recording.samples.count * 4)
        for sample in recording.samples {
            withUnsafeBytes(of: sample.bitPattern.littleEndian) { blob.append(contentsOf: $0) }
        }
        try statements.ecg.run([
            "id": .integer(ids.ecg),
            "file_name": .text(recording.fileName),
            "recorded_date": instantText(recording.recordedDate),
            "utc_offset": recording.recordedDate.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) }
                ?? .null,
            "local_date": day,
            "classification": text(recording.classification),
            "symptoms": text(recording.symptoms),
            "software_version": text(recording.softwareVersion),
            "device": text(recording.device),
            "sample_rate_hz": real(recording.sampleRateHz),
            "lead": text(recording.lead),
            "unit": text(recording.unit),
            "sample_count": .integer(Int64(recording.samples.count)),
            "samples": .blob(blob),
            "header_json": .text(JSONText.json(recording.header.map { [$0.label, $0.value] })),
        ])
        count(.ecgRecordings)
    }

    func writeStateOfMind(_ entry: StateOfMindEntry) throws {
        if options.feed, try feedHasStateOfMind(entry) { return }  // sent again by the feed (FeedMerge.swift)
        ids.stateOfMind += 1
        var day: SQLiteValue = .null
        if let start = entry.startDate { day = .text(TimestampFormatting.dayString(localDates.day(of: start))) }
        try statements.stateOfMind.run([
            "id": .integer(ids.stateOfMind),
            "identifier": text(entry.identifier),
            "source_name": .text(entry.source),
            "kind": text(entry.kind),
            "start_date": instantText(entry.startDate),
            "end_date": instantText(entry.endDate),
            "utc_offset": entry.startDate.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) } ?? .null,
            "local_date": day,
            "valence": real(entry.valence),
            "valence_shifted": real(entry.valenceShifted),
            "valence_percent": real(entry.valencePercent),
            "classification": text(entry.classification),
            "labels_json": .text(JSONText.json(entry.labels)),
            "associations_json": .text(JSONText.json(entry.associations)),
            "metadata_json": text(entry.metadataJSON),
        ])
        count(.stateOfMind)
    }
}
