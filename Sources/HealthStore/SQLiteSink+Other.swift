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
        let otherJSON: SQLiteValue = others.isEmpty ? .null : .text(JSONText.json(Dictionary(others, uniquingKeysWith: { a, _ in a })))
        try statements.summary.run([
            .integer(ids.summary), text(summary.date), value("activeEnergyBurned"), value("activeEnergyBurnedGoal"),
            text(summary.activeEnergyBurnedUnit), value("appleMoveTime"), value("appleMoveTimeGoal"),
            value("appleExerciseTime"), value("appleExerciseTimeGoal"), value("appleStandHours"),
            value("appleStandHoursGoal"), otherJSON, text(summary.rawActiveEnergyBurnedUnit),
        ])
        count("activity_summaries")
    }

    func writeClinicalRecord(_ record: ClinicalRecord) throws {
        ids.clinical += 1
        try statements.clinical.run([
            .integer(ids.clinical), text(record.type), text(record.identifier), text(record.sourceName),
            text(record.sourceURL), text(record.fhirVersion), instantText(record.receivedDate),
            text(record.resourceFilePath), text(record.resourceJSON), text(record.problem), .integer(Int64(record.line)),
        ])
        count("clinical_records")
    }

    func writeAudiogram(_ audiogram: Audiogram) throws {
        ids.audiogram += 1
        let id = ids.audiogram
        let statement = statements.audiogram
        try bindHeader(
            statement, id: id, type: audiogram.type, source: audiogram.source, start: audiogram.startDate,
            end: audiogram.endDate, creation: audiogram.creationDate, metadata: audiogram.metadata)
        statement.bind(10, Int64(audiogram.line))
        try statement.run()
        count("audiograms")
        try writeMetadata(audiogram.metadata, table: "audiograms", id: id)
        for point in audiogram.points {
            func number(_ name: String) -> SQLiteValue {
                real(point.first { $0.name == name }.flatMap { NumberParsing.parseDouble($0.value) })
            }
            func string(_ name: String) -> SQLiteValue { text(point.first { $0.name == name }?.value) }
            try statements.audiogramPoint.run([
                .integer(id), number("frequencyValue"), string("frequencyUnit"), number("leftEarValue"),
                string("leftEarUnit"), number("rightEarValue"), string("rightEarUnit"), .text(JSONText.json(point)),
            ])
        }
        count("audiogram_points", audiogram.points.count)
    }

    func writeVisionPrescription(_ prescription: VisionPrescription) throws {
        ids.vision += 1
        func attribute(_ name: String) -> String? { prescription.attributes.first { $0.name == name }?.value }
        func date(_ name: String) -> SQLiteValue { instantText(attribute(name).flatMap(Timestamp.parse)) }
        func eye(_ name: String) -> SQLiteValue {
            prescription.eyes.first { $0.eye == name }.map { .text(JSONText.json($0.attributes)) } ?? .null
        }
        try statements.vision.run([
            .integer(ids.vision), text(attribute("type")), date("dateIssued"), date("expirationDate"),
            text(attribute("brand")), .text(JSONText.json(prescription.attributes)), eye("RightEye"), eye("LeftEye"),
            prescription.attachments.isEmpty ? .null : .text(JSONText.json(prescription.attachments)),
        ])
        count("vision_prescriptions")
        try writeMetadata(prescription.metadata, table: "vision_prescriptions", id: ids.vision)
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
            .integer(ids.ecg), .text(recording.fileName), instantText(recording.recordedDate),
            recording.recordedDate.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) } ?? .null, day,
            text(recording.classification), text(recording.symptoms), text(recording.softwareVersion),
            text(recording.device), real(recording.sampleRateHz), text(recording.lead), text(recording.unit),
            .integer(Int64(recording.samples.count)), .blob(blob),
            .text(JSONText.json(recording.header.map { [$0.label, $0.value] })),
        ])
        count("ecg_recordings")
    }

    func writeStateOfMind(_ entry: StateOfMindEntry) throws {
        if options.feed, try feedHasStateOfMind(entry) { return }  // sent again by the feed (FeedMerge.swift)
        ids.stateOfMind += 1
        var day: SQLiteValue = .null
        if let start = entry.startDate { day = .text(TimestampFormatting.dayString(localDates.day(of: start))) }
        try statements.stateOfMind.run([
            .integer(ids.stateOfMind), text(entry.identifier), .text(entry.source), text(entry.kind),
            instantText(entry.startDate), instantText(entry.endDate),
            entry.startDate.map { .text(TimestampFormatting.offsetString($0.offsetSeconds)) } ?? .null, day,
            real(entry.valence), real(entry.valenceShifted), real(entry.valencePercent), text(entry.classification),
            .text(JSONText.json(entry.labels)), .text(JSONText.json(entry.associations)), text(entry.metadataJSON),
        ])
        count("state_of_mind")
    }
}
