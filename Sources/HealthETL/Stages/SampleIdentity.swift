/// A sample's identity: the export carries no UUIDs, so a sample is identified by what it says.
///
/// The fingerprint hashes the type, the source (name, version, and device without its per-record address), the
/// UTC start and end (never the local text: re-exports made in another season write other offsets), the value
/// and unit *as exported*, and the metadata sorted by key. Two records with equal fingerprints are exact
/// duplicates; the same sample in next month's export has the same fingerprint, which is what incremental
/// imports build on. The hash is FNV-1a with a final avalanche: stable across runs and machines (Swift's
/// `Hasher` is seeded per process and so cannot be used).
public enum SampleIdentity {
    public static func fingerprint(_ sample: Sample) -> Int64 {
        var hasher = StableHasher()
        hasher.combine(sample.type)
        hasher.combine(sample.source.name)
        hasher.combine(sample.source.version ?? "")
        hasher.combine(sample.source.device?.key ?? "")
        hasher.combine(sample.startDate?.seconds ?? Int64.min)
        hasher.combine(sample.endDate?.seconds ?? Int64.min)
        hasher.combine((sample.rawValue ?? sample.value)?.bitPattern ?? 0)
        hasher.combine(sample.textValue ?? "")
        hasher.combine(sample.rawUnit ?? sample.unit ?? "")
        if sample.metadata.count == 1 {
            hasher.combine(sample.metadata[0].key)
            hasher.combine(sample.metadata[0].value)
        } else if !sample.metadata.isEmpty {
            for entry in sample.metadata.sorted(by: { ($0.key, $0.value) < ($1.key, $1.value) }) {
                hasher.combine(entry.key)
                hasher.combine(entry.value)
            }
        }
        return hasher.finish()
    }
}

/// 64-bit FNV-1a over the bytes of each part, with lengths mixed in so ("ab","c") ≠ ("a","bc").
struct StableHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) private mutating func mix(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    mutating func combine(_ text: String) {
        var copy = text
        copy.withUTF8 { bytes in
            for byte in bytes { mix(byte) }
        }
        combine(UInt64(text.utf8.count))
    }

    mutating func combine(_ value: Int64) { combine(UInt64(bitPattern: value)) }

    mutating func combine(_ value: UInt64) {
        var remaining = value
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
    }

    /// SplitMix64's finaliser, so nearby inputs spread over all 64 bits.
    func finish() -> Int64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int64(bitPattern: z ^ (z >> 31))
    }
}
