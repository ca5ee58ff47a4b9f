import HealthSQLite
import HealthSchema

/// The spreadsheet files of the rollups: `daily.csv` (one row per day, one column per metric),
/// `daily_long.csv` (one row per day, type and statistic, with unit and sources) and `daily_units.csv`
/// (what each column of daily.csv holds, in which unit).
public enum DailyCSV {
    public static let fileNames = ["daily.csv", "daily_long.csv", "daily_units.csv"]

    /// Writes the three files from the `rollups` table into `directory`; all three appear together or not at all.
    public static func write(databasePath: String, to directory: String, dialect: CSVDialect = .standard) throws
        -> [CSVExportReport.File]
    {
        let connection = try StoredDatabase.openForReading(databasePath, requiring: ["rollups"])
        try CSVTableExporter.prepareDirectory(directory)
        return try StoredDatabase.read(databasePath) {
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            let columns = try connection.query(
                """
                SELECT column_name, type, statistic, unit FROM rollups WHERE period = 'day'
                GROUP BY column_name ORDER BY column_name
                """)
            let writers = try fileNames.map { try CSVFileWriter(path: directory + "/" + $0, dialect: dialect) }
            do {
                try writeWide(connection, columns: columns.map { $0[0].text ?? "" }, into: writers[0])
                try writeLong(connection, into: writers[1])
                try writers[2].writeHeader(["column", "type", "statistic", "unit"])
                for column in columns {
                    try writers[2].writeRow(column.map { $0.text.map(CSVField.text) ?? .null })
                }
                for writer in writers { try writer.close() }
                for writer in writers { try writer.moveIntoPlace() }
            } catch {
                for writer in writers { writer.discard() }
                throw error
            }
            return zip(fileNames, writers).map { name, writer in
                CSVExportReport.File(
                    table: name, path: writer.path, rows: writer.rowCount - 1, bytes: writer.byteCount, adjustments: [])
            }
        }
    }

    /// One row per day: the rollups come ordered by day from the (period, label) index, and one day's
    /// values are gathered before its row is written.
    static func writeWide(_ connection: SQLiteConnection, columns: [String], into writer: CSVFileWriter) throws {
        try writer.writeHeader(["date"] + columns)
        let position = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        var day: String?
        var values = [Double?](repeating: nil, count: columns.count)
        func flushDay() throws {
            guard let day else { return }
            try writer.writeRow([.text(day)] + values.map { $0.map(CSVField.real) ?? .null })
            values = [Double?](repeating: nil, count: columns.count)
        }
        let rows = try connection.prepare(
            "SELECT label, column_name, value FROM rollups WHERE period = 'day' ORDER BY label")
        try rows.forEachRow { row in
            let label = row.text(0)
            if label != day {
                try flushDay()
                day = label
            }
            if let index = row.text(1).flatMap({ position[$0] }), !row.isNull(2) { values[index] = row.double(2) }
        }
        try flushDay()
    }

    static func writeLong(_ connection: SQLiteConnection, into writer: CSVFileWriter) throws {
        try writer.writeHeader(["date", "type", "statistic", "value", "unit", "sources"])
        let rows = try connection.prepare(
            """
            SELECT label, type, statistic, value, unit, sources FROM rollups WHERE period = 'day'
            ORDER BY label, type, statistic
            """)
        try rows.forEachRow { row in
            try writer.writeRow([
                .text(row.text(0) ?? ""), .text(row.text(1) ?? ""), .text(row.text(2) ?? ""),
                row.isNull(3) ? .null : .real(row.double(3)), row.text(4).map(CSVField.text) ?? .null,
                row.text(5).map(CSVField.text) ?? .null,
            ])
        }
    }
}
