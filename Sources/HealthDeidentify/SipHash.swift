/// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit pseudorandom function for short inputs, used
/// where a keyed value is computed for every row of a large table (the sample fingerprints), about fifty times
/// cheaper than an HMAC-SHA256. Its 128-bit key is derived from the user's key by HMAC, so it is as secret.
package struct SipHash24: Sendable {
    private let key0: UInt64
    private let key1: UInt64

    package init(key: [UInt8]) {
        precondition(key.count >= 16, "SipHash needs a 128-bit key")
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(key[offset + $1]) << (8 * UInt64($1)) }
        }
        key0 = word(0)
        key1 = word(8)
    }

    package func hash(_ message: [UInt8]) -> UInt64 {
        var v0 = key0 ^ 0x736f_6d65_7073_6575
        var v1 = key1 ^ 0x646f_7261_6e64_6f6d
        var v2 = key0 ^ 0x6c79_6765_6e65_7261
        var v3 = key1 ^ 0x7465_6462_7974_6573
        @inline(__always) func round() {
            v0 &+= v1
            v1 = v1 << 13 | v1 >> 51
            v1 ^= v0
            v0 = v0 << 32 | v0 >> 32
            v2 &+= v3
            v3 = v3 << 16 | v3 >> 48
            v3 ^= v2
            v0 &+= v3
            v3 = v3 << 21 | v3 >> 43
            v3 ^= v0
            v2 &+= v1
            v1 = v1 << 17 | v1 >> 47
            v1 ^= v2
            v2 = v2 << 32 | v2 >> 32
        }
        let fullWords = message.count / 8
        for index in 0..<fullWords {
            var word: UInt64 = 0
            for byte in 0..<8 { word |= UInt64(message[index * 8 + byte]) << (8 * UInt64(byte)) }
            v3 ^= word
            round()
            round()
            v0 ^= word
        }
        var last = UInt64(truncatingIfNeeded: message.count) << 56
        for byte in 0..<(message.count % 8) { last |= UInt64(message[fullWords * 8 + byte]) << (8 * UInt64(byte)) }
        v3 ^= last
        round()
        round()
        v0 ^= last
        v2 ^= 0xff
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// The hash of one integer's eight little-endian bytes.
    package func hash(_ value: Int64) -> UInt64 {
        hash(withUnsafeBytes(of: value.littleEndian) { Array($0) })
    }
}
