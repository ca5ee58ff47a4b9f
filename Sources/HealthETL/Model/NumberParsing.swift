import Foundation

/// Numbers as the export prints them: C `%g` (`56.1244`, `9.9854e-06`, `1.2e+06`) or NSNumber descriptions
/// at full precision (`88.23378186623255`).
public enum NumberParsing {
    /// Parses a plain decimal number with optional exponent; nil for anything else (including `nan`, `inf`
    /// and hex floats, which strtod would accept). Uses strtod for correct rounding.
    public static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count > 0, count < 64, let base = bytes.baseAddress else { return nil }
        var sawDigit = false
        for index in 0..<count {
            let byte = base[index]
            switch byte {
            case 0x30...0x39: sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): break
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
            // swift-format-ignore: NeverForceUnwrap
            let start = buffer.baseAddress!
            UnsafeMutableRawPointer(start).copyMemory(from: base, byteCount: count)
            start[count] = 0
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(start, &end)
            guard end == start + count, value.isFinite else { return nil }
            return value
        }
    }

    public static func parseDouble(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { parseDouble($0) }
    }

    /// A number written with the user's locale: `,` or `.` as the decimal separator (ECG samples, HRV beats).
    public static func parseLocalizedDouble(_ text: Substring) -> Double? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\""))
        return parseDouble(trimmed.replacingOccurrences(of: ",", with: "."))
    }
}

