/// The JSON grammar (RFC 8259) checked over bytes: one object or array (as `JSONSerialization` wants it) with
/// optional whitespace around it, strings
/// without raw control characters and with valid escapes, numbers in JSON's form, `true`, `false`, `null`.
/// UTF-8 validity is left to the caller (`String(validating:)`). Nesting deeper than `maximumDepth` counts as
/// invalid: no real document nests that deep, and the check keeps one bit per level.
package enum JSONGrammar {
    package static let maximumDepth = 512

    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = Scanner(bytes: bytes)
        return scanner.document()
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// One bit per open container: set for an object, clear for an array.
        var objects = [UInt64](repeating: 0, count: (JSONGrammar.maximumDepth + 63) / 64)
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func document() -> Bool {
            skipWhitespace()
            guard current == UInt8(ascii: "{") || current == UInt8(ascii: "["), value() else { return false }
            skipWhitespace()
            return index == bytes.count
        }

        /// One value, iteratively: containers push a bit instead of recursing.
        mutating func value() -> Bool {
            while true {
                skipWhitespace()
                guard let byte = current else { return false }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth < JSONGrammar.maximumDepth else { return false }  // an empty one counts too
                    let isObject = byte == UInt8(ascii: "{")
                    index += 1
                    skipWhitespace()
                    if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                    } else {
                        guard push(isObject) else { return false }
                        if isObject { guard key() else { return false } }
                        continue  // the first member's value
                    }
                case UInt8(ascii: "\""):
                    guard string() else { return false }
                case UInt8(ascii: "t"): guard literal("true") else { return false }
                case UInt8(ascii: "f"): guard literal("false") else { return false }
                case UInt8(ascii: "n"): guard literal("null") else { return false }
                default: guard number() else { return false }
                }
                // A value is complete: close containers or go on to the next member.
                while depth > 0 {
                    skipWhitespace()
                    let isObject = objects[(depth - 1) / 64] & (1 << UInt64((depth - 1) % 64)) != 0
                    guard let separator = current else { return false }
                    index += 1
                    if separator == UInt8(ascii: ",") {
                        if isObject { guard key() else { return false } }
                        break
                    }
                    guard separator == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                    depth -= 1
                }
                if depth == 0 { return true }
            }
        }

        mutating func push(_ isObject: Bool) -> Bool {
            guard depth < JSONGrammar.maximumDepth else { return false }
            let (word, bit) = (depth / 64, UInt64(depth % 64))
            if isObject { objects[word] |= 1 << bit } else { objects[word] &= ~(1 << bit) }
            depth += 1
            return true
        }

        /// A member's key and its colon.
        mutating func key() -> Bool {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), string() else { return false }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return false }
            index += 1
            return true
        }

        mutating func string() -> Bool {
            index += 1  // the opening quote
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return false }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let hex = current, hex.isHexDigit else { return false }
                            index += 1
                        }
                    default: return false
                    }
                case 0..<0x20: return false
                default: continue
                }
            }
            return false
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, first.isDigit else { return false }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard current?.isDigit == true else { return false }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard current?.isDigit == true else { return false }
                skipDigits()
            }
            return true
        }

        mutating func skipDigits() { while current?.isDigit == true { index += 1 } }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= 0x30 && self <= 0x39 }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
