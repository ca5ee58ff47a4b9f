/// Writes one flat Parquet file row by row: the values of a row group are held (encoded) until it reaches
/// `rowGroupByteLimit`, then written as one dictionary page (strings, while their dictionary stays small) and
/// one data page (v1) per column, zstd-compressed; the footer (FileMetaData, Thrift compact) comes last.
/// Memory is bounded by the row group, whatever the number of rows.
package final class ParquetFileWriter {
    package let columns: [ParquetColumn]
    private let sink: ParquetByteSink
    private let keyValueMetadata: [(key: String, value: String)]
    private let createdBy: String
    private let rowGroupByteLimit: Int
    private let rowGroupRowLimit: Int
    private var buffers: [ColumnChunkBuffer]
    private var rowGroups: [RowGroupMetadata] = []
    private var offset: Int64 = 0
    private var rowsInGroup = 0
    /// Byte-array bytes appended since the row group's size was last measured: large values (ECG voltages,
    /// FHIR documents) make it measured sooner than every 256 rows.
    private var bytesSinceCheck = 0
    private let compressor: ZstdCompressor
    package private(set) var rowCount: Int64 = 0

    /// 8 MiB of encoded values a row group: a few tens of thousands to a million rows, and a file's writer
    /// well under healthetl's 64 MB.
    package init(
        columns: [ParquetColumn], sink: ParquetByteSink, keyValueMetadata: [(key: String, value: String)] = [],
        createdBy: String, rowGroupByteLimit: Int = 8 << 20, rowGroupRowLimit: Int = 1 << 20
    ) throws {
        self.columns = columns
        self.sink = sink
        self.keyValueMetadata = keyValueMetadata
        self.createdBy = createdBy
        self.rowGroupByteLimit = rowGroupByteLimit
        self.rowGroupRowLimit = rowGroupRowLimit
        buffers = columns.map(ColumnChunkBuffer.init)
        compressor = try ZstdCompressor()
        try write(Array("PAR1".utf8))
    }

    // MARK: Values of the current row, column by column

    package func appendNull(_ column: Int) { buffers[column].appendNull() }
    package func append(_ column: Int, integer value: Int64) { buffers[column].append(value) }
    package func append(_ column: Int, date daysSince1970: Int32) { buffers[column].append(daysSince1970) }
    package func append(_ column: Int, double value: Double) { buffers[column].append(value) }
    package func append(_ column: Int, bytes value: UnsafeRawBufferPointer) {
        buffers[column].append(value)
        bytesSinceCheck += value.count
    }

    /// Ends a row (every column must have had one value or NULL); writes the row group when it is full.
    package func endRow() throws {
        rowsInGroup += 1
        rowCount += 1
        // Measuring every 256 rows (or 64 KiB of byte arrays) keeps the check off the per-row path.
        guard rowsInGroup & 255 == 0 || bytesSinceCheck >= 1 << 16 || rowsInGroup >= rowGroupRowLimit else { return }
        bytesSinceCheck = 0
        if rowsInGroup >= rowGroupRowLimit || buffers.reduce(0, { $0 + $1.byteCount }) >= rowGroupByteLimit {
            try flushRowGroup()
        }
    }

    /// Writes the last row group and the footer. The sink then holds the complete file.
    package func finish() throws {
        if rowsInGroup > 0 { try flushRowGroup() }
        let footer = FileMetadataEncoder.encode(
            columns: columns, rowCount: rowCount, rowGroups: rowGroups, keyValueMetadata: keyValueMetadata,
            createdBy: createdBy)
        try write(footer)
        var tail: [UInt8] = []
        appendLittleEndian(UInt32(footer.count), to: &tail)
        tail.append(contentsOf: Array("PAR1".utf8))
        try write(tail)
    }

    // MARK: Row groups

    private func flushRowGroup() throws {
        for buffer in buffers where buffer.rowCount != rowsInGroup {
            throw ParquetError("column \(buffer.column.name) has \(buffer.rowCount) values for \(rowsInGroup) rows")
        }
        let start = offset
        var chunks: [ColumnChunkMetadata] = []
        for index in buffers.indices {
            chunks.append(try writeChunk(buffers[index]))
            buffers[index] = ColumnChunkBuffer(columns[index])
        }
        rowGroups.append(
            RowGroupMetadata(
                columns: chunks, rowCount: Int64(rowsInGroup), fileOffset: start,
                totalUncompressedSize: chunks.reduce(0) { $0 + $1.totalUncompressedSize },
                totalCompressedSize: offset - start))
        rowsInGroup = 0
    }

    private func writeChunk(_ buffer: ColumnChunkBuffer) throws -> ColumnChunkMetadata {
        let start = offset
        var uncompressed: Int64 = 0
        var dictionaryOffset: Int64?
        if let dictionary = buffer.dictionaryPage {
            dictionaryOffset = offset
            uncompressed += try writePage(body: dictionary.body) { _, compressedSize in
                PageHeaderEncoder.dictionaryPage(
                    uncompressedSize: dictionary.body.count, compressedSize: compressedSize, count: dictionary.count)
            }
        }
        let dataOffset = offset
        let (body, usesDictionary) = buffer.dataPageBody()
        uncompressed += try writePage(body: body) { _, compressedSize in
            PageHeaderEncoder.dataPage(
                uncompressedSize: body.count, compressedSize: compressedSize, count: buffer.rowCount,
                encoding: usesDictionary ? Encoding.rleDictionary : Encoding.plain)
        }
        return ColumnChunkMetadata(
            column: buffer.column,
            encodings: usesDictionary
                ? [Encoding.plain, Encoding.rle, Encoding.rleDictionary] : [Encoding.plain, Encoding.rle],
            valueCount: Int64(buffer.rowCount), totalUncompressedSize: uncompressed,
            totalCompressedSize: offset - start, dataPageOffset: dataOffset, dictionaryPageOffset: dictionaryOffset,
            nullCount: Int64(buffer.nullCount), bounds: buffer.statistics.bounds(for: buffer.column))
    }

    /// Writes a page header and its compressed body; the size of both uncompressed.
    private func writePage(body: [UInt8], header: (Int, Int) -> [UInt8]) throws -> Int64 {
        try compressor.compress(body) { compressed in
            let headerBytes = header(body.count, compressed.count)
            try write(headerBytes)
            try sink.write(compressed)
            offset += Int64(compressed.count)
            return Int64(headerBytes.count + body.count)
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try sink.write($0) }
        offset += Int64(bytes.count)
    }
}
