import Glibc

/// Texts interned by their UTF-8 bytes: id 1, 2, 3… in order of first appearance (0 stays free for "none"),
/// each kept as bytes (for hashing and binding) and as a `String` (made once, for the `Sample` form).
///
/// The bytes are the `String`'s UTF-8, not the XML's: a decoder interning attribute bytes must decode them
/// first where they differ (`&#38;`, repaired UTF-8), so one text has one id whichever way it arrived.
/// Look-ups by bytes hash and compare in place (open addressing over the arena): a text seen before costs
/// no allocation.
package struct InternedTexts: Sendable {
    /// Every text's bytes, one after another; text `id` is `bytes[ends[id - 1]..<ends[id]]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = [0]
    private var strings: [String] = [""]
    private var ascii: [Bool] = [true]
    /// Open addressing: ids (0 = empty slot), a power of two long, at most half full.
    private var slots = [UInt32](repeating: 0, count: 64)
    /// The last id found or added: exports repeat the same type, unit and key on row after row.
    private var last: UInt32 = 0

    package init() {}

    /// How many texts there are; their ids are `1...count`.
    package var count: Int { strings.count - 1 }

    /// The text of `id` (1...count).
    package func string(_ id: UInt32) -> String { strings[Int(id)] }

    /// The text has only ASCII bytes, so comparing bytes orders it as `String` comparison does.
    package func isASCII(_ id: UInt32) -> Bool { ascii[Int(id)] }

    /// Calls `body` with the text's UTF-8 bytes (an empty text: an empty buffer that may have no base address).
    package func withBytes<Result>(_ id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = ends[Int(id) - 1]..<ends[Int(id)]
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Calls `body` with every text's bytes, one after another, and where each ends: text `id` is
    /// `bytes[ends[id - 1]..<ends[id]]`. For loops that read many texts without a closure per text.
    package func withStorage<Result>(
        _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ ends: UnsafeBufferPointer<Int>) -> Result
    ) -> Result {
        bytes.withUnsafeBufferPointer { bytes in ends.withUnsafeBufferPointer { body(bytes, $0) } }
    }

    /// The id of these bytes if they were interned, without adding them.
    package func find(_ text: UnsafeBufferPointer<UInt8>) -> UInt32? {
        if last != 0, matches(last, text) { return last }
        let id = slots[probe(text)]
        return id == 0 ? nil : id
    }

    /// The id of these bytes, added (and decoded into a `String` once) if they are new.
    package mutating func id(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if last != 0, matches(last, text) { return last }
        let slot = probe(text)
        if slots[slot] != 0 {
            last = slots[slot]
            return last
        }
        return add(text, String(decoding: text, as: UTF8.self), slot: slot)
    }

    /// The id of a text, added if it is new; a native `String`'s bytes are read in place.
    package mutating func id(_ text: String) -> UInt32 {
        var copy = text
        return copy.withUTF8 { utf8 in
            if last != 0, matches(last, utf8) { return last }
            let slot = probe(utf8)
            if slots[slot] != 0 {
                last = slots[slot]
                return last
            }
            return add(utf8, text, slot: slot)
        }
    }

    private mutating func add(_ text: UnsafeBufferPointer<UInt8>, _ string: String, slot: Int) -> UInt32 {
        precondition(strings.count < Int(UInt32.max), "more than 2^32 distinct texts in one import")
        bytes.append(contentsOf: text)
        ends.append(bytes.count)
        strings.append(string)
        ascii.append(text.allSatisfy { $0 < 0x80 })
        let id = UInt32(count)
        slots[slot] = id
        last = id
        if count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        for id in 1...UInt32(count) {
            let slot = withBytes(id) { probe($0) }
            slots[slot] = id
        }
    }

    /// The slot holding these bytes' id, or the empty slot where they would go.
    private func probe(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = StableHasher()
        hasher.combine(utf8: text)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hasher.finish()) & mask
        while slots[slot] != 0, !matches(slots[slot], text) { slot = (slot + 1) & mask }
        return slot
    }

    private func matches(_ id: UInt32, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = ends[Int(id) - 1]
        guard ends[Int(id)] - start == text.count else { return false }
        guard let textBase = text.baseAddress, !text.isEmpty else { return true }
        // swift-format-ignore: NeverForceUnwrap
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, textBase, text.count) == 0 }
    }
}
