import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// IEEE 1752.1 data points (header and body, the Open mHealth schemas' successor) from the same `ExportRecord`s
/// as FHIR: one NDJSON file per schema. The header is IEEE's (`header-1.0`): a stable uuid, the body's schema id,
/// the creation time, and the source as acquisition provenance. docs/fhir.md, "IEEE 1752.1".
package struct IEEE1752DataPoints {
    /// The schemas written (namespace, name, version): the Open mHealth schemas that conform to IEEE 1752.1.
    package static let schemas: [(name: String, namespace: String, version: String)] = [
        ("step-count", "omh", "3.0"), ("physical-activity", "omh", "1.2"), ("heart-rate", "omh", "2.0"),
        ("oxygen-saturation", "omh", "2.0"), ("respiratory-rate", "omh", "2.0"), ("body-weight", "omh", "3.0"),
        ("blood-pressure", "omh", "4.0"), ("sleep-episode", "omh", "1.1"),
    ]

    /// The local day's bounds come from the database's time zone (`settings.time_zone`).
    let calendar: Calendar

    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The schema name and the data point of a record; nil for a type IEEE 1752.1 has no schema for here.
    func dataPoint(_ record: ExportRecord) -> (schema: String, json: String)? {
        switch record {
        case .daily(let mapping, let date, let value, let sources):
            guard value.isFinite, let (start, end) = dayBounds(date),
                let (schema, body) = quantityBody(
                    mapping, value: value, frame: Self.interval(start, end),
                    statistic: mapping.daily == .sum ? "sum" : "average")
            else { return nil }
            return (
                schema,
                Self.point(schema, id: ["daily", mapping.type, date], created: start, source: sources, body: body)
            )
        case .reading(let mapping, let identity, let source, let start, let end, let value):
            guard value.isFinite else { return nil }
            let frame = start == end ? Self.dateTime(start) : Self.interval(start, end)
            guard let (schema, body) = quantityBody(mapping, value: value, frame: frame, statistic: nil) else {
                return nil
            }
            return (
                schema,
                Self.point(schema, id: [mapping.type, String(identity)], created: start, source: source, body: body)
            )
        case .night(let date, let stages, let sources):
            // The night filed on `date` (the day it ends, as the rollups file it): IEEE's time interval of a date
            // and a part of the day.
            var interval = JSONObjectText()
            interval.string("date", date)
            interval.string("part_of_day", "night")
            var frame = JSONObjectText()
            frame.raw("time_interval", interval.json)
            let asleep = stages.filter { stage in
                FHIRMapping.sleepStages.contains { $0.statistic == stage.statistic && $0.asleep }
            }.reduce(0) { $0 + $1.hours }
            var body = JSONObjectText()
            body.raw("effective_time_frame", frame.json)
            body.raw("total_sleep_time", Self.unitValue(asleep, "h"))
            if let awake = stages.first(where: { $0.statistic == "Awake_hours" })?.hours, awake.isFinite {
                body.raw("wake_after_sleep_onset", Self.unitValue(awake, "h"))
            }
            return (
                "sleep-episode",
                Self.point("sleep-episode", id: ["night", date], created: nil, source: sources, body: body.json)
            )
        case .bloodPressure(let identity, let source, let start, let end, let systolic, let diastolic):
            guard systolic.isFinite, diastolic.isFinite else { return nil }
            var body = JSONObjectText()
            body.raw("systolic_blood_pressure", Self.unitValue(systolic, "mmHg"))
            body.raw("diastolic_blood_pressure", Self.unitValue(diastolic, "mmHg"))
            body.raw("effective_time_frame", start == end ? Self.dateTime(start) : Self.interval(start, end))
            return (
                "blood-pressure",
                Self.point(
                    "blood-pressure", id: ["HKCorrelationTypeIdentifierBloodPressure", String(identity)],
                    created: start, source: source, body: body.json)
            )
        }
    }

    /// The body of a quantity, by type; nil for the types without a schema here (energy, exercise minutes,
    /// HRV, temperature, height, BMI, glucose, VO2 max: FHIR only).
    private func quantityBody(_ mapping: FHIRMapping, value: Double, frame: String, statistic: String?)
        -> (String, String)?
    {
        var body = JSONObjectText()
        let schema: String
        switch mapping.type {
        case "HKQuantityTypeIdentifierStepCount":
            schema = "step-count"
            body.raw("step_count", Self.unitValue(value, "steps"))
        case "HKQuantityTypeIdentifierDistanceWalkingRunning":
            schema = "physical-activity"
            body.string("activity_name", "walking and running")
            body.raw("distance", Self.unitValue(value, "m"))
        case "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierRestingHeartRate":
            schema = "heart-rate"
            body.raw("heart_rate", Self.unitValue(value, "beats/min"))
            if mapping.type.hasSuffix("RestingHeartRate") {
                body.string("temporal_relationship_to_physical_activity", "at rest")
            }
        case "HKQuantityTypeIdentifierOxygenSaturation":
            schema = "oxygen-saturation"
            body.raw("oxygen_saturation", Self.unitValue(value * 100, "%"))
        case "HKQuantityTypeIdentifierRespiratoryRate":
            schema = "respiratory-rate"
            body.raw("respiratory_rate", Self.unitValue(value, "breaths/min"))
        case "HKQuantityTypeIdentifierBodyMass":
            schema = "body-weight"
            body.raw("body_weight", Self.unitValue(value, "kg"))
        default:
            return nil
        }
        body.raw("effective_time_frame", frame)
        body.string("descriptive_statistic", statistic)
        return (schema, body.json)
    }

    /// The local day `date` as UTC instants, from midnight to the next (23 or 25 hours on a clock change).
    func dayBounds(_ date: String) -> (String, String)? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
            let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
            let end = calendar.date(byAdding: .day, value: 1, to: start)
        else { return nil }
        return (
            TimestampFormatting.utcString(Int64(start.timeIntervalSince1970)),
            TimestampFormatting.utcString(Int64(end.timeIntervalSince1970))
        )
    }

    static func point(_ schema: String, id parts: [String], created: String?, source: String, body: String) -> String {
        let version = schemas.first { $0.name == schema }!
        var schemaID = JSONObjectText()
        schemaID.string("namespace", version.namespace)
        schemaID.string("name", schema)
        schemaID.string("version", version.version)
        var header = JSONObjectText()
        header.string("uuid", uuid(["IEEE1752", schema] + parts))
        header.raw("schema_id", schemaID.json)
        // A night has no instant of its own: its date, at midnight UTC, stands for when it was recorded.
        header.string("source_creation_date_time", created ?? (parts.last.map { $0 + "T00:00:00Z" } ?? ""))
        if !source.isEmpty {
            var provenance = JSONObjectText()
            provenance.string("source_name", source)
            header.raw("acquisition_provenance", provenance.json)
        }
        var point = JSONObjectText()
        point.raw("header", header.json)
        point.raw("body", body)
        return point.json
    }

    /// A stable RFC 4122 form (version 8: custom) from two `StableHasher` hashes of the row's identity.
    static func uuid(_ parts: [String]) -> String {
        func hash(_ salt: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(salt)
            for part in parts { hasher.combine(part) }
            return UInt64(bitPattern: hasher.finish())
        }
        let high = (hash("uuid-high") & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_8000
        let low = (hash("uuid-low") & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: digits - text.count) + text
        }
        let h = hex(high, 16)
        let l = hex(low, 16)
        return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
    }

    static func unitValue(_ value: Double, _ unit: String) -> String {
        var object = JSONObjectText()
        object.number("value", value)
        object.string("unit", unit)
        return object.json
    }

    static func dateTime(_ instant: String) -> String {
        var frame = JSONObjectText()
        frame.string("date_time", instant)
        return frame.json
    }

    static func interval(_ start: String, _ end: String) -> String {
        var interval = JSONObjectText()
        interval.string("start_date_time", start)
        interval.string("end_date_time", end)
        var frame = JSONObjectText()
        frame.raw("time_interval", interval.json)
        return frame.json
    }
}

/// `healthetl export --ieee1752 <folder>`: a file per schema, `<name>.ndjson` (`step-count.ndjson`, …).
public enum IEEE1752Export {
    public static func write(databasePath: String, to folder: String, level: ExportLevel) throws -> InterchangeReport {
        let connection = try StoredDatabase.openForReading(databasePath, requiring: ["daily_rollups", "correlations"])
        try ExportFolder.prepare(folder)
        var report = InterchangeReport(folder: folder, format: "ieee1752", level: level.rawValue)
        var files: [String: OutputFile] = [:]
        var order: [String] = []
        do {
            try StoredDatabase.read(databasePath) {
                let zone = try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'").text
                let points = IEEE1752DataPoints(timeZone: zone.flatMap(TimeZone.init(identifier:)) ?? .current)
                var reader = ExportRecordReader(connection: connection, level: level)
                // Days and readings of FHIR's types that have no IEEE 1752.1 schema here (energy, HRV, …).
                var noSchema: [String: Int] = [:]
                try reader.forEachRecord { record in
                    guard let (schema, json) = points.dataPoint(record) else {
                        if case .daily(let mapping, _, _, _) = record { noSchema[mapping.type, default: 0] += 1 }
                        if case .reading(let mapping, _, _, _, _, _) = record {
                            noSchema[mapping.type, default: 0] += 1
                        }
                        return
                    }
                    if files[schema] == nil {
                        files[schema] = try OutputFile(path: folder + "/" + schema + ".ndjson")
                        order.append(schema)
                    }
                    try files[schema]!.appendLine(json)
                    report.counts[schema, default: 0] += 1
                }
                report.skipped = reader.skipped
                for (type, count) in noSchema { report.skipped["\(type): no IEEE 1752.1 schema here"] = count }
                report.typesLeftOut = try ExportRecordReader.typesLeftOut(connection)
            }
            let (written, unchanged) = try ExportFolder.publish(order.map { files[$0]! })
            report.written = written
            report.unchanged = unchanged
            ExportFolder.removeStale(
                in: folder, owned: IEEE1752DataPoints.schemas.map { $0.name + ".ndjson" }, keeping: written + unchanged)
        } catch {
            for file in files.values { file.discard() }
            throw error
        }
        return report
    }
}
