/// A strict JSON parser (RFC 8259) for one protocol message: the whole text must be one value. Hand-written
/// because the messages are small and the server must tell a parse error (-32700) from a valid message of the
/// wrong shape, keep integers as integers, and never trust the sender's nesting depth.
///
/// The same rules, without building anything, check a whole file's grammar (`check`, what `JSONGrammar` runs
/// for FHIR files): one grammar for all JSON held in memory.
package struct JSONParser {
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package var message: String
        package var offset: Int
        package var description: String { "\(message) at byte \(offset)" }

        package init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    /// Deeper nesting is refused (a message of a million `[` would otherwise exhaust the stack).
    package static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// False when only checking: strings, numbers and containers are read by the same rules and dropped
    /// (`.null` stands for every value), and UTF-8 is left to the caller.
    private let building: Bool
    private let maximumDepth: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>, building: Bool, maximumDepth: Int) {
        self.bytes = bytes
        self.building = building
        self.maximumDepth = maximumDepth
    }

    package static func parse(_ text: some Collection<UInt8>) throws(Failure) -> JSON {
        let result: Result<JSON, Failure> = Array(text).withUnsafeBufferPointer { bytes in
            var parser = JSONParser(bytes, building: true, maximumDepth: maximumDepth)
            do throws(Failure) {
                return .success(try parser.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The first grammar error of `bytes` read as one JSON value nested at most `maximumDepth` deep, nil when
    /// there is none. Nothing is built and nothing allocated; invalid UTF-8 inside strings is not looked for
    /// (the caller decodes the text).
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Failure? {
        var parser = JSONParser(bytes, building: false, maximumDepth: maximumDepth)
        do throws(Failure) {
            _ = try parser.document()
            return nil
        } catch {
            return error
        }
    }

    private mutating func document() throws(Failure) -> JSON {
        skipWhitespace()
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    package static func parse(_ text: String) throws(Failure) -> JSON { try parse(Array(text.utf8)) }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSON {
        guard depth < maximumDepth else { throw failure("nested deeper than \(maximumDepth) levels") }
        guard index < bytes.count else { throw failure("unexpected end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSON) throws(Failure) -> JSON {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("unexpected character") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("unexpected character")
        }
        index += count
        return value
    }

    private mutating func object(depth: Int) throws(Failure) -> JSON {
        index += 1
        var members: [(String, JSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            let member = try value(depth: depth + 1)
            if building { members.append((key, member)) }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSON {
        index += 1
        var values: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            let element = try value(depth: depth + 1)
            if building { values.append(element) }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var start = index
        func flush(_ end: Int) throws(Failure) {
            guard building, start < end else { return }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw Failure(message: "invalid UTF-8 in a string", offset: start)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return building ? String(scalars) : ""
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                try flush(index)
                index += 1
                let scalar = try escape()
                if building { scalars.append(scalar) }
                start = index
                continue
            }
            index += 1
        }
        throw failure("unterminated string")
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard index < bytes.count else { throw failure("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first) {
                // A high surrogate must be followed by a low one: together they are one scalar.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return "\u{FFFD}" }
                index += 2
                let second = try hex4()
                guard (0xDC00..<0xE000).contains(second) else { return "\u{FFFD}" }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        default: throw failure("invalid escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(Failure) -> JSON {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("invalid number") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw failure("invalid number (leading 0)") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits() > 0 else { throw failure("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw failure("invalid number") }
        }
        guard building else { return .null }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else { throw Failure(message: "invalid number", offset: start) }
        return .number(double)
    }
}
