import Testing

@testable import HealthParquet

final class ByteCollector: ParquetByteSink {
    var bytes: [UInt8] = []
    func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
}

/// The file's frame and the dictionary's fallback; what the pages mean is checked by real readers
/// (HealthLakeTests read every table back with pyarrow, DuckDB and polars).
@Suite struct ParquetFileWriterTests {
    @Test func framesTheFileWithMagicAndTheFooterLength() throws {
        let sink = ByteCollector()
        let writer = try ParquetFileWriter(
            columns: [ParquetColumn("n", .integer), ParquetColumn("s", .string)], sink: sink, createdBy: "test")
        for row in 0..<1000 {
            writer.append(0, integer: Int64(row))
            if row % 3 == 0 {
                writer.appendNull(1)
            } else {
                Array("value \(row % 7)".utf8).withUnsafeBytes { writer.append(1, bytes: $0) }
            }
            try writer.endRow()
        }
        try writer.finish()
        let bytes = sink.bytes
        #expect(Array(bytes.prefix(4)) == Array("PAR1".utf8))
        #expect(Array(bytes.suffix(4)) == Array("PAR1".utf8))
        let lengthBytes = bytes[(bytes.count - 8)..<(bytes.count - 4)]
        let footerLength = lengthBytes.reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(footerLength > 0 && footerLength < bytes.count - 12)
        #expect(writer.rowCount == 1000)
    }

    @Test func rejectsARowMissingAColumn() throws {
        let writer = try ParquetFileWriter(
            columns: [ParquetColumn("a", .integer), ParquetColumn("b", .integer)], sink: ByteCollector(),
            createdBy: "test")
        writer.append(0, integer: 1)
        try writer.endRow()
        #expect(throws: ParquetError.self) { try writer.finish() }
    }

    @Test func aDictionaryTooLargeFallsBackToPlain() {
        var buffer = ColumnChunkBuffer(ParquetColumn("s", .string))
        var value = 0
        while buffer.dictionary != nil {
            Array("distinct value number \(value)".utf8).withUnsafeBytes { buffer.append($0) }
            value += 1
        }
        #expect(buffer.dictionaryPage == nil)
        #expect(buffer.indices.isEmpty)
        // Every value so far is in the PLAIN bytes: 4-byte length and the text each.
        let expected = (0..<value).reduce(0) { $0 + 4 + "distinct value number \($1)".utf8.count }
        #expect(buffer.plain.count == expected)
    }

    @Test func statisticsFollowTheSortOrderOfTheType() throws {
        var statistics = ColumnStatistics()
        for value in [3.5, -0.0, .nan, 0.0, -2.25] { statistics.include(value) }
        let bounds = try #require(statistics.bounds(for: ParquetColumn("d", .double)))
        #expect(bounds.minimum == Array(withUnsafeBytes(of: (-2.25).bitPattern.littleEndian) { Array($0) }))
        #expect(bounds.maximum == Array(withUnsafeBytes(of: (3.5).bitPattern.littleEndian) { Array($0) }))
        var strings = ColumnStatistics()
        for text in ["b", "é", "a"] { Array(text.utf8).withUnsafeBytes { strings.include($0) } }
        let textBounds = try #require(strings.bounds(for: ParquetColumn("s", .string)))
        #expect(textBounds.minimum == Array("a".utf8))
        #expect(textBounds.maximum == Array("é".utf8))  // 0xC3 0xA9 sorts after ASCII, unsigned
    }
}
