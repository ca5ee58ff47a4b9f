/// One column of a flat Parquet file: a name, how its values are stored and what they mean. Every column is
/// OPTIONAL (a value may be NULL), as every column of a SQLite row can be.
package struct ParquetColumn: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// INT64.
        case integer
        /// DOUBLE.
        case double
        /// BYTE_ARRAY annotated STRING: UTF-8 text.
        case string
        /// BYTE_ARRAY without annotation: bytes.
        case binary
        /// INT32 annotated DATE: days since 1970-01-01.
        case date
        /// INT64 annotated TIMESTAMP(isAdjustedToUTC = true, MICROS): microseconds since 1970 UTC.
        case timestampMicrosUTC
    }

    package var name: String
    package var kind: Kind

    package init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The physical type (parquet.thrift `Type`).
    var physicalType: Int32 {
        switch kind {
        case .integer, .timestampMicrosUTC: return 2  // INT64
        case .date: return 1  // INT32
        case .double: return 5  // DOUBLE
        case .string, .binary: return 6  // BYTE_ARRAY
        }
    }

    var storesBytes: Bool { kind == .string || kind == .binary }
}

/// What went wrong writing a Parquet file (the caller names the file).
package struct ParquetError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Where the bytes of a file go (a file written beside and renamed, in healthetl).
package protocol ParquetByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}
