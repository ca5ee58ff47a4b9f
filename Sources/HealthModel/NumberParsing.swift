import Foundation

/// Numbers as the export prints them: C `%g` (`56.1244`, `9.9854e-06`, `1.2e+06`) or NSNumber descriptions
/// at full precision (`88.23378186623255`).
public enum NumberParsing {
    /// Parses a plain decimal number with optional exponent; nil for anything else (including `nan`, `inf`
    /// and hex floats, which strtod would accept). Uses strtod for correct rounding.
    public static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count > 0, count < 64, let base = bytes.baseAddress else { return nil }
        if let exact = parseExactly(base, count) { return exact }
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

    /// A number written with the user's locale (`64`, `-265,868`): a comma is the decimal separator.
    public static func parseLocalizedDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count < 64, bytes.contains(UInt8(ascii: ",")) else { return parseDouble(bytes) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer -> Double? in
            for index in 0..<bytes.count {
                buffer[index] = bytes[index] == UInt8(ascii: ",") ? UInt8(ascii: ".") : bytes[index]
            }
            return parseDouble(UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
        }
    }

    /// Clinger's fast path: when the digits form an integer below 2^53 and the decimal exponent is small,
    /// `digits × 10^e` or `digits / 10^-e` is one correctly rounded operation on exact operands, so the result
    /// equals strtod's. That covers nearly every `%g` value; anything else returns nil and goes to strtod.
    @inline(__always)
    package static func parseExactly(_ base: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var index = 0
        var negative = false
        if base[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDot = false
        var sawDigit = false
        while index < count {
            let byte = base[index]
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
                if digits >= 15 { return nil }
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                if mantissa > 0 { digits += 1 }
                if sawDot { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !sawDot {
                sawDot = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { return nil }
        if index < count {
            guard base[index] | 0x20 == UInt8(ascii: "e"), index + 1 < count else { return nil }
            index += 1
            var exponentNegative = false
            if base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < count, base[index] >= 0x30, base[index] <= 0x39, exponentDigits < 4 {
                written = written * 10 + Int(base[index] - 0x30)
                index += 1
                exponentDigits += 1
            }
            guard exponentDigits > 0, index == count else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == count, index > (negative ? 1 : 0), exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...22).map { Double("1e\($0)")! }

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
