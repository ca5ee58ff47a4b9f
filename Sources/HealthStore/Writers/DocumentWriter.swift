import Foundation
import HealthModel
import HealthSQLite

/// `documents`: a side file kept as it is (`export_cda.xml`), streamed from the export into the database.
///
/// The row is inserted with a blob of zeros of the announced size, which SQLite writes page by page without
/// a buffer of that size, and is then filled in 256 KiB chunks through incremental blob I/O. Memory stays at
/// one chunk whatever the document's size. A document whose bytes do not match what was announced (a zip
/// entry that inflates to another size or fails its CRC, a file that changed while being read) is removed
/// again and counted as a warning; one that SQLite cannot hold as one value is not stored, and the warning
/// says which and how large. Both, and the row stored, go into the caller's `WriteReport`.
struct DocumentWriter {
    static let documentChunkSize = 256 * 1024
    /// Room for the row's other bytes (record header, name) within SQLite's length limit.
    private static let documentRowOverhead = 64
    private let connection: SQLiteConnection
    private let insert: TableInsert

    init(_ connection: SQLiteConnection, statements: SchemaStatements) {
        self.connection = connection
        insert = statements.document
    }

    func write(_ document: StoredDocument, into report: inout WriteReport) throws {
        let limit = connection.lengthLimit
        let rowBytes = document.size.addingReportingOverflow(
            UInt64(document.name.utf8.count + Self.documentRowOverhead))
        guard !rowBytes.overflow, rowBytes.partialValue <= UInt64(limit) else {
            report.warn(
                .documentNotStored(
                    "\(document.file): \(document.entry): \(document.size) bytes, more than the \(limit) bytes "
                        + "SQLite holds in one value"))
            return
        }
        insert.statement.bind(try insert.parameter("name"), document.name)
        insert.statement.bindZeroBlob(try insert.parameter("content"), count: Int(document.size))
        try insert.statement.run()
        let rowid = connection.lastInsertRowID
        do {
            try fill(rowid: rowid, from: document)
        } catch let error where !(error is SQLiteError) {
            // Nothing half-stored: the row goes again. (DELETE, not a savepoint: a new database is written
            // without a rollback journal.)
            try connection.execute("DELETE FROM documents WHERE rowid = \(rowid)")
            let located = (error as? ImportError)?.located(file: document.file, entry: document.entry)
            report.warn(.documentNotStored(located.map(String.init(describing:)) ?? "\(document.entry): \(error)"))
            return
        }
        report.count(.documents)
    }

    /// Copies the document's stream into the row's blob, checking that it holds exactly the announced bytes.
    private func fill(rowid: Int64, from document: StoredDocument) throws {
        let blob = try SQLiteBlob(connection, table: "documents", column: "content", rowid: rowid, writable: true)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.documentChunkSize, alignment: 1)
        defer { chunk.deallocate() }
        var written: UInt64 = 0
        while true {
            // Reading on to the end (a read of 0) lets a zip entry check its CRC and size.
            let count = try document.stream.read(into: chunk)
            if count == 0 { break }
            guard written + UInt64(count) <= document.size else {
                throw ImportError(.input, "it holds more than the \(document.size) bytes announced for it")
            }
            try blob.write(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), at: Int(written))
            written += UInt64(count)
        }
        guard written == document.size else {
            throw ImportError(.input, "it holds \(written) bytes, not the \(document.size) announced for it")
        }
        try blob.close()
    }
}
