import HealthSchema

/// The stored rows of the few (table, type, UTC day) a re-import met last, each as its (identity, id) pairs
/// sorted by identity: a row of the export is found among its day's by a binary search instead of a look-up in
/// the database (SampleWriter+Days.swift). Rows of a type come roughly in insertion order, so a day is read
/// once or a few times (another source's rows of an earlier day may come between); a handful of days is kept.
///
/// A copy may miss the rows this run inserted since it was read: a row not found goes the whole way and is
/// looked up in the database. It must not hold a row taken out since: every copy is dropped when the run has
/// removed rows (`removals` changed).
struct EarlierDays {
    struct Key: Equatable {
        var table: TrackedTable
        var typeID: Int64
        /// Days since 1970-01-01, UTC.
        var day: Int64
    }

    /// How many days are kept: a few interleaved sources' days, a few kB each.
    static let capacity = 8
    private static let secondsPerDay: Int64 = 86_400
    /// From 1000-01-01 to 9999-12-30, UTC: days whose stored start texts, and the next day's start that ends
    /// their range, have four-digit years and so sort like the instants: a day is one range of the index.
    private static let matchableStarts: Range<Int64> = -30_610_224_000..<253_402_214_400

    /// Most recently used last.
    private var days: [(key: Key, rows: [(Int64, Int64)])] = []
    private var removalsWhenRead = 0

    /// The day of a start (UTC seconds), if its rows can be read as one range.
    static func day(ofStart seconds: Int64) -> Int64? {
        guard matchableStarts.contains(seconds) else { return nil }
        return seconds >= 0 ? seconds / secondsPerDay : (seconds - secondsPerDay + 1) / secondsPerDay
    }

    /// The id of the row of `key`'s day with `identity`, if it has one; `read` fills a day's (identity, id)
    /// pairs of the rows starting in the given seconds when the day is not kept.
    mutating func id(
        of identity: Int64, _ key: Key, removals: Int,
        read: (Range<Int64>, inout [(Int64, Int64)]) throws -> Void
    ) rethrows -> Int64? {
        if removals != removalsWhenRead {
            days.removeAll(keepingCapacity: true)
            removalsWhenRead = removals
        }
        let index: Int
        if let kept = days.lastIndex(where: { $0.key == key }) {
            index = kept
        } else {
            var rows = days.count == Self.capacity ? days.removeFirst().rows : []
            let start = key.day * Self.secondsPerDay
            try read(start..<start + Self.secondsPerDay, &rows)
            rows.sort { $0.0 < $1.0 }
            Self.dropRepeatedIdentities(&rows)
            days.append((key, rows))
            index = days.count - 1
        }
        if index != days.count - 1 { days.append(days.remove(at: index)) }
        return Self.id(of: identity, in: days[days.count - 1].rows)
    }

    /// Takes out every pair whose identity another pair of the day has too: two rows of a type and day with
    /// one identity would differ in their start only by a fingerprint collision, and which of them a sample
    /// is, only its own look-up by (type, start, identity) can tell.
    private static func dropRepeatedIdentities(_ sorted: inout [(Int64, Int64)]) {
        var index = 0
        var kept = 0
        while index < sorted.count {
            var end = index + 1
            while end < sorted.count, sorted[end].0 == sorted[index].0 { end += 1 }
            if end == index + 1 {
                sorted[kept] = sorted[index]
                kept += 1
            }
            index = end
        }
        sorted.removeLast(sorted.count - kept)
    }

    /// The id paired with `identity` in `sorted` (by identity, each once), by binary search.
    private static func id(of identity: Int64, in sorted: [(Int64, Int64)]) -> Int64? {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].0 < identity { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low].0 == identity ? sorted[low].1 : nil
    }
}
