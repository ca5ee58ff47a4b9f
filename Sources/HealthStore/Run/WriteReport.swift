import HealthModel
import HealthSchema

/// What writing one item did: rows per table, records not stored and why, the sink's own warnings, types
/// missing from the catalog, and the rows of tracked tables met or inserted (`LedgerFact`). Writers and the
/// re-import session fill it; only the front (`SQLiteSink.apply`) turns it into the run's tally (`RunTally`)
/// and the session's ledger (`ChangeLedger`).
///
/// Filled `inout`, in a report the front creates on its stack per item, rather than returned by each call:
/// a correlation's children and a workout's routes add to their parent's report without merging one report
/// into another. Nothing in it allocates for a sample (millions per run): the counters are fixed-size, and
/// the lists hold their first element inline (`SmallList`), so only an item with several facts of one kind
/// (a correlation and its children) allocates.
struct WriteReport {
    private(set) var rows = RowCounts()
    private(set) var drops = DropCounts()
    private(set) var warnings = SmallList<StoreWarning>()
    private(set) var unknownTypes = SmallList<String>()
    private(set) var ledger = SmallList<LedgerFact>()

    @inline(__always) mutating func count(_ table: WrittenTable, _ increment: Int = 1) { rows.add(table, increment) }

    mutating func drop(_ reason: DropReason) { drops.add(reason) }

    mutating func warn(_ warning: StoreWarning) { warnings.append(warning) }

    mutating func noteUnknownType(_ type: String) { unknownTypes.append(type) }

    /// A row of an earlier run met in this export.
    mutating func countUnchanged(
        _ table: TrackedTable, type: String, identity: Int64, start: Timestamp?, end: Timestamp?, creation: Timestamp?
    ) {
        ledger.append(
            LedgerFact(
                kind: .unchanged, table: table, type: type, identity: identity, start: start, end: end,
                creation: creation))
    }

    /// A row of an earlier run met again, with its dates as read from the database (UTC seconds).
    mutating func countUnchanged(
        _ table: TrackedTable, type: String, identity: Int64, startSeconds: Int64?, endSeconds: Int64?,
        creationSeconds: Int64?
    ) {
        ledger.append(
            LedgerFact(
                kind: .unchanged, table: table, type: type, identity: identity, start: startSeconds, end: endSeconds,
                creation: creationSeconds))
    }

    /// A row this run inserted; `replacing` when it took the place of an earlier run's row.
    @inline(__always) mutating func countInserted(
        _ table: TrackedTable, type: String, identity: Int64, start: Timestamp?, end: Timestamp?, creation: Timestamp?,
        replacing: Bool
    ) {
        ledger.append(
            LedgerFact(
                kind: replacing ? .replaced : .added, table: table, type: type, identity: identity, start: start,
                end: end, creation: creation))
    }

    /// Adds `other`'s counts and facts after this report's.
    mutating func add(_ other: WriteReport) {
        rows.add(other.rows)
        drops.add(other.drops)
        for warning in other.warnings { warnings.append(warning) }
        for type in other.unknownTypes { unknownTypes.append(type) }
        for fact in other.ledger { ledger.append(fact) }
    }
}

/// A row of a tracked table that a write met or inserted, as the re-import session's ledger counts it
/// (`ChangeLedger.count`). Dates are UTC seconds.
struct LedgerFact {
    enum Kind { case unchanged, added, replaced }
    var kind: Kind
    var table: TrackedTable
    var type: String
    var identity: Int64
    var start: Int64?
    var end: Int64?
    var creation: Int64?

    init(
        kind: Kind, table: TrackedTable, type: String, identity: Int64, start: Int64?, end: Int64?, creation: Int64?
    ) {
        (self.kind, self.table, self.type, self.identity) = (kind, table, type, identity)
        (self.start, self.end, self.creation) = (start, end, creation)
    }

    /// A sample's, correlation's or workout's own dates.
    init(
        kind: Kind, table: TrackedTable, type: String, identity: Int64, start: Timestamp?, end: Timestamp?,
        creation: Timestamp?
    ) {
        self.init(
            kind: kind, table: table, type: type, identity: identity, start: start?.seconds, end: end?.seconds,
            creation: creation?.seconds)
    }
}

/// A list that holds its first element inline: most items report one fact or none, and such a list never
/// allocates.
struct SmallList<Element> {
    private var first: Element?
    private var rest: [Element] = []

    var isEmpty: Bool { first == nil }
    var count: Int { first == nil ? 0 : 1 + rest.count }

    @inline(__always) mutating func append(_ element: Element) {
        if first == nil { first = element } else { rest.append(element) }
    }

    /// Calls `body` with each element in the order appended, without the copy of the list that a for-in
    /// loop's iterator makes (the front reads each item's facts so).
    @inline(__always) func each(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        for element in rest { try body(element) }
    }
}

extension SmallList: Sequence {
    /// In the order appended.
    struct Iterator: IteratorProtocol {
        private let list: SmallList
        private var index = 0

        init(_ list: SmallList) { self.list = list }

        @inline(__always) mutating func next() -> Element? {
            defer { index += 1 }
            if index == 0 { return list.first }
            return index <= list.rest.count ? list.rest[index - 1] : nil
        }
    }

    @inline(__always) func makeIterator() -> Iterator { Iterator(self) }
}
