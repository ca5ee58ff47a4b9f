import Glibc
import HealthModel
import HealthSQLite
import HealthSchema

/// Writes every table of a healthetl database as one CSV file (`<table>.csv`): the schema's columns in its
/// order as the header, rows in `id` (rowid) order, streamed from SQLite through a `CSVFileWriter`.
///
/// Instants are written in the row's UTC offset (see `CSVTableLayout`); everything else as stored, except
/// where the dialect says otherwise, and every such cell is counted in the report.
public enum CSVTableExporter {
    /// Exports `tables` (all of `Schema.publicTables` by default, the names people query) of the database at `databasePath` into
    /// `directory`, created (owner-only) if missing. Existing files of the same names are replaced, and only
    /// once every file is complete: a failure while writing (disk full, unreadable table) leaves no new file
    /// behind and the old ones as they were. Only a failing rename, after all are written, can leave a mix.
    public static func exportTables(
        databasePath: String, to directory: String, dialect: CSVDialect = .standard, tables: [String]? = nil
    ) throws -> CSVExportReport {
        let started = ContinuousClock.now
        let chosen = try chosenTables(tables)
        let connection = try StoredDatabase.openForReading(databasePath, requiring: chosen.map(\.name))
        try prepareDirectory(directory)
        // One read transaction: all files show the database at the same moment, even if an import commits
        // meanwhile (that import waits for the export, up to its --wait).
        try StoredDatabase.read(databasePath) { try connection.execute("BEGIN") }
        defer { try? connection.execute("COMMIT") }

        var writers: [CSVFileWriter] = []
        var files: [CSVExportReport.File] = []
        do {
            for table in chosen {
                let writer = try CSVFileWriter(path: directory + "/" + table.name + ".csv", dialect: dialect)
                writers.append(writer)
                var file = try export(CSVTableLayout(table), from: connection, databasePath: databasePath, into: writer)
                try writer.close()
                file.bytes = writer.byteCount
                files.append(file)
            }
            for writer in writers { try writer.moveIntoPlace() }
        } catch {
            for writer in writers { writer.discard() }
            throw error
        }
        let elapsed = started.duration(to: .now).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return CSVExportReport(dialect: dialect, directory: directory, files: files, seconds: seconds)
    }

    /// One table's rows into `writer` (which the caller closes).
    static func export(
        _ layout: CSVTableLayout, from connection: SQLiteConnection, databasePath: String, into writer: CSVFileWriter
    ) throws -> CSVExportReport.File {
        let reader = try StoredDatabase.read(databasePath) { try SQLiteRowReader(connection, sql: layout.selectSQL) }
        try writer.writeHeader(layout.table.columnNames)
        let columnCount = layout.isInstant.count
        let blobColumns = layout.blobColumns
        let reasons = CSVCellAdjustment.Reason.allCases
        var counts = [Int](repeating: 0, count: columnCount * reasons.count)
        var rows = 0
        while try StoredDatabase.read(databasePath, { try reader.step() }) {
            var offset: Int32?
            if layout.offsetExpression != nil {
                let stored = reader.value(columnCount)
                if stored.kind == .text { offset = CSVInstantText.parseOffset(stored.text) }
            }
            for column in 0..<columnCount {
                var adjustment: CSVCellAdjustment.Reason?
                if let blobIndex = blobColumns.firstIndex(of: column) {
                    let length = reader.value(layout.blobLengthResultColumn(blobIndex))
                    if length.kind == .integer {
                        adjustment = try writeBlob(
                            layout, column: column, length: Int(length.integer),
                            rowid: reader.value(layout.rowidResultColumn).integer, from: connection,
                            databasePath: databasePath, into: writer)
                        if let adjustment, let index = reasons.firstIndex(of: adjustment) {
                            counts[column * reasons.count + index] += 1
                        }
                        continue
                    }
                }
                let value = reader.value(column)
                switch value.kind {
                case .null: try writer.writeNull()
                case .integer: adjustment = try writer.writeInteger(value.integer)
                case .real: try writer.writeReal(value.real)
                case .text:
                    let bytes = value.text
                    if layout.isInstant[column], let instant = CSVInstantText.parseUTC(bytes) {
                        try writer.writeInstant(instant.seconds, fraction: instant.fraction, offset: offset)
                    } else {
                        adjustment = try writer.writeText(bytes)
                    }
                case .blob: adjustment = try writer.writeBlob(value.blob)
                }
                if let adjustment, let index = reasons.firstIndex(of: adjustment) {
                    counts[column * reasons.count + index] += 1
                }
            }
            try writer.endRow()
            rows += 1
        }
        var adjustments: [CSVCellAdjustment] = []
        for (column, name) in layout.table.columnNames.enumerated() {
            for (index, reason) in reasons.enumerated() {
                let count = counts[column * reasons.count + index]
                if count > 0 { adjustments.append(CSVCellAdjustment(column: name, reason: reason, count: count)) }
            }
        }
        return CSVExportReport.File(
            table: layout.table.name, path: writer.path, rows: rows, bytes: 0, adjustments: adjustments)
    }

    /// A blob value read in pieces by rowid, so a document of any size streams through a small buffer. (A
    /// dialect that leaves blobs out never opens it.)
    static func writeBlob(
        _ layout: CSVTableLayout, column: Int, length: Int, rowid: Int64, from connection: SQLiteConnection,
        databasePath: String, into writer: CSVFileWriter
    ) throws -> CSVCellAdjustment.Reason? {
        var blob: SQLiteBlob?
        return try writer.writeBlob(count: length) { buffer, offset in
            try StoredDatabase.read(databasePath) {
                if blob == nil {
                    blob = try SQLiteBlob(
                        connection, table: layout.table.name, column: layout.table.columnNames[column], rowid: rowid,
                        writable: false)
                }
                try blob?.read(into: buffer, at: offset)
            }
        }
    }

    /// The named tables in schema order; all of them for nil.
    static func chosenTables(_ names: [String]?) throws -> [SchemaTable] {
        guard let names else { return Schema.publicTables }
        let unknown = names.filter { name in !Schema.publicTables.contains { $0.name == name } }
        guard unknown.isEmpty else {
            throw ImportError(
                .usage, "no table named \(unknown.joined(separator: ", "))",
                hint: "tables: " + Schema.publicTables.map(\.name).joined(separator: ", "))
        }
        return Schema.publicTables.filter { names.contains($0.name) }
    }

    /// The output folder, created owner-only if missing (its parent must exist).
    static func prepareDirectory(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw ImportError(.output, "not a folder", file: directory)
            }
        } else if mkdir(directory, 0o700) != 0 {
            throw ImportError(.output, "cannot create the folder: \(SystemError.last)", file: directory)
        }
    }
}
