import Foundation
import HealthSchema
import HealthTestSupport

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// A database for testing one part of the store on its own: the schema in a fresh file, or an export imported
/// first; the connection inside a transaction, as a run holds it.
final class StoreFixture {
    let directory = TemporaryDirectory()
    let path: String
    let connection: SQLiteConnection

    /// An empty database of the current schema.
    init() throws {
        path = directory.file("parts.sqlite")
        connection = try SQLiteConnection(path: path)
        try Schema.createTables(connection)
        try Schema.createIndexes(connection)
        // As a run writes: rows of a part under test may point to parents the test leaves out.
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.execute("BEGIN")
    }

    /// A database that `body` (records of an export document) was imported into, exported at `exportDate`.
    init(importing body: String, exportDate: String = "2024-03-01 10:00:00 +0100") throws {
        path = directory.file("parts.sqlite")
        let xml = exportXML(body).replacingOccurrences(
            of: "2024-03-01 10:00:00 +0100", with: exportDate)
        let export = directory.write("export.xml", xml)
        _ = try ImportJob(inputPath: export, databasePath: path, timeZone: TimeZone(identifier: "Europe/Berlin")!)
            .run()
        connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("BEGIN")
    }

    deinit { directory.remove() }

    func integer(_ sql: String) throws -> Int64? { try connection.scalar(sql).integer }
    func text(_ sql: String) throws -> String? { try connection.scalar(sql).text }

    /// A sample of `type` from "Phone" starting at `start` (`2024-02-01 08:00:00 +0100`), five minutes long.
    static func sample(
        _ type: String = "HKQuantityTypeIdentifierStepCount", start: String?, value: Double = 10,
        metadata: [MetadataEntry] = []
    ) -> Sample {
        var sample = Sample(type: type, source: SampleSource(id: 0, name: "Phone", version: nil, device: nil), line: 3)
        sample.unit = "count"
        sample.value = value
        sample.startDate = start.flatMap(Timestamp.parse)
        sample.endDate = sample.startDate.map { Timestamp(seconds: $0.seconds + 300, offsetSeconds: $0.offsetSeconds) }
        sample.metadata = metadata
        return sample
    }

    /// Three step counts and a heart rate (with metadata), each once.
    static let records = """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="5"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 09:00:00 +0100" endDate="2024-02-01 09:05:00 +0100" value="7"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-02 09:00:00 +0100" endDate="2024-02-02 09:05:00 +0100" value="11"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="61">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
         </Record>
        """
}
