/// Line feeds counted eight bytes at a time (a word per step, no per-byte branch): the cutting thread counts
/// every line of the XML to give each chunk its first line, and a byte-at-a-time loop there was a sixth of its
/// work (docs/performance.md, "The splitter counts lines a word at a time"). Searching start tags for quotes
/// the same way was tried and cost more: their stretches between quotes are a word or two long.
enum ByteScan {
    private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The high bit of each byte of `word` that is zero, and of no other: exact, unlike the shorter test
    /// whose borrow can mark a 0x01 byte after a zero one.
    @inline(__always) private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & low7) &+ low7) | word | low7)
    }

    /// How many bytes of `bytes[0..<count]` are `byte`. Each byte lane of a word adds its match (0 or 1) up to
    /// 255 times, then the lanes are summed: no population count, which x86-64's baseline lacks (Swift's
    /// fallback for it cost as much as the byte loop).
    static func count(of byte: UInt8, in bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let pattern = UInt64(byte) &* ones
        let raw = UnsafeRawPointer(bytes)
        var found = 0
        var index = 0
        while count - index >= 8 {
            var lanes: UInt64 = 0
            for _ in 0..<min((count - index) / 8, 255) {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                lanes &+= zeroBytes(word ^ pattern) >> 7
                index += 8
            }
            // Eight lanes of at most 255 into four of at most 510, then their sum in the top sixteen bits.
            let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
            found += Int((pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while index < count {
            if bytes[index] == byte { found += 1 }
            index += 1
        }
        return found
    }
}
