/// One bit per row id: which of the rows that were in the database before a run the export still has.
/// A 4 GB export has some 20 million rows, so this stays under 3 MB.
package struct SeenRows {
    private var words: [UInt64] = []
    package private(set) var count = 0

    package init() {}

    /// Marks `id`; false when it was marked already.
    @inline(__always) package mutating func insert(_ id: Int64) -> Bool {
        let (word, bit) = (Int(id >> 6), UInt64(1) << UInt64(id & 63))
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        count += 1
        return true
    }

    @inline(__always) package func contains(_ id: Int64) -> Bool {
        let word = Int(id >> 6)
        return word < words.count && words[word] & (UInt64(1) << UInt64(id & 63)) != 0
    }

    package mutating func remove(_ id: Int64) {
        guard contains(id) else { return }
        words[Int(id >> 6)] &= ~(UInt64(1) << UInt64(id & 63))
        count -= 1
    }
}

/// A table whose rows a re-import matches one by one (samples, correlations, workouts).
package struct TrackedRows {
    package let name: String
    /// Rows with an id up to this one were there before the run; later ids were added by it.
    package var previousMaxID: Int64 = 0
    /// How many of the earlier rows are still in the table (a replaced one leaves during the run).
    package var previousCount = 0
    package var seen = SeenRows()

    package func isPrevious(_ id: Int64) -> Bool { id <= previousMaxID }
    /// Whether some earlier row was not met in this export: only then must the table be searched for them.
    package var hasUnseenRows: Bool { seen.count < previousCount }

    /// Memberwise, for the other targets.
    package init(name: String, previousMaxID: Int64 = 0, previousCount: Int = 0, seen: SeenRows = SeenRows()) {
        self.name = name
        self.previousMaxID = previousMaxID
        self.previousCount = previousCount
        self.seen = seen
    }
}

/// What a run did to the rows of one type, and the anchor it leaves.
public struct TypeChanges: Codable, Sendable, Equatable {
    public var table: String
    public var added = 0
    public var replaced = 0
    public var deleted = 0
    public var unchanged = 0
    /// Rows of the type in the database after the run (met in this export, or added).
    package var rows = 0
    var identitySum: UInt64 = 0
    var identityXor: UInt64 = 0
    package var newestEnd = Int64.min
    package var newestCreation = Int64.min
    /// The earliest start among rows added, replaced or deleted (`Int64.min` when one had no start):
    /// rollups before it stay as they are.
    package var earliestChange = Int64.max
    /// The longest span of any row kept, so a partial rollup knows how far back a sample can reach.
    package var longestSpan: Int64 = 0

    package init(table: String) { self.table = table }

    enum CodingKeys: String, CodingKey { case table, added, replaced, deleted, unchanged }

    public var changed: Bool { added + replaced + deleted > 0 }

    package mutating func noteChange(start: Int64?) { earliestChange = min(earliestChange, start ?? Int64.min) }

    /// Counts a row the database holds after the run.
    package mutating func keep(identity: Int64, start: Int64?, end: Int64?, creation: Int64?) {
        if let start, let end, end - start > longestSpan { longestSpan = end - start }
        rows += 1
        identitySum &+= UInt64(bitPattern: identity)
        identityXor ^= UInt64(bitPattern: identity)
        if let end, end > newestEnd { newestEnd = end }
        if let creation, creation > newestCreation { newestCreation = creation }
    }

    /// Undoes `keep` for a row removed later in the same run (a higher sync version arrived after it).
    package mutating func unkeep(identity: Int64) {
        rows -= 1
        identitySum &-= UInt64(bitPattern: identity)
        identityXor ^= UInt64(bitPattern: identity)
    }

    /// Order-independent: the same rows give the same fingerprint whatever order the export lists them in.
    package var fingerprint: String {
        var hasher = StableHasher()
        hasher.combine(Int64(rows))
        hasher.combine(identitySum)
        hasher.combine(identityXor)
        return String(UInt64(bitPattern: hasher.finish()), radix: 16)
    }
}
