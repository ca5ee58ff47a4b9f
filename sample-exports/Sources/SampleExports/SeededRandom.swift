/// SplitMix64: tiny, fast and fully specified, so the same seed gives the same export on every platform and
/// toolchain (Swift's `SystemRandomNumberGenerator` and `Hasher` are deliberately not reproducible).
///
/// The generator derives one independent stream per (section, day) with `SeededRandom(seed:stream:day:)`.
/// That keeps a day's content independent of how many days come before it and lets a section be regenerated
/// (correlation children at top level and inside their correlation, GPX files after the XML) without storing it.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A stream keyed by a stable name (FNV-1a, not `Hasher`, which is randomly seeded per process) and a day.
    init(seed: UInt64, stream: StaticString, day: Int = 0) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        stream.withUTF8Buffer { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        var mixer = SeededRandom(seed: seed ^ hash)
        _ = mixer.next()
        state = mixer.next() ^ (UInt64(bitPattern: Int64(day)) &* 0x9e37_79b9_7f4a_7c15)
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Uniform in [lower, upper).
    mutating func double(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// Uniform integer in the closed range (modulo bias is irrelevant for test data and keeps this cheap).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next() % span)
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// Approximately normal (Irwin–Hall with 4 terms): cheap, bounded, good enough for sensor noise.
    mutating func normal(mean: Double, deviation: Double) -> Double {
        let sum = unit() + unit() + unit() + unit()
        return mean + (sum - 2.0) * deviation * 1.732_050_8
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int(next() % UInt64(values.count))]
    }

    /// An upper-case UUID string in the 8-4-4-4-12 shape that HealthKit prints.
    mutating func uuid() -> String {
        let high = next()
        let low = next()
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for index in 0..<32 {
            let word = index < 16 ? high : low
            var nibble = Int((word >> UInt64(60 - (index % 16) * 4)) & 0xF)
            if index == 12 { nibble = 4 }
            if index == 16 { nibble = 8 | (nibble & 3) }
            if index == 8 || index == 12 || index == 16 || index == 20 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(hex[nibble])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
