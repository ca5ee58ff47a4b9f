import Foundation
import HealthModel

/// The sources seen so far, each a (class, name) pair with a small id, and their rank.
///
/// A source's rank is its position in (class, name) order. Comparing two ids' ranks is one array read, so
/// finding the best source of a stretch costs no string comparison. The same name with two classes (an iPhone
/// that measured some samples and holds hand-entered others) makes two sources that rank apart.
struct RollupSourceTable {
    private struct Key: Hashable {
        var sourceClass: Int
        var name: String
    }

    private var ids: [Key: Int32] = [:]
    private(set) var names: [String] = []
    private var classes: [Int] = []
    /// Rank by id, recomputed when a source is added: rare, a handful of times per export.
    private(set) var rank: [Int32] = []
    /// A few sources asked for lately, replaced in turn.
    private var recent: [(sourceClass: Int, name: String, id: Int32)] = []
    private var nextRecentSlot = 0

    @inline(__always)
    mutating func id(name: String, sourceClass: Int) -> Int32 {
        // Samples of a type come from a few interleaved sources, so a recent answer is almost always right.
        // Bytes are compared rather than Strings: hashing or comparing a non-ASCII name (`Anna’s iPhone`)
        // as a String normalizes it to NFC every time.
        for entry in recent where entry.sourceClass == sourceClass && Self.sameBytes(entry.name, name) {
            return entry.id
        }
        let key = Key(sourceClass: sourceClass, name: name)
        let id = ids[key] ?? insert(key)
        if recent.count < 4 {
            recent.append((sourceClass, name, id))
        } else {
            recent[nextRecentSlot] = (sourceClass, name, id)
            nextRecentSlot = (nextRecentSlot + 1) % recent.count
        }
        return id
    }

    /// The sender hands over the same String for every sample of a source, so equal storage answers at once;
    /// otherwise one memcmp of the UTF-8 bytes (a generic `elementsEqual` walks them one at a time).
    @inline(__always)
    private static func sameBytes(_ left: String, _ right: String) -> Bool {
        let answer = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes -> Bool in
                guard leftBytes.count == rightBytes.count else { return false }
                guard let leftBase = leftBytes.baseAddress, let rightBase = rightBytes.baseAddress else { return true }
                return leftBase == rightBase || memcmp(leftBase, rightBase, leftBytes.count) == 0
            }
        }
        return (answer ?? nil) ?? left.utf8.elementsEqual(right.utf8)
    }

    private mutating func insert(_ key: Key) -> Int32 {
        let id = Int32(names.count)
        ids[key] = id
        names.append(key.name)
        classes.append(key.sourceClass)
        let order = names.indices.sorted { left, right in
            if classes[left] != classes[right] { return classes[left] < classes[right] }
            return names[left].unicodeScalars.lexicographicallyPrecedes(names[right].unicodeScalars)
        }
        rank = Array(repeating: 0, count: names.count)
        for (position, index) in order.enumerated() { rank[index] = Int32(position) }
        return id
    }

    /// The sorted names of a bucket's sources, each once.
    func sortedNames(_ sourceIDs: [Int32]) -> [String] {
        if sourceIDs.count == 1 { return [names[Int(sourceIDs[0])]] }
        return Array(Set(sourceIDs.map { names[Int($0)] })).sorted {
            $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
        }
    }
}

/// Category values seen so far, with their statistic names.
struct RollupValueTable {
    let typeIdentifier: String
    private var ids: [String: Int32] = [:]
    private var nilID: Int32?
    private(set) var statistics: [String] = []

    init(typeIdentifier: String) { self.typeIdentifier = typeIdentifier }

    /// The id of a value's statistic. Two values with the same statistic name (`A B` and `A_B` after
    /// sanitizing) share it, so a bucket never has two rows with one name.
    mutating func id(_ value: String?) -> Int32 {
        if let value, let id = ids[value] { return id }
        if value == nil, let nilID { return nilID }
        let statistic = RollupNaming.categoryStatistic(value: value, typeIdentifier: typeIdentifier)
        let id = Int32(statistics.firstIndex(of: statistic) ?? statistics.count)
        if id == statistics.count { statistics.append(statistic) }
        if let value { ids[value] = id } else { nilID = id }
        return id
    }
}
