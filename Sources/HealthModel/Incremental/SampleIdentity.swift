/// A sample's identity: the export carries no UUIDs, so a sample is identified by what it says.
///
/// The fingerprint hashes the type, the source (name, version, and device without its per-record address), the
/// UTC start and end (never the local text: re-exports made in another season write other offsets), the value
/// and unit *as exported*, and the metadata sorted by key. Two records with equal fingerprints are exact
/// duplicates; the same sample in next month's export has the same fingerprint, which is what incremental
/// imports build on. The hash (`StableHasher`) is stable across runs and machines (Swift's `Hasher` is seeded
/// per process and so cannot be used).
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
        hasher.combine(sample.rawTextValue ?? sample.textValue ?? "")
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

/// A 64-bit hash over the bytes of each part, eight bytes at a time (multiply and rotate, as in FNV and the
/// xxHash family), with lengths mixed in so ("ab","c") ≠ ("a","bc"). Stable across runs, machines and Swift
/// versions: it depends only on the bytes.
package struct StableHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) private mutating func mix(_ word: UInt64) {
        state = ((state ^ word) &* 0x9E37_79B9_7F4A_7C15)
        state = (state << 31) | (state >> 33)
    }

    package mutating func combine(_ text: String) {
        var copy = text
        copy.withUTF8 { combine(utf8: $0) }
    }

    /// The bytes of a text, mixed exactly as `combine(String)` mixes that text's UTF-8: the columnar form of
    /// the identity (`SampleIdentity+Batch.swift`) hashes the vocabulary's bytes with it and must give the same
    /// fingerprints (the `String` form is this function over `withUTF8`, so the two cannot drift). A buffer
    /// without a base address mixes nothing, as before; callers with an empty text call `combine("")`.
    package mutating func combine(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(base[offset]) << shift
            shift += 8
            offset += 1
        }
        mix(tail)
        mix(UInt64(bytes.count))
    }

    package mutating func combine(_ value: Int64) { mix(UInt64(bitPattern: value)) }

    package mutating func combine(_ value: UInt64) { mix(value) }

    /// SplitMix64's finaliser, so nearby inputs spread over all 64 bits.
    package func finish() -> Int64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int64(bitPattern: z ^ (z >> 31))
    }

    package init() {}
}
