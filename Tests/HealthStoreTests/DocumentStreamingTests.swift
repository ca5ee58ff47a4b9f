import CZlib
import Foundation
import HealthTestSupport
import SampleExports
import Testing

@testable import HealthCSV
@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `export_cda.xml` is streamed into `documents` through incremental blob I/O: stored byte for byte whatever its
/// size (past the old 64 MiB whole-file limit), and refused cleanly, with a warning and no row, when its bytes
/// do not match the size announced or exceed SQLite's limit for one value.
@Suite struct DocumentStreamingTests {
    static let body = """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:30:00 +0100" endDate="2024-02-01 23:40:00 +0100" value="100"/>
        """

    /// A CDA-like document of `byteCount` bytes, handed to `write` in pieces of at most 64 KiB, each piece a
    /// little different (a zip of identical pieces would test little of the inflating).
    static func writeCDA(byteCount: Int, _ write: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let entry = Array(
            """
              <entry><observation classCode="OBS" moodCode="EVN"><code code="8867-4" codeSystem="2.16.840.1.113883.6.1" displayName="Heart rate"/><value xsi:type="PQ" value="61" unit="count/min"/><effectiveTime><low value="20240201080000+0100"/></effectiveTime></observation></entry>

            """.utf8)
        var piece = [UInt8]()
        var written = 0
        var block = 0
        while written < byteCount {
            piece.removeAll(keepingCapacity: true)
            piece += Array("<!-- block \(block) -->\n".utf8)
            while piece.count + entry.count <= 64 * 1024 { piece += entry }
            let count = min(piece.count, byteCount - written)
            try piece.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            written += count
            block += 1
        }
    }

    /// CRC-32 and length of bytes, computed by zlib (not by the code under test).
    struct Digest: Equatable {
        var crc: UInt = crc32(0, nil, 0)
        var count = 0
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            crc = crc32(crc, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
            count += bytes.count
        }
    }

    /// An export.zip with the XML and a CDA document of `cdaBytes`; returns the CDA's digest.
    static func writeZip(_ path: String, cdaBytes: Int) throws -> Digest {
        var options = ZipWriter.Options()
        options.compressionLevel = 1
        let writer = try ZipWriter(path: path, options: options)
        try writer.addEntry(name: "apple_health_export/export.xml", data: Array(exportXML(body).utf8))
        try writer.beginEntry(name: "apple_health_export/export_cda.xml")
        var digest = Digest()
        try writeCDA(byteCount: cdaBytes) { bytes in
            digest.add(bytes)
            try writer.write(bytes)
        }
        try writer.endEntry()
        try writer.finish()
        return digest
    }

    static func storedDigests(_ database: String) throws -> [String: Digest] {
        let db = try SQLiteConnection(path: database, create: false)
        var result: [String: Digest] = [:]
        for row in try db.query("SELECT name, content FROM documents") {
            guard case .text(let name) = row[0], case .blob(let bytes) = row[1] else { continue }
            var digest = Digest()
            bytes.withUnsafeBytes { digest.add($0) }
            result[name] = digest
        }
        return result
    }

    @Test("A CDA larger than the old 64 MiB limit is stored byte-identical from a zip")
    func largeDocumentFromZip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let zip = directory.file("export.zip")
        let size = 64 * 1024 * 1024 + 123_457
        let written = try Self.writeZip(zip, cdaBytes: size)
        #expect(written.count == size)
        let database = directory.file("health.sqlite")
        let summary = try ImportJob(inputPath: zip, databasePath: database, timeZone: TimeZone(identifier: "UTC")).run()
        #expect(summary.rows["documents"] == 1)
        #expect(!summary.warnings.keys.contains { $0.contains("document") })
        #expect(try Self.storedDigests(database) == ["export_cda.xml": written])
    }

    @Test("A CDA in an export folder is stored byte-identical")
    func documentFromFolder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("apple_health_export")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = directory.write("apple_health_export/export.xml", exportXML(Self.body))
        var digest = Digest()
        var bytes: [UInt8] = []
        // Several of the sink's 256 KiB chunks, and not a multiple of one.
        Self.writeCDA(byteCount: 700_001) { piece in
            digest.add(piece)
            bytes += piece
        }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/export_cda.xml"))
        let database = directory.file("health.sqlite")
        let summary = try ImportJob(inputPath: folder, databasePath: database, timeZone: TimeZone(identifier: "UTC"))
            .run()
        #expect(summary.rows["documents"] == 1)
        #expect(try Self.storedDigests(database) == ["export_cda.xml": digest])

        // The CSV export reads it back in pieces (base64 groups across piece boundaries), decoded here by Foundation.
        let csv = directory.file("csv")
        _ = try CSVTableExporter.exportTables(databasePath: database, to: csv, tables: ["documents"])
        let lines = try String(contentsOfFile: csv + "/documents.csv", encoding: .utf8).split(
            whereSeparator: \.isNewline)
        #expect(lines.count == 2)
        let fields = try #require(lines.last).split(separator: ",")
        #expect(fields.first == "export_cda.xml")
        let encoded = try #require(fields.last)
        let decoded = try #require(Data(base64Encoded: String(encoded)))
        var exported = Digest()
        decoded.withUnsafeBytes { exported.add($0) }
        #expect(exported == digest)
    }

    /// The central directory's uncompressed size of the CDA entry, changed by `delta` after writing.
    static func announceWrongSize(in zip: String, delta: Int64) throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: zip)))
        let name = Array("apple_health_export/export_cda.xml".utf8)
        // The last copy of the name is the central directory's; its header starts 46 bytes before it.
        let position = try #require(
            stride(from: bytes.count - name.count, through: 0, by: -1).first {
                bytes[$0..<($0 + name.count)].elementsEqual(name)
            })
        let header = position - 46
        #expect(bytes[header..<(header + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]))
        let declared =
            UInt32(bytes[header + 24]) | UInt32(bytes[header + 25]) << 8 | UInt32(bytes[header + 26]) << 16
            | UInt32(bytes[header + 27]) << 24
        let changed = UInt32(Int64(declared) + delta)
        for index in 0..<4 { bytes[header + 24 + index] = UInt8(truncatingIfNeeded: changed >> (8 * UInt32(index))) }
        try Data(bytes).write(to: URL(fileURLWithPath: zip))
    }

    @Test(
        "A zip entry that inflates to another size than announced is refused with a warning, nothing stored",
        arguments: [1000, -1000] as [Int64])
    func wrongAnnouncedSize(delta: Int64) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let zip = directory.file("export.zip")
        _ = try Self.writeZip(zip, cdaBytes: 600_000)
        try Self.announceWrongSize(in: zip, delta: delta)
        let database = directory.file("health.sqlite")
        let summary = try ImportJob(inputPath: zip, databasePath: database, timeZone: TimeZone(identifier: "UTC")).run()
        let warning = try #require(summary.warnings.keys.first { $0.hasPrefix("document not stored") })
        #expect(warning.contains("apple_health_export/export_cda.xml"))
        #expect(warning.contains(String(600_000 + delta)))
        #expect(summary.rows["documents", default: 0] == 0)
        #expect(summary.rows["cumulative_samples"] == 1)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM documents") == .integer(0))
        #expect(
            try db.scalar("SELECT count(*) FROM import_warnings WHERE message LIKE 'document not stored%'")
                == .integer(1))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    /// A sink on a new database, for documents handed over directly.
    static func withSink(_ body: (SQLiteSink) throws -> Void) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let sink = try SQLiteSink(path: directory.file("health.sqlite"), timeZone: TimeZone(identifier: "UTC"))
        defer { sink.abort(recording: CancellationError(), summary: ImportSummary()) }
        try body(sink)
    }

    static func document(_ bytes: [UInt8], announced: UInt64) -> StoredDocument {
        StoredDocument(
            name: "export_cda.xml", size: announced, stream: MemoryStream(bytes, pieceSize: 1000), file: "export",
            entry: "export_cda.xml")
    }

    @Test("A file that holds fewer or more bytes than announced (changed while read) is refused, nothing stored")
    func fileChangedWhileRead() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 5000)
        for announced: UInt64 in [4999, 5001] {
            try Self.withSink { sink in
                try sink.write(.document(Self.document(bytes, announced: announced)))
                #expect(try sink.connection.scalar("SELECT count(*) FROM documents") == .integer(0))
                let warning = try #require(sink.warnings.keys.first)
                #expect(warning.hasPrefix("document not stored: export: export_cda.xml: error: it holds"))
                #expect(warning.contains("\(announced) announced") || warning.contains("\(announced) bytes announced"))
            }
        }
    }

    @Test("A document beyond SQLite's length limit is not stored, and the warning says which and how large")
    func beyondLengthLimit() throws {
        try Self.withSink { sink in
            sink.connection.lowerLengthLimit(to: 10_000)
            try sink.write(.document(Self.document([UInt8](repeating: 1, count: 20_000), announced: 20_000)))
            #expect(try sink.connection.scalar("SELECT count(*) FROM documents") == .integer(0))
            #expect(
                Array(sink.warnings.keys) == [
                    "document not stored: export: export_cda.xml: 20000 bytes, more than the 10000 bytes SQLite holds "
                        + "in one value"
                ])
            let small = [UInt8](repeating: 2, count: 9_000)
            try sink.write(.document(Self.document(small, announced: 9_000)))
            #expect(try sink.connection.scalar("SELECT content FROM documents") == .blob(small))
        }
    }
}
