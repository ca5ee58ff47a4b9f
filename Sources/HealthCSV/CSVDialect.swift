/// How CSV files are written: one flavour for programs, one for spreadsheets.
///
/// Both flavours quote a field only when it needs it: when it contains the separator, a quote, CR or LF,
/// when it starts or ends with a space or tab (RFC 4180 keeps such spaces, but some readers trim unquoted
/// ones), and when it is an empty text. NULL is written as nothing and an empty text as `""`, so readers that
/// tell the two apart (PostgreSQL `COPY … CSV`, DuckDB) get them back; Python's `csv` reads both as ''.
/// Quotes inside a field are doubled; CR and LF inside a quoted field are kept as they are.
public struct CSVDialect: Sendable, Equatable {
    /// How instants (UTC in the database) are written.
    public enum InstantStyle: Sendable, Equatable {
        /// `2024-03-31T08:15:00+02:00` in the row's offset, `…Z` when the row has none: unambiguous.
        case iso8601
        /// `2024-03-31 08:15:00`, the row's local wall-clock time (UTC when the row has no offset): the form
        /// Excel turns into a date-time cell on open. The offset stays in the `utc_offset` column.
        case spreadsheet
    }

    /// What happens to BLOB values (ECG samples, the CDA document).
    public enum BlobStyle: Sendable, Equatable {
        /// Base64 (RFC 4648, no line breaks): lossless, one `base64.b64decode` away from the bytes.
        case base64
        /// Left empty and counted in the report: binary has no spreadsheet form, and ECG samples are longer
        /// than a spreadsheet cell anyway.
        case omit
    }

    public var name: String
    /// One ASCII byte (`,`).
    public var separator: UInt8
    /// UTF-8 byte order mark first: without it Excel reads the file in the system's legacy code page.
    public var byteOrderMark: Bool
    public var lineEnding: String
    public var instants: InstantStyle
    public var blobs: BlobStyle
    /// Text longer than this many UTF-16 units is left empty and counted in the report (Excel's cell limit is
    /// 32,767 characters; longer cells are cut or split across rows, which corrupts the table). nil: no limit.
    public var maximumCellLength: Int?
    /// Prefix text cells that a spreadsheet would run as a formula (see `CSVFormulaGuard`) with `'`.
    public var guardsFormulas: Bool
    /// Count integers a spreadsheet cannot show exactly (more than 15 significant digits) in the report.
    public var reportsImpreciseIntegers: Bool

    public init(
        name: String, separator: UInt8 = UInt8(ascii: ","), byteOrderMark: Bool = false, lineEnding: String = "\r\n",
        instants: InstantStyle = .iso8601, blobs: BlobStyle = .base64, maximumCellLength: Int? = nil,
        guardsFormulas: Bool = false, reportsImpreciseIntegers: Bool = false
    ) {
        self.name = name
        self.separator = separator
        self.byteOrderMark = byteOrderMark
        self.lineEnding = lineEnding
        self.instants = instants
        self.blobs = blobs
        self.maximumCellLength = maximumCellLength
        self.guardsFormulas = guardsFormulas
        self.reportsImpreciseIntegers = reportsImpreciseIntegers
    }

    /// RFC 4180 for programs (pandas, DuckDB, R, Python's csv): UTF-8 without BOM, CRLF, a header row, data
    /// exactly as stored (no cell altered, nothing left out), instants in ISO 8601 with the row's offset.
    public static let standard = CSVDialect(name: "standard")

    /// For opening in Excel (and LibreOffice) by double-click: UTF-8 with BOM, comma, CRLF, instants as local
    /// `yyyy-mm-dd hh:mm:ss`. Cells Excel cannot hold are left empty and counted (BLOBs, text over 32,767
    /// characters); text that Excel would run as a formula is prefixed with `'`. Numbers are the same as in
    /// `.standard` (point as decimal separator): Excel in a comma-decimal locale (de_DE) still splits on `;`,
    /// which no single file can satisfy together with English locales. LibreOffice always shows its import
    /// dialog for CSV; there, "Detect special numbers" must be ticked for the date-times (its ISO dates are
    /// read either way), and 7.4 needs the character set set to UTF-8 despite the BOM.
    public static let excel = CSVDialect(
        name: "excel", byteOrderMark: true, instants: .spreadsheet, blobs: .omit, maximumCellLength: 32_767,
        guardsFormulas: true, reportsImpreciseIntegers: true)
}
