/// PostgreSQL's COPY text format: one row per line, fields separated by tabs, `\N` for NULL, and backslash
/// escapes for backslash, tab, newline and carriage return inside values.
///
/// Written by hand rather than through a `String` per value: publishing an export sends millions of rows.
struct CopyTextBuffer {
    private var bytes: [UInt8] = []
    private var fieldsInRow = 0

    init() { bytes.reserveCapacity(1 << 19) }

    var count: Int { bytes.count }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(9) }
        fieldsInRow += 1
    }

    mutating func endRow() {
        bytes.append(10)
        fieldsInRow = 0
    }

    mutating func appendNull() {
        separate()
        bytes.append(92)
        bytes.append(78)
    }

    mutating func append(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(45) }
        var magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(48 + magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// Shortest text that reads back as the same double (Swift's `description`); PostgreSQL (12 and later)
    /// stores and prints float8 exactly the same way.
    mutating func append(_ value: Double) {
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func appendText(_ text: UnsafeRawBufferPointer) {
        separate()
        for byte in text {
            switch byte {
            case 92: bytes.append(92); bytes.append(92)
            case 9: bytes.append(92); bytes.append(116)
            case 10: bytes.append(92); bytes.append(110)
            case 13: bytes.append(92); bytes.append(114)
            default: bytes.append(byte)
            }
        }
    }

    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendText(UnsafeRawBufferPointer($0)) }
    }

    /// A `bytea` value in hex form (`\x0a1b`), its backslash escaped for COPY.
    mutating func appendBytea(_ data: UnsafeRawBufferPointer) {
        separate()
        bytes.append(92)
        bytes.append(92)
        bytes.append(120)
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in data {
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 15)])
        }
    }
}

enum CopyText {
    /// Undoes COPY's backslash escapes in one field (`\\`, `\t`, `\n`, `\r`, and the rarer ones PostgreSQL may
    /// write).
    static func unescape(_ field: UnsafeRawBufferPointer, into result: inout [UInt8]) {
        var index = 0
        while index < field.count {
            let byte = field[index]
            index += 1
            guard byte == 92, index < field.count else {
                result.append(byte)
                continue
            }
            let escaped = field[index]
            index += 1
            switch escaped {
            case 110: result.append(10)
            case 116: result.append(9)
            case 114: result.append(13)
            case 98: result.append(8)
            case 102: result.append(12)
            case 118: result.append(11)
            default: result.append(escaped)  // `\\`, and any other escaped character, stand for themselves
            }
        }
    }

    /// The bytes of a `bytea` field in hex output form (`\x0a1b`, already unescaped from COPY).
    static func byteaBytes(_ field: [UInt8]) -> [UInt8]? {
        guard field.count >= 2, field[0] == 92, field[1] == 120, field.count % 2 == 0 else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: return byte - 48
            case 97...102: return byte - 87
            case 65...70: return byte - 55
            default: return nil
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity((field.count - 2) / 2)
        var index = 2
        while index < field.count {
            guard let high = nibble(field[index]), let low = nibble(field[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }
}
