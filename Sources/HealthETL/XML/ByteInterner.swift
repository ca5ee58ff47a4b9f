import Glibc

/// Turns attribute bytes into `String`s without allocating when the same text came recently.
///
/// Exports are grouped by type, so the type, source, unit and device of one record are almost always those
/// of the record before; a small ring of recent values, compared with memcmp, catches nearly every lookup.
struct ByteInterner {
    private var keys: [[UInt8]]
    private var values: [String]
    private var filled = 0
    private var next = 0
    private let transform: (XMLBytes) -> String

    init(capacity: Int = 16, transform: @escaping (XMLBytes) -> String = XMLText.decode) {
        keys = Array(repeating: [], count: capacity)
        values = Array(repeating: "", count: capacity)
        self.transform = transform
    }

    mutating func string(_ bytes: XMLBytes) -> String {
        let count = bytes.count
        for index in 0..<filled where keys[index].count == count {
            let equal = keys[index].withUnsafeBufferPointer { stored in
                count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, count) == 0
            }
            if equal { return values[index] }
        }
        let value = transform(bytes)
        keys[next] = Array(bytes)
        values[next] = value
        next = (next + 1) % keys.count
        filled = max(filled, next == 0 ? keys.count : next)
        return value
    }
}

/// Text of attribute values.
enum XMLText {
    /// Decodes UTF-8 and undoes libxml2's `&#38;` quirk: without entity substitution (which we never turn on),
    /// libxml2 hands `&amp;` over as the literal text `&#38;`. A literal `&#38;` in the file arrives as
    /// `&#38;#38;`, so replacing every `&#38;` with `&` is exact.
    static func decode(_ bytes: XMLBytes) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        let pattern: [UInt8] = Array("&#38;".utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + 5 <= bytes.count,
                bytes[index..<(index + 5)].elementsEqual(pattern)
            {
                output.append(UInt8(ascii: "&"))
                index += 5
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
