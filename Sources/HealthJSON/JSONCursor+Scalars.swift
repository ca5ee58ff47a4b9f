/// The grammar's scalars: strings with their escapes, numbers, and `true`, `false`, `null`.
extension JSONCursor {
    package enum Scalar: Equatable, Sendable {
        case string
        case number(isInteger: Bool)
        case bool(Bool)
        case null
    }

    /// The scalar at the cursor, its text appended to `text` when `keep` (a string decoded, a number or a word
    /// as written). Anything else (a container too: the caller looks for those first) is an error here.
    package mutating func scalar(into text: inout [UInt8], keep: Bool = true, maximumLength: Int = .max) throws
        -> Scalar
    {
        guard let byte = try peek() else { throw error("unexpected end of the text") }
        switch byte {
        case UInt8(ascii: "\""):
            try string(into: &text, keep: keep, maximumLength: maximumLength)
            return .string
        case UInt8(ascii: "t"): return try word("true", .bool(true), into: &text, keep: keep)
        case UInt8(ascii: "f"): return try word("false", .bool(false), into: &text, keep: keep)
        case UInt8(ascii: "n"): return try word("null", .null, into: &text, keep: keep)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(isInteger: try number(into: &text, keep: keep))
        default: throw error("unexpected character")
        }
    }

    private mutating func word(_ word: StaticString, _ scalar: Scalar, into text: inout [UInt8], keep: Bool) throws
        -> Scalar
    {
        let start = mark
        for index in 0..<word.utf8CodeUnitCount {
            guard try peek() == word.utf8Start[index] else { throw Self.error("unexpected character", at: start) }
            position += 1
        }
        if keep { text.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)) }
        return scalar
    }

    /// A number by the grammar (no `+`, no leading zeros, digits on both sides of the point); true when it has
    /// neither a fraction nor an exponent.
    private mutating func number(into text: inout [UInt8], keep: Bool) throws -> Bool {
        var isInteger = true
        if try peek() == UInt8(ascii: "-") { take(UInt8(ascii: "-"), into: &text, keep) }
        let (integerDigits, first) = try digits(into: &text, keep)
        guard integerDigits > 0 else { throw error("invalid number") }
        if integerDigits > 1, first == UInt8(ascii: "0") { throw error("invalid number (leading 0)") }
        if try peek() == UInt8(ascii: ".") {
            isInteger = false
            take(UInt8(ascii: "."), into: &text, keep)
            guard try digits(into: &text, keep).count > 0 else { throw error("invalid number") }
        }
        if let byte = try peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            take(byte, into: &text, keep)
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                take(sign, into: &text, keep)
            }
            guard try digits(into: &text, keep).count > 0 else { throw error("invalid number") }
        }
        return isInteger
    }

    private mutating func digits(into text: inout [UInt8], _ keep: Bool) throws -> (count: Int, first: UInt8?) {
        var count = 0
        var first: UInt8?
        while let byte = try peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            if count == 0 { first = byte }
            take(byte, into: &text, keep)
            count += 1
        }
        return (count, first)
    }

    @inline(__always) private mutating func take(_ byte: UInt8, into text: inout [UInt8], _ keep: Bool) {
        if keep { text.append(byte) }
        position += 1
    }

    /// The string at the cursor (its opening quote), decoded into `text` when `keep`. Raw bytes are copied as
    /// they are, runs at a time: UTF-8 validity is the caller's to check (or to repair).
    package mutating func string(into text: inout [UInt8], keep: Bool = true, maximumLength: Int = .max) throws {
        position += 1  // the opening quote
        let start = text.count
        while true {
            if position == end, try !fill() { throw error("unterminated string") }
            var index = position
            var continuation = 0
            let end = self.end
            buffer.withUnsafeBufferPointer { window in
                while index < end {
                    let byte = window[index]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                    if byte & 0xC0 == 0x80 { continuation += 1 }
                    index += 1
                }
            }
            if keep { text.append(contentsOf: buffer[position..<index]) }
            continuationBytes += continuation
            position = index
            if text.count - start > maximumLength {
                throw error("a string longer than \(Self.size(maximumLength))", .tooLarge)
            }
            guard index < end else { continue }
            switch buffer[index] {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &text, keep: keep)
            default: throw error("control character in a string")
            }
        }
    }

    /// The escape after a `\`.
    private mutating func escape(into text: inout [UInt8], keep: Bool) throws {
        guard let byte = try peek() else { throw error("unterminated escape") }
        position += 1
        let decoded: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = byte
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            try unicodeEscape(into: &text, keep: keep)
            return
        default: throw error("invalid escape")
        }
        if keep { text.append(decoded) }
    }

    /// `\uXXXX`: a high surrogate must be followed by a low one, together one scalar; anything else that is not
    /// a scalar (a lone surrogate) is U+FFFD.
    private mutating func unicodeEscape(into text: inout [UInt8], keep: Bool) throws {
        let first = try hex4()
        var scalar = Unicode.Scalar(first)
        if (0xD800..<0xDC00).contains(first), try peek() == UInt8(ascii: "\\") {
            position += 1
            guard try peek() == UInt8(ascii: "u") else {
                // Not a pair: the replacement character, then this other escape as it is.
                if keep { Self.append("\u{FFFD}", to: &text) }
                try escape(into: &text, keep: keep)
                return
            }
            position += 1
            let second = try hex4()
            scalar =
                (0xDC00..<0xE000).contains(second)
                ? Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) : nil
        }
        if keep { Self.append(scalar ?? "\u{FFFD}", to: &text) }
    }

    private mutating func hex4() throws -> UInt32 {
        let start = mark
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek() else { throw Self.error("unterminated \\u escape", at: start) }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private static func append(_ scalar: Unicode.Scalar, to text: inout [UInt8]) {
        text.append(contentsOf: String(Character(scalar)).utf8)
    }
}
