/// Cells of one column that were not written exactly as stored, and why: the report names them so that
/// nothing is changed or left out silently.
public struct CSVCellAdjustment: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable, CaseIterable {
        case blobAsBase64 = "BLOB written as base64"
        case blobOmitted = "BLOB left empty (binary has no spreadsheet form)"
        case tooLongForSpreadsheet = "left empty: longer than a spreadsheet cell holds (32,767 characters)"
        case formulaGuarded = "prefixed with ' so that a spreadsheet does not run it as a formula"
        case integerBeyondSpreadsheetPrecision = "integer of more than 15 digits: a spreadsheet shows it rounded"
    }

    public var column: String
    public var reason: Reason
    public var count: Int

    public var description: String { "\(column): \(count) × \(reason.rawValue)" }
}

/// What `CSVTableExporter` wrote.
public struct CSVExportReport: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        public var table: String
        public var path: String
        /// Data rows, the header not counted.
        public var rows: Int
        public var bytes: Int
        public var adjustments: [CSVCellAdjustment]

        /// Excel and LibreOffice show at most 1,048,576 rows, the header included; the rest is cut off on open.
        public static let spreadsheetRowLimit = 1_048_576
        public var exceedsSpreadsheetRowLimit: Bool { rows + 1 > Self.spreadsheetRowLimit }
    }

    public var dialect: CSVDialect
    public var directory: String
    public var files: [File]
    public var seconds: Double

    public var rows: Int { files.reduce(0) { $0 + $1.rows } }
    public var bytes: Int { files.reduce(0) { $0 + $1.bytes } }

    /// One line per adjusted column and per file a spreadsheet cannot show whole, for the command's summary.
    /// Base64 BLOBs of the standard flavour are listed too: a reader has to know to decode them.
    public var notes: [String] {
        var lines: [String] = []
        for file in files {
            let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
            for adjustment in file.adjustments { lines.append("\(name): \(adjustment)") }
            if dialect.instants == .spreadsheet, file.exceedsSpreadsheetRowLimit {
                lines.append(
                    "\(name): \(file.rows) rows: a spreadsheet opens only the first \(File.spreadsheetRowLimit - 1)")
            }
        }
        return lines
    }
}
