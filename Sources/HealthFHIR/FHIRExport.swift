import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// What writing a FHIR or IEEE 1752.1 folder did.
public struct InterchangeReport: Sendable, Encodable {
    public var folder: String
    /// `fhir` or `ieee1752`.
    public var format: String
    public var level: String
    /// Resources (FHIR) or data points (IEEE) written, by resource type or schema.
    public var counts: [String: Int] = [:]
    /// Files whose content changed (renamed into place), and those left as they were.
    public var written: [String] = []
    public var unchanged: [String] = []
    /// Rows not written because they lack what the format needs, by reason.
    public var skipped: [String: Int] = [:]
    /// Types the database holds that the format does not write (docs/fhir.md), with their rows.
    public var typesLeftOut: [String: Int] = [:]
}

/// `healthetl export --fhir <folder>`: FHIR R4 (4.0.1) Bulk Data NDJSON, one file per resource type
/// (`Observation.ndjson`, `Device.ndjson`, `Patient.ndjson`), or one `transaction` Bundle (`bundle.json`).
/// Read from a finished database (a reading peer: never the writer). docs/fhir.md.
public enum FHIRExport {
    public struct Options: Sendable, Equatable {
        public var level = ExportLevel.daily
        /// Write `Patient.ndjson` (and `subject` references); `--no-patient` leaves the person out.
        public var patient = true
        /// One transaction Bundle instead of NDJSON files.
        public var bundle = false

        public init() {}
    }

    /// Every file this output may write; those not written by a run are removed (a run after `--bundle`
    /// leaves no NDJSON of the run before, `--no-patient` no earlier Patient).
    static let ownedFiles = ["Observation.ndjson", "Device.ndjson", "Patient.ndjson", "bundle.json"]

    public static func write(databasePath: String, to folder: String, options: Options) throws -> InterchangeReport {
        let connection = try StoredDatabase.openForReading(
            databasePath, requiring: ["daily_rollups", "sources", "me", "correlations"])
        try ExportFolder.prepare(folder)
        var report = InterchangeReport(folder: folder, format: "fhir", level: options.level.rawValue)
        let sink = try FHIRSink(folder: folder, bundle: options.bundle)
        do {
            try StoredDatabase.read(databasePath) {
                var patientReference: String?
                if options.patient {
                    let (id, json) = try patient(connection)
                    try sink.add("Patient", id: id, json: json)
                    patientReference = "Patient/" + id
                }
                try forEachDevice(connection) { id, json in try sink.add("Device", id: id, json: json) }
                let resources = FHIRResources(patientReference: patientReference)
                var reader = ExportRecordReader(connection: connection, level: options.level)
                try reader.forEachRecord { record in
                    guard let (id, json) = resources.observation(record) else {
                        report.skipped["not a finite number", default: 0] += 1
                        return
                    }
                    try sink.add("Observation", id: id, json: json)
                }
                report.skipped.merge(reader.skipped) { $0 + $1 }
                report.typesLeftOut = try ExportRecordReader.typesLeftOut(connection)
            }
            report.counts = sink.counts
            let (written, unchanged) = try sink.finish()
            report.written = written
            report.unchanged = unchanged
            ExportFolder.removeStale(in: folder, owned: ownedFiles, keeping: written + unchanged)
        } catch {
            sink.discard()
            throw error
        }
        return report
    }

    /// One Device per source name, with the maker, model and version of its newest `sources` row.
    static func forEachDevice(_ connection: SQLiteConnection, _ body: (String, String) throws -> Void) throws {
        let rows = try connection.prepare(
            "SELECT name, version, device_manufacturer, device_model FROM sources AS s "
                + "WHERE id = (SELECT max(id) FROM sources WHERE name = s.name) ORDER BY name")
        try rows.forEachRow { row in
            let (id, json) = FHIRResources.device(
                name: row.text(0) ?? "", version: row.text(1), manufacturer: row.text(2), model: row.text(3))
            try body(id, json)
        }
    }

    /// The Patient from `me`. Its id: the person's pseudonym when the database is a de-identified copy made
    /// with `--person`, otherwise a fixed hash (the export names nobody: there is nothing else to key it on).
    static func patient(_ connection: SQLiteConnection) throws -> (String, String) {
        var values: [String: String] = [:]
        for row in try connection.query("SELECT key, value FROM me") {
            if let key = row[0].text { values[key] = row[1].text }
        }
        let person = try connection.scalar(
            "SELECT json_extract(value, '$.person') FROM settings WHERE key = 'deidentification' AND json_valid(value)"
        ).text
        let id = person ?? FHIRResources.id(["Patient"])
        let json = FHIRResources.patient(
            id: id, gender: FHIRResources.gender(values["HKCharacteristicTypeIdentifierBiologicalSex"]),
            birthDate: FHIRResources.birthDate(values["HKCharacteristicTypeIdentifierDateOfBirth"]))
        return (id, json)
    }
}

/// Where the resources go: a file per resource type, or the entries of one transaction Bundle.
final class FHIRSink {
    private let folder: String
    private let bundle: OutputFile?
    private var files: [String: OutputFile] = [:]
    private var order: [String] = []
    private(set) var counts: [String: Int] = [:]

    init(folder: String, bundle: Bool) throws {
        self.folder = folder
        if bundle {
            let file = try OutputFile(path: folder + "/bundle.json")
            try file.append(#"{"resourceType":"Bundle","type":"transaction","entry":["#)
            self.bundle = file
        } else {
            self.bundle = nil
        }
    }

    func add(_ resourceType: String, id: String, json: String) throws {
        let count = counts[resourceType, default: 0]
        counts[resourceType] = count + 1
        if let bundle {
            var request = JSONObjectText()
            request.string("method", "PUT")
            request.string("url", resourceType + "/" + id)
            var entry = JSONObjectText()
            entry.raw("resource", json)
            entry.raw("request", request.json)
            try bundle.append((counts.values.reduce(0, +) > 1 ? ",\n" : "\n") + entry.json)
            return
        }
        if files[resourceType] == nil {
            files[resourceType] = try OutputFile(path: folder + "/" + resourceType + ".ndjson")
            order.append(resourceType)
        }
        try files[resourceType]!.appendLine(json)
    }

    /// Completes every file, then renames the changed ones: (written, unchanged) file names.
    func finish() throws -> ([String], [String]) {
        let all: [OutputFile]
        if let bundle {
            try bundle.append("\n]}\n")
            all = [bundle]
        } else {
            all = order.map { files[$0]! }
        }
        return try ExportFolder.publish(all)
    }

    func discard() {
        bundle?.discard()
        for file in files.values { file.discard() }
    }
}

/// The folder of an export: made owner-only when missing; files published together, stale ones removed.
enum ExportFolder {
    static func prepare(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw ImportError(.usage, "not a folder", file: folder) }
            return
        }
        guard mkdir(folder, 0o700) == 0 else {
            throw ImportError(.output, "cannot create the folder: \(SystemError.last)", file: folder)
        }
    }

    /// Closes every file first (a failure leaves the old ones), then renames those that changed.
    static func publish(_ files: [OutputFile]) throws -> ([String], [String]) {
        var changed: [Bool] = []
        for file in files { changed.append(try file.finish()) }
        var written: [String] = []
        var unchanged: [String] = []
        for (file, isChanged) in zip(files, changed) {
            try file.publish(changed: isChanged)
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            if isChanged { written.append(name) } else { unchanged.append(name) }
        }
        return (written, unchanged)
    }

    static func removeStale(in folder: String, owned: [String], keeping: [String]) {
        for name in owned where !keeping.contains(name) { unlink(folder + "/" + name) }
    }
}
