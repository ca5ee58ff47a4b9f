import Glibc

/// The distinct values of a byte-array column chunk, in first-seen order, kept PLAIN-encoded (4-byte length,
/// bytes) so that the dictionary page is the storage itself. An open-addressing table of entry numbers finds
/// a value again without a Swift dictionary's per-key allocations.
struct ByteArrayDictionary {
    private(set) var plain: [UInt8] = []
    /// Start in `plain` of each entry (its length prefix).
    private(set) var offsets: [Int] = []
    private var slots: [Int32] = Array(repeating: -1, count: 1024)
    /// The entry returned last: rows in a table's order repeat their neighbour's type, unit and source, and a
    /// comparison with it is cheaper than hashing and probing.
    private var lastEntry = -1

    var count: Int { offsets.count }
    var byteCount: Int { plain.count + offsets.count * 8 + slots.count * 4 }

    /// The entry number of `value`, added when new.
    mutating func index(of value: UnsafeRawBufferPointer) -> UInt32 {
        if lastEntry >= 0 && matches(lastEntry, value) { return UInt32(lastEntry) }
        let entry = find(value)
        lastEntry = Int(entry)
        return entry
    }

    private mutating func find(_ value: UnsafeRawBufferPointer) -> UInt32 {
        if offsets.count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(value)) & mask
        while true {
            let entry = slots[slot]
            if entry < 0 { break }
            if matches(Int(entry), value) { return UInt32(entry) }
            slot = (slot + 1) & mask
        }
        let entry = offsets.count
        slots[slot] = Int32(entry)
        offsets.append(plain.count)
        appendLength(value.count, to: &plain)
        plain.append(contentsOf: value)
        return UInt32(entry)
    }

    /// The bytes of entry `entry` (without its length).
    func value(_ entry: Int) -> ArraySlice<UInt8> { plain[bytes(of: entry)] }

    /// Where entry `entry`'s bytes are in `plain` (after its length).
    private func bytes(of entry: Int) -> Range<Int> {
        (offsets[entry] + 4)..<(entry + 1 < offsets.count ? offsets[entry + 1] : plain.count)
    }

    /// One `memcmp` (a byte-by-byte `elementsEqual` was 6 % of a publish).
    private func matches(_ entry: Int, _ value: UnsafeRawBufferPointer) -> Bool {
        let stored = bytes(of: entry)
        guard stored.count == value.count else { return false }
        guard let valueStart = value.baseAddress else { return true }
        return plain.withUnsafeBytes { memcmp($0.baseAddress! + stored.lowerBound, valueStart, value.count) == 0 }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for entry in offsets.indices {
            let hash = value(entry).withUnsafeBytes { Self.hash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }

    /// Eight bytes at a time, multiplied and rotated (a table hash, not a fingerprint), the tail byte by byte.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash = (hash << 29) | (hash >> 35)
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x100_0000_01b3
            offset += 1
        }
        return hash ^ (hash >> 32)
    }
}

func appendLength(_ count: Int, to output: inout [UInt8]) {
    let length = UInt32(count)
    output.append(UInt8(truncatingIfNeeded: length))
    output.append(UInt8(truncatingIfNeeded: length >> 8))
    output.append(UInt8(truncatingIfNeeded: length >> 16))
    output.append(UInt8(truncatingIfNeeded: length >> 24))
}

func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to output: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
}
