import Glibc
import HealthModel

/// Turns attribute bytes into `String`s without allocating when the same text came recently.
///
/// Exports are grouped by type, so the type, source, unit and device of one record are almost always those
/// of the record before; a small ring of recent values, compared with memcmp, catches nearly every lookup.
final class ByteInterner {
    private struct Entry {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count: Int
        var value: String
    }

    // Raw storage: array-of-array keys would retain and release on every comparison.
    private var entries: UnsafeMutablePointer<Entry>
    private let capacity: Int
    private var filled = 0
    private var next = 0
    private let transform: (XMLBytes) -> String

    init(capacity: Int = 16, transform: @escaping (XMLBytes) -> String = XMLText.decode) {
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
        self.transform = transform
    }

    deinit {
        for index in 0..<filled { entries[index].bytes?.deallocate() }
        entries.deinitialize(count: filled)
        entries.deallocate()
    }

    func string(_ bytes: XMLBytes) -> String {
        let count = bytes.count
        for index in 0..<filled where entries[index].count == count {
            if count == 0 { return entries[index].value }
            // swift-format-ignore: NeverForceUnwrap
            if memcmp(entries[index].bytes!, bytes.baseAddress!, count) == 0 { return entries[index].value }
        }
        let value = transform(bytes)
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        if count > 0 {
            // swift-format-ignore: NeverForceUnwrap
            copy.initialize(from: bytes.baseAddress!, count: count)
        }
        if next < filled {
            entries[next].bytes?.deallocate()
            entries[next] = Entry(bytes: copy, count: count, value: value)
        } else {
            (entries + next).initialize(to: Entry(bytes: copy, count: count, value: value))
            filled += 1
        }
        next = (next + 1) % capacity
        return value
    }
}

/// Text of attribute values.
enum XMLText {
    /// Decodes UTF-8 and undoes libxml2's `&#38;` quirk: without entity substitution (which we never turn on),
    /// libxml2 hands `&amp;` over as the literal text `&#38;`. A literal `&#38;` in the file arrives as
    /// `&#38;#38;`, so replacing every `&#38;` with `&` is exact.
    static func decode(_ bytes: XMLBytes) -> String {
        withDecoded(bytes) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the decoded bytes: `bytes` themselves when they hold no `&` (nearly always).
    static func withDecoded<Result>(_ bytes: XMLBytes, _ body: (XMLBytes) -> Result) -> Result {
        guard bytes.contains(UInt8(ascii: "&")) else { return body(bytes) }
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
        return output.withUnsafeBufferPointer(body)
    }

    /// The id of the decoded text in `texts` (a vocabulary's types, units, keys or category values).
    static func intern(_ bytes: XMLBytes, in texts: inout InternedTexts) -> UInt32 {
        withDecoded(bytes) { texts.id($0) }
    }
}
