import Glibc

/// Rewrites `device="&lt;&lt;HKDevice: 0x…&gt;, name:…, software:…&gt;"` as
/// `device="            name:…, software:…"` — the same length, the same fields.
///
/// Why: libxml2 parses an attribute value on a fast path only while it sees no `&`; one entity sends the
/// whole value through its character-by-character path. Nearly every record carries a device, so the
/// escaped angle brackets around it cost a quarter of the parser's time (measured: decoding a 1.2 GB
/// export took 6.9 s of CPU as exported, 5.1 s rewritten). The brackets and the `0x…` address carry nothing
/// (the address changes on every record and is dropped anyway), so they become leading spaces, which the
/// device parser skips. The length is kept, so every line and column number stays that of the file.
///
/// Only a value matching that exact shape and lying wholly inside one chunk is rewritten; anything else is
/// left for libxml2 to parse as written, which is always correct, just slower.
enum DeviceAttributeRewrite {
    private static let opening = Array(#"device="&lt;&lt;HKDevice: 0x"#.utf8)
    private static let addressEnd = Array("&gt;, ".utf8)
    private static let closing = Array(#"&gt;""#.utf8)

    static func apply(_ chunk: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = chunk.baseAddress, chunk.count > opening.count else { return }
        // `&` is rare in an export except in these values, so memchr for it finds candidates quickly.
        var offset = 8
        while offset < chunk.count {
            guard let found = memchr(base + offset, Int32(UInt8(ascii: "&")), chunk.count - offset) else { return }
            let ampersand = found.assumingMemoryBound(to: UInt8.self) - base
            offset = ampersand + 1
            let start = ampersand - 8  // where `device="` would begin
            if matches(opening, base, chunk.count, at: start) {
                offset = max(offset, rewrite(base, count: chunk.count, at: start))
            }
        }
    }

    /// Rewrites the value whose `device="` starts at `start`, if it has the expected shape; returns where
    /// scanning may go on.
    private static func rewrite(_ base: UnsafeMutablePointer<UInt8>, count: Int, at start: Int) -> Int {
        let valueStart = start + 8  // after device="
        var index = start + opening.count
        while index < count, isHexDigit(base[index]) { index += 1 }
        guard index > start + opening.count, matches(addressEnd, base, count, at: index) else { return start + 1 }
        let fieldsStart = index + addressEnd.count
        // The closing quote: inside a value a quote is always escaped, so the first one ends it.
        guard let found = memchr(base + fieldsStart, Int32(UInt8(ascii: "\"")), count - fieldsStart) else {
            return start + 1
        }
        let quote = found.assumingMemoryBound(to: UInt8.self) - base
        guard quote - fieldsStart >= closing.count - 1, matches(closing, base, count, at: quote - 4) else {
            return start + 1
        }
        let fieldsEnd = quote - 4
        let fieldsLength = fieldsEnd - fieldsStart
        guard fieldsLength > 0 else { return start + 1 }
        // Move the fields to the end of the value, then blank what is before them.
        let valueEnd = quote
        memmove(base + valueEnd - fieldsLength, base + fieldsStart, fieldsLength)
        memset(base + valueStart, Int32(UInt8(ascii: " ")), valueEnd - fieldsLength - valueStart)
        return quote
    }

    private static func matches(_ pattern: [UInt8], _ base: UnsafeMutablePointer<UInt8>, _ count: Int, at index: Int)
        -> Bool
    {
        guard index >= 0, index + pattern.count <= count else { return false }
        return memcmp(base + index, pattern, pattern.count) == 0
    }

    @inline(__always) private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }
}
