import Glibc
import HealthModel
import HealthParquet
import HealthSQLite
import HealthSchema

/// An `AtomicFile` as the byte sink of a Parquet writer.
final class AtomicFileSink: ParquetByteSink {
    let file: AtomicFile
    init(_ file: AtomicFile) { self.file = file }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try file.write(bytes) }
}

/// What writing one relation did.
package struct LakeTableReport: Sendable, Equatable, Encodable {
    package var name: String
    package var rows: Int64
    package var bytes: Int64
    /// Values that do not fit the column's type (text in a REAL column, an instant that does not parse), written
    /// as NULL.
    package var valuesLeftNull: Int64
}

/// Streams one relation of the database into one Parquet file, row by row: memory is the row group's.
enum LakeTableWriter {
    /// 2 MiB of encoded values a row group (tens of thousands of rows): two writers at once, each with its
    /// row group, its page and its compressed page, stay well within healthetl's 64 MB.
    static let rowGroupByteLimit = 2 << 20

    static func write(
        _ relation: LakeRelation, from connection: SQLiteConnection, to path: String,
        keyValueMetadata: [(key: String, value: String)]
    ) throws -> (file: AtomicFile, report: LakeTableReport) {
        let file = try AtomicFile(path: path)
        let writer: ParquetFileWriter
        do {
            writer = try ParquetFileWriter(
                columns: relation.columns, sink: AtomicFileSink(file), keyValueMetadata: keyValueMetadata,
                createdBy: "healthetl version \(HealthETLVersion.current)", rowGroupByteLimit: rowGroupByteLimit)
        } catch let error as ParquetError {
            throw ImportError(.output, error.message, file: path)
        }
        let reader = try SQLiteRowReader(connection, sql: relation.selectSQL)
        let kinds = relation.columns.map(\.kind)
        let instantsAsMicroseconds = relation.instantsAsMicroseconds
        let offsetColumn = relation.offsetSecondsColumn ?? -1
        // Consecutive rows mostly share their offset: its text is made again only when it changes.
        var offset: (seconds: Int64, text: [UInt8]) = (0, LakeValues.offsetText(seconds: 0))
        var leftNull: Int64 = 0
        do {
            while try reader.step() {
                for (index, kind) in kinds.enumerated() {
                    let value = reader.value(index)
                    if index == offsetColumn, value.kind == .integer {
                        let seconds = value.integer
                        if seconds != offset.seconds { offset = (seconds, LakeValues.offsetText(seconds: seconds)) }
                        offset.text.withUnsafeBytes { writer.append(index, bytes: $0) }
                    } else if !append(value, index, kind, to: writer, instantsAsMicroseconds: instantsAsMicroseconds) {
                        writer.appendNull(index)
                        if value.kind != .null { leftNull += 1 }
                    }
                }
                try writer.endRow()
            }
            try writer.finish()
        } catch let error as ParquetError {
            throw ImportError(.output, error.message, file: path)
        }
        try file.close()
        var status = stat()
        let size = stat(file.temporaryPath, &status) == 0 ? Int64(status.st_size) : 0
        return (
            file, LakeTableReport(name: relation.name, rows: writer.rowCount, bytes: size, valuesLeftNull: leftNull)
        )
    }

    /// Appends the current row's value of column `index`; false when it is NULL or does not fit `kind`.
    @inline(__always)
    static func append(
        _ value: SQLiteRowReader.Value, _ index: Int, _ kind: ParquetColumn.Kind, to writer: ParquetFileWriter,
        instantsAsMicroseconds: Bool
    ) -> Bool {
        let stored = value.kind
        switch (kind, stored) {
        case (_, .null):
            return false
        case (.integer, .integer):
            writer.append(index, integer: value.integer)
        case (.integer, .real):
            let number = value.real
            guard number.rounded() == number, let exact = Int64(exactly: number) else { return false }
            writer.append(index, integer: exact)
        case (.double, .integer):
            writer.append(index, double: Double(value.integer))
        case (.double, .real):
            writer.append(index, double: value.real)
        case (.string, .text), (.string, .integer), (.string, .real):
            // SQLite writes numbers in a TEXT column as their text.
            writer.append(index, bytes: value.text)
        case (.binary, .blob):
            writer.append(index, bytes: value.blob)
        case (.binary, .text):
            writer.append(index, bytes: value.text)
        case (.timestampMicrosUTC, .integer) where instantsAsMicroseconds:
            writer.append(index, integer: value.integer)
        case (.timestampMicrosUTC, .text):
            guard let micros = LakeValues.microseconds(value.text) else { return false }
            writer.append(index, integer: micros)
        case (.date, .text):
            guard let days = LakeValues.date(value.text) else { return false }
            writer.append(index, date: days)
        default:
            return false
        }
        return true
    }
}
