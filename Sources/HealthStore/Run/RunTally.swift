/// What a run counts while it writes: rows per table, records not stored and why, the sink's own warnings, and
/// types missing from the catalog. Only the front (`SQLiteSink`) holds it: the parts report what each item did
/// (`WriteReport`), and the front adds the report here (`add`); the summary reads it at the end.
final class RunTally {
    /// Rows written, by table (a replaced row of this run counts -1 again).
    private(set) var rows = RowCounts()
    /// Records not stored, by reason: every dropped record is counted.
    private(set) var drops = DropCounts()
    /// Warnings of the sink's own (a document it could not store), by summary text.
    private(set) var warnings: [String: Int] = [:]
    /// Types missing from the catalog (new iOS versions, `HKDataType…` names), stored by the fallback rule.
    private(set) var unknownTypes: [String: Int] = [:]

    /// Adds what one item (or one step of the run's end) did.
    @inline(__always) func add(_ report: borrowing WriteReport) {
        rows.add(report.rows)
        drops.add(report.drops)
        report.warnings.each { warn($0) }
        report.unknownTypes.each { noteUnknownType($0) }
    }

    @inline(__always) func count(_ table: WrittenTable, _ increment: Int = 1) { rows.add(table, increment) }

    func drop(_ reason: DropReason) { drops.add(reason) }

    func warn(_ warning: StoreWarning, count: Int = 1) { warnings[warning.summaryKey, default: 0] += count }

    func noteUnknownType(_ type: String) { unknownTypes[type, default: 0] += 1 }
}
