import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import SampleExports

/// The iOS 8/9 export format: compact dates, `source=`, metadata as attributes, aggregates.
/// Every expectation is computed here from the XML itself (a regular expression and Foundation's date
/// formatter), not by the decoder under test.
@Suite("iOS 8/9 legacy format")
struct LegacyFormatTests {
    static let fixture = Fixtures.repositoryRoot + "/Tests/Fixtures/legacy-ios8.xml"
    /// A record's own attributes; every other one is metadata.
    static let ownAttributes: Set<String> = [
        "type", "source", "unit", "creationDate", "startDate", "endDate", "value",
    ]

    /// One `Record` as the test reads it, with the line of its tag.
    struct XMLRecord {
        let line: Int
        let attributes: [String: String]
        var metadata: [String: String] { attributes.filter { !LegacyFormatTests.ownAttributes.contains($0.key) } }
    }

    /// The `Record` tags of a file written one per line (as every exporter does), read with a regular
    /// expression: a reading independent of libxml2 and the decoder.
    static func records(in path: String) throws -> [XMLRecord] {
        let attribute = try NSRegularExpression(pattern: #"([^\s=<>"]+)="([^"]*)""#)
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        return lines.enumerated().compactMap { index, line in
            guard line.trimmingCharacters(in: .whitespaces).hasPrefix("<Record ") else { return nil }
            var attributes: [String: String] = [:]
            for match in attribute.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                let name = String(line[Range(match.range(at: 1), in: line)!])
                let value = String(line[Range(match.range(at: 2), in: line)!])
                attributes[name] = value.replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
            return XMLRecord(line: index + 1, attributes: attributes)
        }
    }

    /// `yyyyMMddHHmmss±hhmm` → `yyyy-MM-ddTHH:mm:ssZ`, by Foundation.
    static func utc(_ compact: String) throws -> String {
        let reader = DateFormatter()
        reader.locale = Locale(identifier: "en_US_POSIX")
        reader.dateFormat = "yyyyMMddHHmmssZ"
        let date = try #require(reader.date(from: compact), "\(compact)")
        let writer = ISO8601DateFormatter()
        writer.timeZone = TimeZone(identifier: "UTC")
        return writer.string(from: date)
    }

    static func importFile(_ path: String, into database: String, rescan: Bool = false) throws -> ImportSummary {
        var job = ImportJob(inputPath: path, databasePath: database, timeZone: TimeZone(identifier: "Europe/London")!)
        job.rescan = rescan
        return try job.run()
    }

    static let sampleTables = ["cumulative_samples", "discrete_samples", "category_samples"]

    /// Every sample row by its XML line: table, id, and the columns the tests compare.
    static func rowsByLine(_ db: SQLiteConnection) throws -> [Int: [String: SQLiteValue]] {
        var rows: [Int: [String: SQLiteValue]] = [:]
        let columns = [
            "id", "type", "source_name", "start_date", "end_date", "creation_date", "value", "unit",
            "raw_value", "raw_unit", "flags", "xml_line",
        ]
        for table in sampleTables {
            for row in try db.query("SELECT \(columns.joined(separator: ", ")) FROM \(table)") {
                var named = Dictionary(uniqueKeysWithValues: zip(columns, row))
                named["table"] = .text(table)
                guard case .integer(let line) = row[11] else { continue }
                rows[Int(line)] = named
            }
        }
        return rows
    }

    static func metadata(_ db: SQLiteConnection, table: String, id: Int64) throws -> [String: (
        String, Double?, String?
    )] {
        var entries: [String: (String, Double?, String?)] = [:]
        for row in try db.query(
            "SELECT key, value, number, number_unit FROM metadata WHERE parent_table = '\(table)' AND parent_id = \(id)"
        ) {
            guard case .text(let key) = row[0], case .text(let value) = row[1] else { continue }
            var number: Double?
            if case .real(let n) = row[2] { number = n }
            var unit: String?
            if case .text(let u) = row[3] { unit = u }
            entries[key] = (value, number, unit)
        }
        return entries
    }

    static func text(_ value: SQLiteValue?) -> String? { if case .text(let text)? = value { text } else { nil } }
    static func real(_ value: SQLiteValue?) -> Double? { if case .real(let number)? = value { number } else { nil } }

    // MARK: - Dates

    @Test("compact dates parse to the UTC instant, whatever their offset")
    func compactDates() throws {
        for text in ["20141018163235+0100", "20140106084300-0800", "20151231235959+1345", "20160229000000+0000"] {
            let parsed = try #require(Timestamp.parse(text), "\(text)")
            #expect(TimestampFormatting.utcString(parsed.seconds) == (try Self.utc(text)), "\(text)")
        }
        #expect(Timestamp.parse("20140106084300-0800")?.offsetSeconds == -28_800)
        // The cache used on the hot path falls back to the same parser.
        var cache = TimestampCache()
        let bytes = Array("20141018163235+0100".utf8)
        #expect(bytes.withUnsafeBufferPointer { cache.parse($0) } == Timestamp.parse("20141018163235+0100"))
        for bad in [
            "19881029", "20141318163235+0100", "20150229120000+0100", "20141018163235 0100",
            "2014101816323+01000", "20141018246000+0100", "201410181632350+100",
        ] {
            #expect(Timestamp.parse(bad) == nil, "\(bad)")
        }
    }

    // MARK: - The hand-written fixture

    @Test("every record of the legacy fixture is stored with its dates, source, metadata and aggregates")
    func fixtureImportsCompletely() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let expected = try Self.records(in: Self.fixture)
        try #require(expected.count > 10)
        let database = directory.file("health.sqlite")
        let summary = try Self.importFile(Self.fixture, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        let rows = try Self.rowsByLine(db)

        #expect(rows.count == expected.count)
        #expect(summary.dropped.isEmpty)
        #expect(summary.flagged.isEmpty)
        #expect(summary.warnings[ExportReader.legacyFormatNote] == expected.count)
        var aggregates = 0
        for record in expected {
            let row = try #require(rows[record.line], "record at line \(record.line) not stored")
            let attributes = record.attributes
            #expect(Self.text(row["type"]) == attributes["type"])
            #expect(Self.text(row["source_name"]) == attributes["source"])
            #expect(Self.text(row["start_date"]) == (try Self.utc(attributes["startDate"]!)))
            #expect(Self.text(row["end_date"]) == (try Self.utc(attributes["endDate"]!)))
            #expect(Self.text(row["creation_date"]) == (try attributes["creationDate"].map(Self.utc)))
            // Nothing flagged (bad_date 32, missing_source 16, bad_value 64, …); 512 marks manual entries.
            let userEntered: Int64 = attributes["HKWasUserEntered"] == "1" ? 512 : 0
            #expect(row["flags"] == .integer(userEntered), "line \(record.line)")

            guard case .text(let table) = row["table"], case .integer(let id) = row["id"] else { continue }
            let stored = try Self.metadata(db, table: table, id: id)
            #expect(Set(stored.keys) == Set(record.metadata.keys), "line \(record.line)")
            for (key, value) in record.metadata { #expect(stored[key]?.0 == value, "line \(record.line) \(key)") }

            if let average = attributes["average"].flatMap(Double.init) {
                aggregates += 1
                // count/s → count/min: the value is the aggregate's mean; min and max are converted alike.
                try #require(attributes["unit"] == "count/s" && attributes["value"] == nil)
                #expect(abs(Self.real(row["value"])! - average * 60) < 1e-9)
                #expect(Self.real(row["raw_value"]) == average)
                #expect(Self.text(row["raw_unit"]) == "count/s")
                for key in ["min", "max", "average"] {
                    let number = try #require(stored[key]?.1)
                    #expect(abs(number - Double(attributes[key]!)! * 60) < 1e-9)
                    #expect(stored[key]?.2 == "count/min")
                }
            }
        }
        #expect(aggregates == 3)
        #expect(
            try db.scalar("SELECT count(*) FROM metadata WHERE key = 'recordCount'")
                == .integer(
                    Int64(expected.filter { $0.attributes["recordCount"] != nil }.count)))
        // Me: kept as exported (HealthKit's enum raw values, birthday yyyyMMdd).
        #expect(
            try db.scalar("SELECT value FROM me WHERE key = 'HKCharacteristicTypeIdentifierDateOfBirth'")
                == .text("19790322"))
        #expect(
            try db.scalar("SELECT value FROM me WHERE key = 'HKCharacteristicTypeIdentifierBiologicalSex'")
                == .text("1"))
        // The export date is read too (it guards against importing an older export later).
        #expect(summary.exportDate == (try Self.utc("20151012083015+0100")))
    }

    // MARK: - The generator's ios8 profile

    @Test("a generated iOS 8 export imports completely and matches the generator's tally")
    func generatedExportMatchesTally() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 3, days: 21, profile: .ios8)
        options.exportOffset = "+0100"
        let xml = directory.file("export.xml")
        let tally = try ExportGenerator(options: options).write(to: .bareXML(xml))
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(!text.contains("<!DOCTYPE"))
        let records = text.components(separatedBy: "<Record ").count - 1
        #expect(records == tally.records)
        #expect(tally.aggregatedRecords > 0 && tally.metadataAttributes > tally.aggregatedRecords)

        let database = directory.file("health.sqlite")
        let summary = try Self.importFile(xml, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        let count = { (sql: String) throws -> Int in
            guard case .integer(let n) = try db.scalar(sql) else { return -1 }
            return Int(n)
        }
        let union = Self.sampleTables.map { "SELECT flags, type FROM \($0)" }.joined(separator: " UNION ALL ")
        #expect(try count("SELECT count(*) FROM (\(union))") == records)
        #expect(try count("SELECT count(*) FROM (\(union)) WHERE flags & (16 | 32 | 64) <> 0") == 0)
        #expect(summary.dropped.isEmpty)
        var byType: [String: Int] = [:]
        for row in try db.query("SELECT type, count(*) FROM (\(union)) GROUP BY type") {
            if case .text(let type) = row[0], case .integer(let n) = row[1] { byType[type] = Int(n) }
        }
        #expect(byType == tally.recordsByType)
        #expect(try count("SELECT count(*) FROM metadata") == tally.metadataAttributes)
        #expect(try count("SELECT count(*) FROM metadata WHERE key = 'recordCount'") == tally.aggregatedRecords)
        // Steps per day (in the export's +0100) and source, as the generator summed them.
        var steps: [String: [String: Int]] = [:]
        for row in try db.query(
            "SELECT date(start_date, '+1 hours'), source_name, sum(value) FROM cumulative_samples "
                + "WHERE type = 'HKQuantityTypeIdentifierStepCount' GROUP BY 1, 2")
        {
            if case .text(let day) = row[0], case .text(let source) = row[1], case .real(let sum) = row[2] {
                steps[day, default: [:]][source] = Int(sum)
            }
        }
        #expect(steps == tally.stepsBySourcePerDay)
    }

    // MARK: - Unreadable dates are never duplicates

    static func unreadableDates(extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2016-01-05 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="06/01/2014 08:43" endDate="06/01/2014 09:43" value="412"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="07/01/2014 08:43" endDate="07/01/2014 09:43" value="412"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="07/01/2014 08:43" endDate="07/01/2014 09:43" value="412"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="2014-01-08 08:43:00 +0100" endDate="2014-01-08 09:43" value="412"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="2014-01-08 08:43:00 +0100" endDate="2014-01-08 09:43" value="412"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="2014-01-09 08:43:00 +0100" endDate="2014-01-09 09:43:00 +0100" value="412"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" startDate="2014-01-09 08:43:00 +0100" endDate="2014-01-09 09:43:00 +0100" value="412"/>
        \(extra)</HealthData>
        """
    }

    @Test("a record whose dates cannot be read is never dropped as another's duplicate, on import or re-import")
    func unreadableDatesAreNeverDuplicates() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let text = Self.unreadableDates()
        let path = directory.write("export.xml", text)
        // Which records have a date in neither export format, and how many distinct readable ones there are.
        let exportDate = try NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$"#)
        let readable = { (date: String) in
            exportDate.firstMatch(in: date, range: NSRange(date.startIndex..., in: date)) != nil
        }
        let records = try Self.records(in: path)
        let unreadable = records.filter {
            !readable($0.attributes["startDate"]!) || !readable($0.attributes["endDate"]!)
        }
        let readableDistinct = Set(
            records.filter { readable($0.attributes["startDate"]!) && readable($0.attributes["endDate"]!) }
                .map { $0.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        )
        try #require(unreadable.count == 5 && readableDistinct.count == 1)

        let database = directory.file("health.sqlite")
        let summary = try Self.importFile(path, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        // Every record with an unreadable date is kept, even the one identical to another in every byte;
        // of the readable twins one is an exact duplicate.
        #expect(
            try db.scalar("SELECT count(*) FROM cumulative_samples WHERE flags & 32 <> 0")
                == .integer(Int64(unreadable.count)))
        #expect(
            try db.scalar("SELECT count(*) FROM cumulative_samples WHERE flags & 32 = 0")
                == .integer(Int64(readableDistinct.count)))
        #expect(summary.dropped["exact duplicate records"] == records.count - unreadable.count - readableDistinct.count)
        #expect(summary.flagged["bad_date"] == unreadable.count)
        // No DOCTYPE, but modern attributes: not read as the legacy format.
        #expect(summary.warnings[ExportReader.legacyFormatNote] == nil)

        // The next export (one record more) recognises all of them: nothing deleted, nothing added twice.
        let next = Self.unreadableDates(
            extra: " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Pedometer\" unit=\"count\" "
                + "startDate=\"2014-01-10 08:43:00 +0100\" endDate=\"2014-01-10 09:43:00 +0100\" value=\"97\"/>\n")
        let again = try Self.importFile(directory.write("export2.xml", next), into: database)
        let changes = try #require(again.changes["HKQuantityTypeIdentifierStepCount"])
        #expect(changes.added == 1 && changes.deleted == 0 && changes.unchanged == 6)
        #expect(try db.scalar("SELECT count(*) FROM cumulative_samples") == .integer(7))
        #expect(try db.scalar("SELECT count(*) FROM deleted_samples") == .integer(0))
    }

    // MARK: - Real exports

    @Test(
        "modern real exports are not taken for legacy ones",
        .enabled(if: Fixtures.real("rgosdin-ios12-v8/export.xml") != nil))
    func modernRealExportIsNotLegacy() throws {
        let path = try #require(Fixtures.real("rgosdin-ios12-v8/export.xml"))
        let (items, reader) = try readAllItems(path)
        #expect(!items.samples.isEmpty)
        #expect(reader.warnings[ExportReader.legacyFormatNote] == nil)
        #expect(items.samples.allSatisfy { $0.metadata.allSatisfy { !Self.ownAttributes.contains($0.key) } })
    }
}
