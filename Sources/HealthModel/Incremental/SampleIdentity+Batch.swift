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
        let vocabulary = batch.vocabulary
        var hasher = StableHasher()
        combine(vocabulary.types, batch.type[row], into: &hasher)
        let source = vocabulary.sourceTexts(batch.source[row])
        combine(vocabulary.sourceStrings, source.name, into: &hasher)
        combine(vocabulary.sourceStrings, source.version, into: &hasher)
        combine(vocabulary.sourceStrings, source.deviceKey, into: &hasher)
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
            combine(vocabulary.texts, batch.text[row], into: &hasher)
        } else if present.contains(.freeText) {
            combine(batch, batch.freeText[row], into: &hasher)
        } else {
            hasher.combine("")
        }
        let unit = batch.rawUnit[row] != 0 ? batch.rawUnit[row] : batch.unit[row]
        if unit != 0 { combine(vocabulary.units, unit, into: &hasher) } else { hasher.combine("") }
        let entries = batch.metadataRange(row)
        if entries.count == 1 {
            combine(vocabulary.keys, batch.metadataKey[entries.lowerBound], into: &hasher)
            combine(batch, batch.metadataValue[entries.lowerBound], into: &hasher)
        } else if entries.count > 1 {
            combineSorted(batch, entries, into: &hasher)
        }
        return hasher.finish()
    }

    private static func combineSorted(_ batch: SampleBatch, _ entries: Range<Int>, into hasher: inout StableHasher) {
        let keys = batch.vocabulary.keys
        let allASCII = entries.allSatisfy { index in
            keys.isASCII(batch.metadataKey[index])
                && batch.withBytes(batch.metadataValue[index]) { $0.allSatisfy { $0 < 0x80 } }
        }
        guard allASCII else {
            // The `Sample` form's own sort, over the same entries in the same order: the same permutation.
            let sorted = entries.map(batch.metadataEntry).sorted { ($0.key, $0.value) < ($1.key, $1.value) }
            for entry in sorted {
                hasher.combine(entry.key)
                hasher.combine(entry.value)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: entries.count) { buffer in
            var order = buffer
            _ = order.initialize(from: entries)
            order.sort { left, right in
                let byKey = keys.withBytes(batch.metadataKey[left]) { leftKey in
                    keys.withBytes(batch.metadataKey[right]) { compare(leftKey, $0) }
                }
                if byKey != 0 { return byKey < 0 }
                return batch.withBytes(batch.metadataValue[left]) { leftValue in
                    batch.withBytes(batch.metadataValue[right]) { compare(leftValue, $0) < 0 }
                }
            }
            for index in order {
                combine(keys, batch.metadataKey[index], into: &hasher)
                combine(batch, batch.metadataValue[index], into: &hasher)
            }
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

    /// An empty text goes through `combine("")`, so it mixes exactly what the `String` form mixes for it.
    private static func combine(_ texts: InternedTexts, _ id: UInt32, into hasher: inout StableHasher) {
        texts.withBytes(id) { bytes in
            if bytes.isEmpty { hasher.combine("") } else { hasher.combine(utf8: bytes) }
        }
    }

    private static func combine(_ batch: SampleBatch, _ span: ArenaSpan, into hasher: inout StableHasher) {
        batch.withBytes(span) { bytes in
            if bytes.isEmpty { hasher.combine("") } else { hasher.combine(utf8: bytes) }
        }
    }
}
