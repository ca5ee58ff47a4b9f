import Glibc

extension SampleIdentity {
    /// `fingerprint(_ sample:)` of a batch's row, bit for bit, hashed from the vocabulary's and the arena's
    /// bytes (the same bytes as the `Sample`'s strings' UTF-8) instead of from `String`s.
    ///
    /// The one place the two could part is the order of several metadata entries: the `Sample` form sorts
    /// them by `String` comparison, which compares canonically equivalent texts as equal (`é` written as one
    /// scalar or as `e` + a combining accent) and orders the rest by their normalized scalars, not their
    /// bytes. For ASCII texts both are the bytes' order, so rows whose keys and values are all ASCII are sorted
    /// by bytes; any other multi-entry row sorts its entries as `String`s exactly as the `Sample` form does.
    package static func fingerprint(_ batch: SampleBatch, row: Int) -> Int64 {
        BatchFingerprints(batch.vocabulary).fingerprint(batch, row)
    }

    /// The identity pass: every row's `fingerprint(batch, row:)` into `batch.identity`, with the vocabulary's
    /// tables taken once for the batch instead of once per row.
    package static func fillIdentity(_ batch: inout SampleBatch) {
        let fingerprints = BatchFingerprints(batch.vocabulary)
        // The column is taken out while the rows are read: writing it in place would make the batch a
        // mutated value during the reads, which the compiler then copies (every column retained) per row.
        var identity: [Int64] = []
        swap(&identity, &batch.identity)
        fillIdentity(batch, into: &identity, fingerprints)
        swap(&identity, &batch.identity)
    }

    private static func fillIdentity(
        _ batch: SampleBatch, into identity: inout [Int64], _ fingerprints: BatchFingerprints
    ) {
        for row in 0..<batch.rowCount { identity[row] = fingerprints.fingerprint(batch, row) }
    }
}

/// The vocabulary's tables for one pass over a batch. Copies of its arrays' references, taken once: read
/// through the shared `Vocabulary` object, each look-up would retain and release them.
package struct BatchFingerprints {
    let types: InternedTexts
    let units: InternedTexts
    let texts: InternedTexts
    let keys: InternedTexts
    let sourceStrings: InternedTexts
    let sources: [Vocabulary.SourceTexts]

    package init(_ vocabulary: Vocabulary) {
        types = vocabulary.types
        units = vocabulary.units
        texts = vocabulary.texts
        keys = vocabulary.keys
        sourceStrings = vocabulary.sourceStrings
        sources = vocabulary.allSourceTexts
    }

    package func fingerprint(_ batch: SampleBatch, _ row: Int) -> Int64 {
        var hasher = StableHasher()
        combine(types, batch.type[row], into: &hasher)
        let source = sources[Int(batch.source[row])]
        combine(sourceStrings, source.name, into: &hasher)
        combine(sourceStrings, source.version, into: &hasher)
        combine(sourceStrings, source.deviceKey, into: &hasher)
        let present = batch.presence[row]
        hasher.combine(present.contains(.start) ? batch.start[row] : Int64.min)
        hasher.combine(present.contains(.end) ? batch.end[row] : Int64.min)
        if present.contains(.rawNumber) {
            hasher.combine(batch.rawValue[row].bitPattern)
        } else if present.contains(.value) {
            hasher.combine(batch.value[row].bitPattern)
        } else {
            hasher.combine(0 as UInt64)
        }
        if present.contains(.rawText) {
            combine(batch, batch.rawText[row], into: &hasher)
        } else if present.contains(.text) {
            combine(texts, batch.text[row], into: &hasher)
        } else if present.contains(.freeText) {
            combine(batch, batch.freeText[row], into: &hasher)
        } else {
            hasher.combine("")
        }
        let unit = batch.rawUnit[row] != 0 ? batch.rawUnit[row] : batch.unit[row]
        if unit != 0 { combine(units, unit, into: &hasher) } else { hasher.combine("") }
        let entries = batch.metadataRange(row)
        if entries.count == 1 {
            combine(keys, batch.metadataKey[entries.lowerBound], into: &hasher)
            combine(batch, batch.metadataValue[entries.lowerBound], into: &hasher)
        } else if entries.count > 1 {
            combineSorted(batch, entries, into: &hasher)
        }
        return hasher.finish()
    }

    private func combineSorted(_ batch: SampleBatch, _ entries: Range<Int>, into hasher: inout StableHasher) {
        // Everything as pointers, taken once: closures capturing the batch or the tables copy them per call.
        let sortedByBytes = keys.withStorage { keyBytes, keyEnds in
            batch.arena.withUnsafeBufferPointer { arena in
                batch.metadataKey.withUnsafeBufferPointer { keyIDs in
                    batch.metadataValue.withUnsafeBufferPointer { values in
                        MetadataBytes(
                            keyBytes: keyBytes, keyEnds: keyEnds, arena: arena, keyIDs: keyIDs, values: values
                        )
                        .combineSortedIfASCII(entries, into: &hasher)
                    }
                }
            }
        }
        guard !sortedByBytes else { return }
        // The `Sample` form's own sort, over the same entries in the same order: the same permutation.
        let sorted = entries.map(batch.metadataEntry).sorted { ($0.key, $0.value) < ($1.key, $1.value) }
        for entry in sorted {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }

    /// An empty text goes through `combine("")`, so it mixes exactly what the `String` form mixes for it.
    static func combine(_ bytes: UnsafeBufferPointer<UInt8>, into hasher: inout StableHasher) {
        if bytes.isEmpty { hasher.combine("") } else { hasher.combine(utf8: bytes) }
    }

    private func combine(_ texts: InternedTexts, _ id: UInt32, into hasher: inout StableHasher) {
        texts.withBytes(id) { Self.combine($0, into: &hasher) }
    }

    private func combine(_ batch: SampleBatch, _ span: ArenaSpan, into hasher: inout StableHasher) {
        batch.withBytes(span) { Self.combine($0, into: &hasher) }
    }
}

/// A batch's metadata entries as raw bytes, for sorting a row's entries without `String`s.
private struct MetadataBytes {
    let keyBytes: UnsafeBufferPointer<UInt8>
    let keyEnds: UnsafeBufferPointer<Int>
    let arena: UnsafeBufferPointer<UInt8>
    let keyIDs: UnsafeBufferPointer<UInt32>
    let values: UnsafeBufferPointer<ArenaSpan>

    func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let id = Int(keyIDs[index])
        return UnsafeBufferPointer(rebasing: keyBytes[keyEnds[id - 1]..<keyEnds[id]])
    }

    func value(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = values[index]
        return UnsafeBufferPointer(rebasing: arena[Int(span.offset)..<Int(span.offset + span.count)])
    }

    /// Hashes the entries of `range` in (key, value) order by bytes, if all of them are ASCII; otherwise
    /// hashes nothing and returns false (bytes and `String`s may order them differently).
    func combineSortedIfASCII(_ range: Range<Int>, into hasher: inout StableHasher) -> Bool {
        for index in range {
            guard key(index).allSatisfy({ $0 < 0x80 }), value(index).allSatisfy({ $0 < 0x80 }) else { return false }
        }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: range.count) { buffer in
            var order = buffer
            _ = order.initialize(from: range)
            order.sort { left, right in
                let byKey = Self.compare(key(left), key(right))
                return byKey != 0 ? byKey < 0 : Self.compare(value(left), value(right)) < 0
            }
            for index in order {
                BatchFingerprints.combine(key(index), into: &hasher)
                BatchFingerprints.combine(value(index), into: &hasher)
            }
            return true
        }
    }

    /// Lexicographic order of bytes (a shorter text first when it is the other's prefix), as -1, 0 or 1.
    private static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }
}
