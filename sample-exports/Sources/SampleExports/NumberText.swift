#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The exporter's number formats, written straight into a byte buffer.
///
/// `%g` goes through the C library so rounding and exponent form match Apple's `stringWithFormat:` exactly
/// (`9.9854e-06`, `1.23457e+06`); integral values below 1e6 — most step counts and heart rates — take a fast path
/// that gives the same text.
enum NumberText {
    static func formatG(_ value: Double, into out: UnsafeMutablePointer<UInt8>) -> Int {
        if value == value.rounded(), abs(value) < 1e6, value != 0 || value.sign == .plus {
            return formatInt(Int(value), into: out)
        }
        return withVaList([value]) { args in
            out.withMemoryRebound(to: CChar.self, capacity: 32) { Int(vsnprintf($0, 32, "%g", args)) }
        }
    }

    static func formatF(_ value: Double, into out: UnsafeMutablePointer<UInt8>) -> Int {
        withVaList([value]) { args in
            out.withMemoryRebound(to: CChar.self, capacity: 64) { Int(vsnprintf($0, 64, "%f", args)) }
        }
    }

    static func formatInt(_ value: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &scratch) { raw in
            var index = 24
            repeat {
                index -= 1
                raw[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            var written = 0
            if value < 0 {
                out[0] = UInt8(ascii: "-")
                written = 1
            }
            for position in index..<24 {
                out[written] = raw[position]
                written += 1
            }
            return written
        }
    }

    /// `%g` as a String (for metadata values such as `"418 cm"`; not for hot paths).
    static func g(_ value: Double) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let length = buffer.withUnsafeMutableBufferPointer { formatG(value, into: $0.baseAddress!) }
        return String(decoding: buffer[0..<length], as: UTF8.self)
    }

    /// `[NSNumber description]` of a double: the shortest text that round-trips, without a trailing `.0` for
    /// integral values (`88.23378186623255`, `48.74499999999999`, `30`). Used for workout durations and totals.
    static func nsNumber(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        return value.description
    }

    /// Fixed decimals with a chosen separator (ECG CSV samples, HRV beat seconds). Not `%g`.
    static func fixed(_ value: Double, decimals: Int, separator: Character = ".") -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(scaled % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole)\(separator)\(fraction)"
    }

    /// Up to `decimals`, trailing zeros dropped (`-107.825`, `-47.36`, `34.393`): the ECG CSV look.
    static func trimmed(_ value: Double, decimals: Int, separator: Character = ".") -> String {
        var text = fixed(value, decimals: decimals, separator: separator)
        if text.contains(separator) {
            while text.hasSuffix("0") { text.removeLast() }
            if text.last == separator { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    static func hex(_ value: UInt64) -> String {
        String(value, radix: 16)
    }
}
