/// PostgreSQL's binary COPY format, both ways: a header, then per row a 16-bit field count and each field as a
/// 32-bit length (-1 for NULL) and its bytes, all big-endian; a -1 count ends the data.
///
/// Binary rather than text: neither side formats or parses numbers (a double travels as its 8 bytes, so it
/// arrives exactly), and text needs no escaping. That halves the CPU of sending an export.
struct CopyBinaryWriter: ~Copyable {
    /// Raw memory rather than `[UInt8]`: appending a buffer to an array goes byte by byte, and this writes
    /// millions of fields.
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    static let signature: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]

    init(capacity: Int = 1 << 19) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// The bytes written so far, valid until the next change.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    mutating func removeAll() { count = 0 }

    /// The signature, no flags, no header extension.
    mutating func appendHeader() {
        Self.signature.withUnsafeBytes { appendRaw($0) }
        appendInteger(Int32(0))
        appendInteger(Int32(0))
    }

    mutating func appendTrailer() { appendInteger(Int16(-1)) }

    mutating func beginRow(fields: Int) { appendInteger(Int16(fields)) }

    mutating func appendNull() { appendInteger(Int32(-1)) }

    mutating func append(_ value: Int64) {
        appendInteger(Int32(8))
        appendInteger(value)
    }

    mutating func append(_ value: Double) {
        appendInteger(Int32(8))
        appendInteger(value.bitPattern)
    }

    /// A `text` (UTF-8) or `bytea` value.
    mutating func append(bytes value: UnsafeRawBufferPointer) {
        appendInteger(Int32(value.count))
        appendRaw(value)
    }

    mutating func append(text: String) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(capacity * 2, count + extra)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        grown.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    private mutating func appendRaw(_ value: UnsafeRawBufferPointer) {
        guard let base = value.baseAddress, !value.isEmpty else { return }
        reserve(value.count)
        (storage + count).copyMemory(from: base, byteCount: value.count)
        count += value.count
    }

    @inline(__always) private mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        (storage + count).storeBytes(of: value.bigEndian, as: T.self)
        count += MemoryLayout<T>.size
    }
}

/// Reads the rows of a binary `COPY … TO STDOUT`, one server message at a time (the server sends each row
/// in a message of its own; the header comes with the first).
struct CopyBinaryReader {
    private var headerRead = false
    private(set) var finished = false

    /// Calls `row` for each row in `message`, with a cursor over its fields.
    mutating func read(_ message: UnsafeRawBufferPointer, row: (inout Fields) throws -> Void) throws {
        var offset = 0
        if !headerRead {
            let signature = CopyBinaryWriter.signature
            guard message.count >= signature.count + 8, message.prefix(signature.count).elementsEqual(signature) else {
                throw PostgresError(message: "COPY data without the binary signature")
            }
            let extensionLength = Int(Self.int32(message, at: signature.count + 4))
            offset = signature.count + 8 + extensionLength
            headerRead = true
        }
        while offset < message.count {
            guard offset + 2 <= message.count else { throw PostgresError(message: "COPY data cut inside a row") }
            let count = Int(Int16(bitPattern: UInt16(message[offset]) << 8 | UInt16(message[offset + 1])))
            offset += 2
            if count == -1 {
                finished = true
                return
            }
            var fields = Fields(message: message, offset: offset, remaining: count)
            try row(&fields)
            try fields.skipRest()
            offset = fields.offset
        }
    }

    static func int32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        Int32(
            bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                | UInt32(bytes[offset + 3]))
    }

    /// The fields of one row, read in order.
    struct Fields {
        let message: UnsafeRawBufferPointer
        fileprivate(set) var offset: Int
        private(set) var remaining: Int

        fileprivate init(message: UnsafeRawBufferPointer, offset: Int, remaining: Int) {
            self.message = message
            self.offset = offset
            self.remaining = remaining
        }

        /// The next field's bytes (valid during the row's callback), nil for NULL.
        mutating func next() throws -> UnsafeRawBufferPointer? {
            guard remaining > 0, offset + 4 <= message.count else {
                throw PostgresError(message: "COPY row has fewer fields than expected")
            }
            remaining -= 1
            let length = Int(CopyBinaryReader.int32(message, at: offset))
            offset += 4
            if length < 0 { return nil }
            guard offset + length <= message.count else { throw PostgresError(message: "COPY field cut short") }
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: message[offset..<offset + length])
        }

        var fieldsLeft: Int { remaining }

        fileprivate mutating func skipRest() throws {
            while remaining > 0 { _ = try next() }
        }

        static func int64(_ field: UnsafeRawBufferPointer) throws -> Int64 {
            guard field.count == 8 else { throw PostgresError(message: "a bigint field of \(field.count) bytes") }
            return field.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }

        static func double(_ field: UnsafeRawBufferPointer) throws -> Double {
            guard field.count == 8 else { throw PostgresError(message: "a float8 field of \(field.count) bytes") }
            return Double(bitPattern: field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
    }
}
