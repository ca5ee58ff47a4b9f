import HealthModel
import HealthSchema

/// A re-import's rows met a day at a time (docs/batches.md, step 12). Most of a re-imported export is the
/// earlier export again, and looking each of its rows up (`matchEarlierRow`: a descent of the UNIQUE index per
/// row) was most of the writer's work. Instead, the earlier rows of a row's type and UTC day of start are read
/// once, as one range of that index (`EarlierDays`), and the row is found among them by its identity: the row
/// its own look-up would have found (an identity covers the start), met and counted as that look-up would have
/// met it. A row not found there, or found already met, goes the whole way (`write`), which decides as before;
/// so the rows, the ledger and the ids are the same either way.
extension SampleWriter {
    /// Whether rows can be met by day: a re-import of an export (a feed run places its rows by its own rule).
    var matchesDays: Bool { policy.hasEarlierRows && !policy.isFeed }

    /// Meets row `row` (of a type in the catalog, stored in `table`) as the earlier row of its day with its
    /// identity; false, with nothing done, when that row is not there or was met already, or the row has no
    /// start to find its day by.
    @inline(__always) func meetByDay(
        _ rows: BatchRows, row: Int, type: BatchType, table: TrackedTable, identity: Int64,
        into report: inout WriteReport
    ) throws -> Bool {
        guard rows.presence[row].contains(.start), !SampleFlags(rawValue: rows.flags[row]).contains(.badDate),
            let day = EarlierDays.day(ofStart: rows.start[row])
        else { return false }
        let key = EarlierDays.Key(table: table, typeID: type.typeID, day: day)
        let found = try earlierDays.id(of: identity, key, removals: session.removals) { seconds, rowsOfDay in
            try rowWriters[table.rawValue].rows(typeID: type.typeID, starting: seconds, into: &rowsOfDay)
        }
        guard let id = found, session.markSeen(table, id: id) else { return false }
        rowsMetByDay += 1
        let sample = BatchRow(rows: rows, row: row, type: type.name)
        report.countUnchanged(
            table, type: type.name, identity: identity, start: sample.startDate, end: sample.endDate,
            creation: sample.creationDate)
        if type.correlationChild { try correlationCandidates.remember(identity, (table, id)) }
        return true
    }
}
