/// Decimal text of REAL values: the shortest digits that read back to the same Double, laid out without an
/// exponent for every magnitude a health value can have.
///
/// `Double.description` already finds the shortest round-trip digits but switches to exponent notation below
/// 1e-4 and from 2^53 (`1e-05`, `1.2345678e+16`) and writes `70.0` for whole numbers. Spreadsheets and most
/// CSV readers accept exponents, but people reading the file do not expect them, so the digits are taken from
/// `description` and placed positionally here. Exponent form remains only where positional text would be
/// absurdly long: |x| ≥ 1e21 or |x| < 1e-15 (`1.5e+21`, `1e-16`, which Python, Excel and Swift all read).
/// NaN and ±infinity have no CSV form and are written as an empty field (SQLite stores them as NULL anyway).
public enum CSVNumberFormatting {
    /// Enough for the longest form: `-0.` + 14 zeros + 17 digits.
    public static let maximumLength = 40

    /// Writes `value` into `out` (at least `maximumLength` bytes) and returns the number of bytes; 0 for NaN
    /// and infinity.
    public static func write(_ value: Double, into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else { return 0 }
        var length = 0
        // The sign is kept for -0.0 too, so the text reads back bit for bit.
        if value.sign == .minus {
            out[0] = UInt8(ascii: "-")
            length = 1
        }
        let magnitude = value.magnitude
        // Whole numbers below 2^53 (counts, steps, most heart rates): exact as an integer, and the common case.
        if magnitude < 9_007_199_254_740_992, magnitude.rounded(.towardZero) == magnitude {
            return length + writeInteger(UInt64(magnitude), into: out + length)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            let (count, point) = shortestDigits(of: magnitude, into: digits.baseAddress!)
            return length + layOut(digits.baseAddress!, count: count, point: point, into: out + length)
        }
    }

    public static func string(_ value: Double) -> String {
        String(unsafeUninitializedCapacity: maximumLength) { write(value, into: $0.baseAddress!) }
    }

    /// Decimal digits of `value` without a sign, returning the byte count.
    @inline(__always)
    static func writeInteger(_ value: UInt64, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var remaining = value
        var count = 0
        repeat {
            out[count] = UInt8(48 + remaining % 10)
            remaining /= 10
            count += 1
        } while remaining > 0
        var low = 0
        var high = count - 1
        while low < high {
            (out[low], out[high]) = (out[high], out[low])
            low += 1
            high -= 1
        }
        return count
    }

    /// The significant digits of a positive finite `value` (no leading or trailing zeros) and the position of
    /// the decimal point relative to the first digit: value = 0.d1d2d3… × 10^point.
    static func shortestDigits(of value: Double, into digits: UnsafeMutablePointer<UInt8>) -> (count: Int, point: Int) {
        var count = 0
        var integerDigits: Int?
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        // `description` is `123.456`, `0.001`, `1.5e-05` or `1e+16`: digits, an optional point, an optional exponent.
        for byte in value.description.utf8 {
            switch byte {
            case UInt8(ascii: "e"): inExponent = true
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): integerDigits = count
            default:
                if inExponent {
                    exponent = exponent * 10 + Int(byte - 48)
                } else {
                    digits[count] = byte
                    count += 1
                }
            }
        }
        var point = (integerDigits ?? count) + exponentSign * exponent
        var first = 0
        while first < count - 1, digits[first] == UInt8(ascii: "0") {
            first += 1
            point -= 1
        }
        var end = count
        while end > first + 1, digits[end - 1] == UInt8(ascii: "0") { end -= 1 }
        if first > 0 {
            for index in first..<end { digits[index - first] = digits[index] }
        }
        return (end - first, point)
    }

    /// Positional text for -14 ≤ point ≤ 21 (1e-15 ≤ value < 1e21), exponent text outside.
    static func layOut(_ digits: UnsafePointer<UInt8>, count: Int, point: Int, into out: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        var length = 0
        func put(_ byte: UInt8) {
            out[length] = byte
            length += 1
        }
        if point < -14 || point > 21 {
            put(digits[0])
            if count > 1 {
                put(UInt8(ascii: "."))
                for index in 1..<count { put(digits[index]) }
            }
            put(UInt8(ascii: "e"))
            let exponent = point - 1
            put(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            return length + writeInteger(UInt64(abs(exponent)), into: out + length)
        }
        if point <= 0 {
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "."))
            for _ in 0 ..< -point { put(UInt8(ascii: "0")) }
            for index in 0..<count { put(digits[index]) }
        } else {
            for index in 0..<max(count, point) {
                if index == point { put(UInt8(ascii: ".")) }
                put(index < count ? digits[index] : UInt8(ascii: "0"))
            }
        }
        return length
    }
}
