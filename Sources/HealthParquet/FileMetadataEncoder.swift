/// parquet.thrift's `Encoding` values healthetl writes.
enum Encoding {
    static let plain: Int32 = 0
    static let rle: Int32 = 3
    static let rleDictionary: Int32 = 8
}

/// parquet.thrift's `CompressionCodec.ZSTD`.
let zstdCodec: Int32 = 6

struct ColumnChunkMetadata {
    var column: ParquetColumn
    var encodings: [Int32]
    var valueCount: Int64
    var totalUncompressedSize: Int64
    var totalCompressedSize: Int64
    var dataPageOffset: Int64
    var dictionaryPageOffset: Int64?
    var nullCount: Int64
    var bounds: (minimum: [UInt8], maximum: [UInt8])?
}

struct RowGroupMetadata {
    var columns: [ColumnChunkMetadata]
    var rowCount: Int64
    var fileOffset: Int64
    var totalUncompressedSize: Int64
    var totalCompressedSize: Int64
}

/// `PageHeader` structs (parquet.thrift): field 1 type, 2 uncompressed size, 3 compressed size, then the
/// header of the page's kind (5 data page v1, 7 dictionary page).
enum PageHeaderEncoder {
    static func dataPage(uncompressedSize: Int, compressedSize: Int, count: Int, encoding: Int32) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.writeI32(1, 0)  // DATA_PAGE
        thrift.writeI32(2, Int32(uncompressedSize))
        thrift.writeI32(3, Int32(compressedSize))
        thrift.beginStruct(5)  // DataPageHeader
        thrift.writeI32(1, Int32(count))
        thrift.writeI32(2, encoding)
        thrift.writeI32(3, Encoding.rle)  // definition levels
        thrift.writeI32(4, Encoding.rle)  // repetition levels (none: a flat schema)
        thrift.endStruct()
        return thrift.finish()
    }

    static func dictionaryPage(uncompressedSize: Int, compressedSize: Int, count: Int) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.writeI32(1, 2)  // DICTIONARY_PAGE
        thrift.writeI32(2, Int32(uncompressedSize))
        thrift.writeI32(3, Int32(compressedSize))
        thrift.beginStruct(7)  // DictionaryPageHeader
        thrift.writeI32(1, Int32(count))
        thrift.writeI32(2, Encoding.plain)
        thrift.endStruct()
        return thrift.finish()
    }
}

/// The footer: `FileMetaData` (parquet.thrift) with the schema (a root group, then one OPTIONAL leaf per
/// column with its logical type and the older converted type for readers that know only those), the row
/// groups and their column chunks, key-value metadata and the type-defined sort order of every column (which
/// tells readers the min/max statistics are in the order of the logical type).
enum FileMetadataEncoder {
    static func encode(
        columns: [ParquetColumn], rowCount: Int64, rowGroups: [RowGroupMetadata],
        keyValueMetadata: [(key: String, value: String)], createdBy: String
    ) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.writeI32(1, 2)  // version
        thrift.beginList(2, of: .structure, count: columns.count + 1)
        thrift.beginStructValue()
        thrift.writeString(4, "schema")
        thrift.writeI32(5, Int32(columns.count))
        thrift.endStruct()
        for column in columns { writeSchemaElement(column, into: &thrift) }
        thrift.writeI64(3, rowCount)
        thrift.beginList(4, of: .structure, count: rowGroups.count)
        for (ordinal, group) in rowGroups.enumerated() { writeRowGroup(group, ordinal: ordinal, into: &thrift) }
        if !keyValueMetadata.isEmpty {
            thrift.beginList(5, of: .structure, count: keyValueMetadata.count)
            for (key, value) in keyValueMetadata {
                thrift.beginStructValue()
                thrift.writeString(1, key)
                thrift.writeString(2, value)
                thrift.endStruct()
            }
        }
        thrift.writeString(6, createdBy)
        thrift.beginList(7, of: .structure, count: columns.count)
        for _ in columns {
            thrift.beginStructValue()  // ColumnOrder (a union)
            thrift.beginStruct(1)  // TYPE_ORDER: TypeDefinedOrder, an empty struct
            thrift.endStruct()
            thrift.endStruct()
        }
        return thrift.finish()
    }

    static func writeSchemaElement(_ column: ParquetColumn, into thrift: inout ThriftCompactWriter) {
        thrift.beginStructValue()
        thrift.writeI32(1, column.physicalType)
        thrift.writeI32(3, 1)  // OPTIONAL
        thrift.writeString(4, column.name)
        switch column.kind {
        case .string:
            thrift.writeI32(6, 0)  // converted type UTF8
            thrift.beginStruct(10)  // LogicalType
            thrift.beginStruct(1)  // STRING
            thrift.endStruct()
            thrift.endStruct()
        case .date:
            thrift.writeI32(6, 6)  // DATE
            thrift.beginStruct(10)
            thrift.beginStruct(6)  // DATE
            thrift.endStruct()
            thrift.endStruct()
        case .timestampMicrosUTC:
            thrift.writeI32(6, 10)  // TIMESTAMP_MICROS
            thrift.beginStruct(10)
            thrift.beginStruct(8)  // TIMESTAMP
            thrift.writeBool(1, true)  // isAdjustedToUTC
            thrift.beginStruct(2)  // unit: TimeUnit (a union)
            thrift.beginStruct(2)  // MICROS
            thrift.endStruct()
            thrift.endStruct()
            thrift.endStruct()
            thrift.endStruct()
        case .integer, .double, .binary:
            break
        }
        thrift.endStruct()
    }

    static func writeRowGroup(_ group: RowGroupMetadata, ordinal: Int, into thrift: inout ThriftCompactWriter) {
        thrift.beginStructValue()
        thrift.beginList(1, of: .structure, count: group.columns.count)
        for chunk in group.columns { writeColumnChunk(chunk, into: &thrift) }
        thrift.writeI64(2, group.totalUncompressedSize)
        thrift.writeI64(3, group.rowCount)
        thrift.writeI64(5, group.fileOffset)
        thrift.writeI64(6, group.totalCompressedSize)
        thrift.writeFieldHeader(7, .i16)
        thrift.writeVarint(ThriftCompactWriter.zigzag(Int64(ordinal)))
        thrift.endStruct()
    }

    static func writeColumnChunk(_ chunk: ColumnChunkMetadata, into thrift: inout ThriftCompactWriter) {
        thrift.beginStructValue()
        thrift.writeI64(2, chunk.dictionaryPageOffset ?? chunk.dataPageOffset)  // file_offset
        thrift.beginStruct(3)  // ColumnMetaData
        thrift.writeI32(1, chunk.column.physicalType)
        thrift.beginList(2, of: .i32, count: chunk.encodings.count)
        for encoding in chunk.encodings { thrift.writeI32Element(encoding) }
        thrift.beginList(3, of: .binary, count: 1)
        thrift.writeBinaryValue(Array(chunk.column.name.utf8))
        thrift.writeI32(4, zstdCodec)
        thrift.writeI64(5, chunk.valueCount)
        thrift.writeI64(6, chunk.totalUncompressedSize)
        thrift.writeI64(7, chunk.totalCompressedSize)
        thrift.writeI64(9, chunk.dataPageOffset)
        if let dictionaryOffset = chunk.dictionaryPageOffset { thrift.writeI64(11, dictionaryOffset) }
        thrift.beginStruct(12)  // Statistics
        thrift.writeI64(3, chunk.nullCount)
        if let bounds = chunk.bounds {
            thrift.writeBinary(5, bounds.maximum)  // max_value
            thrift.writeBinary(6, bounds.minimum)  // min_value
        }
        thrift.endStruct()
        thrift.endStruct()
        thrift.endStruct()
    }
}
