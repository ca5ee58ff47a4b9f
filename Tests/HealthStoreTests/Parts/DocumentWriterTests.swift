import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `DocumentWriter`: a side file streamed into `documents` chunk by chunk, byte for byte; one whose bytes do
/// not match the announced size, or that SQLite cannot hold as one value, leaves no row and a warning.
struct DocumentWriterTests {
    static func document(_ bytes: [UInt8], announced: UInt64? = nil) -> StoredDocument {
        StoredDocument(
            name: "export_cda.xml", size: announced ?? UInt64(bytes.count),
            stream: MemoryStream(bytes, pieceSize: 100_000), file: "export.zip", entry: "export_cda.xml")
    }

    /// More than two of the writer's chunks, each byte different from its neighbours.
    static let bytes = (0..<(2 * DocumentWriter.documentChunkSize + 1234)).map {
        UInt8(truncatingIfNeeded: $0 * 7 + $0 / 251)
    }

    @Test func aDocumentIsStoredByteForByte() throws {
        let rig = try WriterRig()
        let writer = DocumentWriter(rig.connection, statements: rig.statements)
        try writer.write(Self.document(Self.bytes), into: &rig.report)
        let stored = try rig.connection.query("SELECT name, content FROM documents")
        #expect(stored == [[.text("export_cda.xml"), .blob(Self.bytes)]])
        #expect(rig.tally.rows[.documents] == 1)
        #expect(rig.tally.warnings.isEmpty)
    }

    @Test func bytesThatDoNotMatchTheAnnouncedSizeLeaveNoRow() throws {
        for announced in [UInt64(Self.bytes.count - 1), UInt64(Self.bytes.count + 1)] {
            let rig = try WriterRig()
            let writer = DocumentWriter(rig.connection, statements: rig.statements)
            try writer.write(Self.document(Self.bytes, announced: announced), into: &rig.report)
            #expect(try rig.integer("SELECT count(*) FROM documents") == 0)
            #expect(rig.tally.rows[.documents] == 0)
            let warning = try #require(rig.tally.warnings.keys.first)
            #expect(warning.hasPrefix("document not stored: export.zip: export_cda.xml:"))
            #expect(warning.contains("\(announced)"))
        }
    }

    @Test func aDocumentLargerThanSQLiteHoldsIsNotReadAtAll() throws {
        let rig = try WriterRig()
        rig.connection.lowerLengthLimit(to: 10_000)
        let writer = DocumentWriter(rig.connection, statements: rig.statements)
        let stream = MemoryStream([UInt8](repeating: 1, count: 20_000))
        try writer.write(
            StoredDocument(
                name: "export_cda.xml", size: 20_000, stream: stream, file: "export.zip", entry: "export_cda.xml"),
            into: &rig.report)
        #expect(try rig.integer("SELECT count(*) FROM documents") == 0)
        #expect(
            rig.tally.warnings == [
                "document not stored: export.zip: export_cda.xml: 20000 bytes, more than the 10000 bytes SQLite holds in one value":
                    1
            ])
        var buffer = [UInt8](repeating: 0, count: 10)
        #expect(try buffer.withUnsafeMutableBytes { try stream.read(into: $0) } == 10)  // untouched
    }
}
