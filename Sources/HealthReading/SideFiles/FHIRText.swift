import Foundation
import HealthJSON
import HealthModel

/// A FHIR resource file as JSON text in UTF-8, checked without building its objects.
///
/// `JSONSerialization` was used to check a resource: it builds an object for every value, ~30 times the
/// file's size (a 60 MB file of small objects took 2 GB). This checks the grammar of RFC 8259 in one pass over
/// the bytes, with no allocation, so a resource costs its text and nothing more.
enum FHIRText {
    /// The file's text in UTF-8, and whether it had to be re-encoded from UTF-16 or UTF-32 (JSON allows
    /// them; read as UTF-8 they are full of NULs); nil when it is not JSON.
    static func utf8JSON(_ bytes: [UInt8]) -> (text: String, reencoded: Bool)? {
        if let encoding = wideEncoding(bytes) {
            guard var utf8 = String(bytes: bytes, encoding: encoding) else { return nil }
            if utf8.hasPrefix("\u{FEFF}") { utf8.removeFirst() }  // the byte order mark, when decoding kept it
            let valid = utf8.withUTF8 { JSONGrammar.isValid(withoutByteOrderMark($0)) }
            return valid ? (utf8, true) : nil
        }
        let valid = bytes.withUnsafeBufferPointer { JSONGrammar.isValid(withoutByteOrderMark($0)) }
        guard valid, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return (text, false)
    }

    /// UTF-16 or UTF-32, by byte order mark or else by where the NULs of the first two characters are
    /// (RFC 4627 §3: JSON text starts with two ASCII characters); nil for UTF-8.
    private static func wideEncoding(_ bytes: [UInt8]) -> String.Encoding? {
        guard bytes.count >= 2 else { return nil }
        let (a, b) = (bytes[0], bytes[1])
        // Past the end of a short file: bytes that are neither NUL nor a mark.
        let (c, d) = bytes.count >= 4 ? (bytes[2], bytes[3]) : (0x20, 0x20)
        if (a, b, c, d) == (0xFF, 0xFE, 0, 0) || (a, b, c, d) == (0, 0, 0xFE, 0xFF) { return .utf32 }
        if (a, b) == (0xFF, 0xFE) || (a, b) == (0xFE, 0xFF) { return .utf16 }
        if a == 0, b == 0, c == 0, d != 0 { return .utf32BigEndian }
        if a != 0, b == 0, c == 0, d == 0 { return .utf32LittleEndian }
        if a == 0, b != 0 { return .utf16BigEndian }
        if a != 0, b == 0 { return .utf16LittleEndian }
        return nil
    }

    private static func withoutByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[3...])
    }
}
