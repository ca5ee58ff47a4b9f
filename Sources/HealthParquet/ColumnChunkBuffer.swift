/// The values of one column in the row group being written: definition levels (1 value, 0 NULL), the values
/// themselves already PLAIN-encoded or as dictionary indices, and the statistics of the chunk.
struct ColumnChunkBuffer {
    let column: ParquetColumn
    /// A dictionary's PLAIN bytes beyond this size make the chunk fall back to PLAIN (1 MiB, the common default
    /// of dictionary page sizes).
    static let dictionaryByteLimit = 1 << 20

    private(set) var definitionLevels: [UInt8] = []
    private(set) var nullCount = 0
    /// PLAIN-encoded byte arrays (length-prefixed) once the dictionary is given up.
    private(set) var plain: [UInt8] = []
    /// Fixed-width values, little-endian, kept as words and turned into bytes once per page: appending a word
    /// to a typed array costs less than appending its bytes one call at a time.
    private(set) var words: [UInt64] = []
    private(set) var halfWords: [UInt32] = []
    /// Byte arrays while the dictionary holds: the entry of each non-NULL value.
    private(set) var indices: [UInt32] = []
    private(set) var dictionary: ByteArrayDictionary?
    private(set) var statistics = ColumnStatistics()

    init(_ column: ParquetColumn) {
        self.column = column
        if column.storesBytes { dictionary = ByteArrayDictionary() }
    }

    var rowCount: Int { definitionLevels.count }

    /// Bytes held, to bound the row group.
    var byteCount: Int {
        definitionLevels.count + plain.count + words.count * 8 + halfWords.count * 4 + indices.count * 4
            + (dictionary?.byteCount ?? 0)
    }

    mutating func appendNull() {
        definitionLevels.append(0)
        nullCount += 1
    }

    mutating func append(_ value: Int64) {
        definitionLevels.append(1)
        words.append(UInt64(bitPattern: value).littleEndian)
        statistics.include(value)
    }

    mutating func append(_ value: Int32) {
        definitionLevels.append(1)
        halfWords.append(UInt32(bitPattern: value).littleEndian)
        statistics.include(Int64(value))
    }

    mutating func append(_ value: Double) {
        definitionLevels.append(1)
        words.append(value.bitPattern.littleEndian)
        statistics.include(value)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        definitionLevels.append(1)
        if dictionary != nil {
            let known = dictionary!.count
            indices.append(dictionary!.index(of: bytes))
            // The bounds are those of the distinct values: only a new entry can move them.
            if dictionary!.count > known { statistics.include(bytes) }
            if dictionary!.plain.count > Self.dictionaryByteLimit { fallBackToPlain() }
        } else {
            statistics.include(bytes)
            appendLength(bytes.count, to: &plain)
            plain.append(contentsOf: bytes)
        }
    }

    /// Too many distinct values for a dictionary to pay: the chunk so far, and the rest of it, PLAIN.
    private mutating func fallBackToPlain() {
        guard let dictionary else { return }
        for index in indices {
            let value = dictionary.value(Int(index))
            appendLength(value.count, to: &plain)
            plain.append(contentsOf: value)
        }
        indices = []
        self.dictionary = nil
    }

    /// The dictionary page's body (PLAIN values) and its entry count; nil when the chunk is PLAIN.
    var dictionaryPage: (body: [UInt8], count: Int)? {
        guard let dictionary, !indices.isEmpty else { return nil }
        return (dictionary.plain, dictionary.count)
    }

    /// The data page's body (data page v1): definition levels RLE-encoded behind their 4-byte length, then the
    /// values: PLAIN, or the bit width and the RLE/bit-packed dictionary indices.
    func dataPageBody() -> (body: [UInt8], usesDictionary: Bool) {
        var body: [UInt8] = [0, 0, 0, 0]
        RunLengthBitPacking.encode(definitionLevels, bitWidth: 1, into: &body)
        let levelsLength = UInt32(body.count - 4)
        for byte in 0..<4 { body[byte] = UInt8(truncatingIfNeeded: levelsLength >> (8 * byte)) }
        if let dictionary, !indices.isEmpty {
            // A width of at least 1: some readers mishandle 0 for a one-entry dictionary.
            let width = max(1, RunLengthBitPacking.bitWidth(forMaximum: UInt32(dictionary.count - 1)))
            body.append(UInt8(width))
            RunLengthBitPacking.encode(indices, bitWidth: width, into: &body)
            return (body, true)
        }
        body.append(contentsOf: plain)
        words.withUnsafeBytes { body.append(contentsOf: $0) }
        halfWords.withUnsafeBytes { body.append(contentsOf: $0) }
        return (body, false)
    }
}

/// Minimum, maximum and NULL count of a column chunk, in the column's sort order: signed for integers and
/// dates, numeric for doubles (NaN left out), unsigned bytewise for strings.
struct ColumnStatistics {
    private(set) var minimumInteger = Int64.max
    private(set) var maximumInteger = Int64.min
    private(set) var minimumDouble = Double.infinity
    private(set) var maximumDouble = -Double.infinity
    private(set) var minimumBytes: [UInt8]?
    private(set) var maximumBytes: [UInt8]?
    private(set) var hasValue = false
    /// Byte-array bounds longer than this are left out rather than written whole (JSON documents).
    static let longestByteBound = 256
    private(set) var bytesTooLong = false

    mutating func include(_ value: Int64) {
        hasValue = true
        if value < minimumInteger { minimumInteger = value }
        if value > maximumInteger { maximumInteger = value }
    }

    mutating func include(_ value: Double) {
        guard !value.isNaN else { return }
        hasValue = true
        if value < minimumDouble { minimumDouble = value }
        if value > maximumDouble { maximumDouble = value }
    }

    mutating func include(_ bytes: UnsafeRawBufferPointer) {
        guard !bytesTooLong else { return }
        if bytes.count > Self.longestByteBound {
            bytesTooLong = true
            minimumBytes = nil
            maximumBytes = nil
            return
        }
        hasValue = true
        if minimumBytes.map({ Self.precedes(bytes, $0) }) ?? true { minimumBytes = Array(bytes) }
        if maximumBytes.map({ Self.precedes($0, bytes) }) ?? true { maximumBytes = Array(bytes) }
    }

    static func precedes<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// The PLAIN encodings of the bounds for `column`, nil when there is none to write.
    func bounds(for column: ParquetColumn) -> (minimum: [UInt8], maximum: [UInt8])? {
        guard hasValue else { return nil }
        switch column.kind {
        case .integer, .timestampMicrosUTC:
            var low: [UInt8] = []
            var high: [UInt8] = []
            appendLittleEndian(minimumInteger, to: &low)
            appendLittleEndian(maximumInteger, to: &high)
            return (low, high)
        case .date:
            var low: [UInt8] = []
            var high: [UInt8] = []
            appendLittleEndian(Int32(minimumInteger), to: &low)
            appendLittleEndian(Int32(maximumInteger), to: &high)
            return (low, high)
        case .double:
            // The specification's rule for zeros: a minimum of +0 is written −0, a maximum of −0 is written +0.
            let low = minimumDouble == 0 ? -0.0 : minimumDouble
            let high = maximumDouble == 0 ? 0.0 : maximumDouble
            var lowBytes: [UInt8] = []
            var highBytes: [UInt8] = []
            appendLittleEndian(low.bitPattern, to: &lowBytes)
            appendLittleEndian(high.bitPattern, to: &highBytes)
            return (lowBytes, highBytes)
        case .string, .binary:
            guard !bytesTooLong, let minimumBytes, let maximumBytes else { return nil }
            return (minimumBytes, maximumBytes)
        }
    }
}
