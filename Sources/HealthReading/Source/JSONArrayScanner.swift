import HealthModel

/// Finds one array inside a JSON document (`data.stateOfMind`) and hands over each of its elements as raw
/// bytes, without holding the document: Health Auto Export files carry every metric and can be large, while
/// each State of Mind entry is a small object.
struct JSONArrayScanner {
    /// The key path of the wanted array, e.g. ["data", "stateOfMind"].
    let path: [String]
    private let stream: ByteStream
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var count = 0
    private var position = 0
    private(set) var line = 1
    /// Nesting deeper than this is refused: a hostile file must not exhaust the stack.
    static let maximumDepth = 128
    /// One element larger than this is refused (a real entry is well under a kilobyte).
    static let maximumElementSize = 1 << 20

    init(stream: ByteStream, path: [String]) {
        self.stream = stream
        self.path = path
    }

    /// Calls `body` with the bytes of each element of the array at `path`. Returns false if there is none.
    mutating func scan(_ body: ([UInt8]) throws -> Void) throws -> Bool {
        var found = false
        try value(at: [], depth: 0, found: &found, body)
        skipWhitespace()
        if try peek() != nil { throw error("unexpected text after the JSON document") }
        return found
    }

    private mutating func value(
        at current: [String], depth: Int, found: inout Bool, _ body: ([UInt8]) throws -> Void
    ) throws {
        guard depth < Self.maximumDepth else { throw error("JSON nested more than \(Self.maximumDepth) levels deep") }
        skipWhitespace()
        guard let byte = try peek() else { throw error("the JSON ends early") }
        switch byte {
        case UInt8(ascii: "{"):
            position += 1
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") {
                position += 1
                return
            }
            while true {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                guard try next() == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                try value(at: current + [key], depth: depth + 1, found: &found, body)
                skipWhitespace()
                let separator = try next()
                if separator == UInt8(ascii: "}") { return }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object") }
            }
        case UInt8(ascii: "["):
            position += 1
            let wanted = current == path
            if wanted { found = true }
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                if wanted {
                    skipWhitespace()
                    try body(try rawValue())
                } else {
                    try value(at: current, depth: depth + 1, found: &found, body)
                }
                skipWhitespace()
                let separator = try next()
                if separator == UInt8(ascii: "]") { return }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or ']' in an array") }
            }
        case UInt8(ascii: "\""):
            _ = try string()
        default:
            // A number or a literal: up to the next delimiter.
            while let byte = try peek(), !Self.isDelimiter(byte) { position += 1 }
        }
    }

    /// The bytes of one complete value, strings and nesting respected.
    private mutating func rawValue() throws -> [UInt8] {
        var raw: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        while let byte = try peek() {
            if !inString && depth == 0 && !raw.isEmpty && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")) {
                return raw
            }
            position += 1
            if byte == 0x0A { line += 1 }
            raw.append(byte)
            guard raw.count <= Self.maximumElementSize else { throw error("an array element is larger than 1 MB") }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
                guard depth < Self.maximumDepth else { throw error("JSON nested too deeply") }
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return raw }
            }
        }
        throw error("the JSON ends inside an array element")
    }

    /// A JSON string, decoded for keys (only simple escapes matter there; others are kept as written).
    private mutating func string() throws -> String {
        guard try next() == UInt8(ascii: "\"") else { throw error("expected a string") }
        var bytes: [UInt8] = []
        while let byte = try next() {
            if byte == UInt8(ascii: "\"") { return String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = try next() else { break }
                bytes.append(escaped == UInt8(ascii: "n") ? 0x0A : escaped == UInt8(ascii: "t") ? 0x09 : escaped)
            } else {
                bytes.append(byte)
            }
            guard bytes.count <= Self.maximumElementSize else { throw error("a string is larger than 1 MB") }
        }
        throw error("the JSON ends inside a string")
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
            || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private mutating func skipWhitespace() {
        while let byte = try? peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            if byte == 0x0A { line += 1 }
            position += 1
        }
    }

    private mutating func peek() throws -> UInt8? {
        if position == count {
            count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            position = 0
            if count == 0 { return nil }
        }
        return buffer[position]
    }

    private mutating func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        position += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    private func error(_ message: String) -> ImportError {
        ImportError(.input, message, line: line)
    }
}
