import HealthModel

/// Streams the arrays of a JSON document without holding it: Health Auto Export files carry every metric in one
/// document and run to hundreds of megabytes (a year of per-minute points), while each element is small.
///
/// Two ways to use it: `scan` hands over each element of one array (`data.stateOfMind`) as raw bytes; `walk`
/// lets a `JSONScanVisitor` choose, array by array, to descend, take elements as raw bytes, or take them as flat
/// objects (`JSONFlatObject`: a point's `date`, `qty`, `source`, parsed without building a dictionary). Errors
/// name the line and column, and the document must be well formed to its end.
struct JSONArrayScanner {
    /// The key path of the array `scan` wants, e.g. ["data", "stateOfMind"].
    let path: [String]
    private let stream: ByteStream
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var count = 0
    private var position = 0
    /// Bytes of the document before `buffer`, and the offset where the current line starts (for columns).
    private var consumedBefore = 0
    private var lineStart = 0
    private(set) var line = 1
    /// Nesting deeper than this is refused: a hostile file must not exhaust the stack.
    static let maximumDepth = 128
    /// One raw element larger than this is refused (a State of Mind entry is well under a kilobyte; a workout
    /// with its heart-rate series and route can run to megabytes).
    var maximumElementSize = 1 << 20
    private var visitor: (any JSONScanVisitor)?
    private var flat = JSONFlatObject()

    init(stream: ByteStream, path: [String] = []) {
        self.stream = stream
        self.path = path
    }

    /// The column (1-based, in bytes) of the next byte.
    var column: Int { consumedBefore + position - lineStart + 1 }

    /// Calls `body` with the bytes of each element of the array at `path`. Returns false if there is none.
    mutating func scan(_ body: ([UInt8]) throws -> Void) throws -> Bool {
        let collector = RawCollector(path: path, body: { _ in })
        try withoutActuallyEscaping(body) { escapable in
            collector.body = escapable
            defer { collector.body = { _ in } }  // let go of it before withoutActuallyEscaping checks
            try walk(collector)
        }
        return collector.found
    }

    /// Reads the whole document, telling `visitor` what it meets (see `JSONScanVisitor`).
    mutating func walk(_ visitor: any JSONScanVisitor) throws {
        self.visitor = visitor
        defer { self.visitor = nil }
        var current: [String] = []
        try value(at: &current, depth: 0)
        skipWhitespace()
        if try peek() != nil { throw error("unexpected text after the JSON document") }
    }

    private mutating func value(at current: inout [String], depth: Int) throws {
        guard depth < Self.maximumDepth else { throw error("JSON nested more than \(Self.maximumDepth) levels deep") }
        skipWhitespace()
        guard let byte = try peek() else { throw error("the JSON ends early") }
        switch byte {
        case UInt8(ascii: "{"):
            advance()
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") {
                advance()
                try visitor?.objectEnded(at: current)
                return
            }
            while true {
                skipWhitespace()
                guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                let key = try string()
                skipWhitespace()
                guard try peek() == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                advance()
                current.append(key)
                try value(at: &current, depth: depth + 1)
                current.removeLast()
                skipWhitespace()
                let separator = try peek()
                if separator == UInt8(ascii: "}") {
                    advance()
                    try visitor?.objectEnded(at: current)
                    return
                }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object") }
                advance()
            }
        case UInt8(ascii: "["):
            advance()
            let mode = visitor?.mode(forArrayAt: current) ?? .descend
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                advance()
                return
            }
            while true {
                skipWhitespace()
                let (elementLine, elementColumn) = (line, column)
                switch mode {
                case .descend: try value(at: &current, depth: depth + 1)
                case .raw:
                    try visitor?.rawElement(try rawValue(), at: current, line: elementLine, column: elementColumn)
                case .flat:
                    try flatObject(depth: depth + 1)
                    try visitor?.flatElement(flat, at: current, line: elementLine, column: elementColumn)
                }
                skipWhitespace()
                let separator = try peek()
                if separator == UInt8(ascii: "]") {
                    advance()
                    return
                }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or ']' in an array") }
                advance()
            }
        case UInt8(ascii: "\""):
            let text = try string()
            visitor?.scalar(.string, text: text, at: current)
        default:
            let text = try literal()
            visitor?.scalar(text == "null" ? .null : .number, text: text, at: current)
        }
    }

    /// One element as a flat object into `flat`: scalars decoded, nested values kept as raw JSON text. An
    /// element that is not an object gives an empty `flat` with `isObject` false.
    private mutating func flatObject(depth: Int) throws {
        flat.reset()
        guard try peek() == UInt8(ascii: "{") else {
            _ = try rawValue()
            flat.isObject = false
            return
        }
        advance()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            advance()
            return
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try string()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            advance()
            skipWhitespace()
            let start = flat.storage.count
            switch try peek() {
            case UInt8(ascii: "\""):
                var storage: [UInt8] = []
                swap(&storage, &flat.storage)  // not a copy: the scanner's own storage, moved out and back
                try decodeString(into: &storage)
                swap(&storage, &flat.storage)
                flat.fields.append((key, .string, start..<flat.storage.count))
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                flat.storage.append(contentsOf: try rawValue())
                flat.fields.append((key, .nested, start..<flat.storage.count))
            case nil:
                throw error("the JSON ends early")
            default:
                let text = try literal()
                flat.storage.append(contentsOf: text.utf8)
                flat.fields.append(
                    (
                        key, text == "null" ? .null : text == "true" || text == "false" ? .bool : .number,
                        start..<flat.storage.count
                    ))
            }
            guard flat.storage.count <= maximumElementSize else { throw error("an array element is larger than 1 MB") }
            skipWhitespace()
            let separator = try peek()
            if separator == UInt8(ascii: "}") {
                advance()
                return
            }
            guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object") }
            advance()
        }
    }

    /// The bytes of one complete value, strings and nesting respected.
    private mutating func rawValue() throws -> [UInt8] {
        var raw: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        let (startLine, startColumn) = (line, column)
        while let byte = try peek() {
            if !inString && depth == 0 && !raw.isEmpty
                && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}"))
            {
                return raw
            }
            advance()
            raw.append(byte)
            guard raw.count <= maximumElementSize else {
                throw ImportError(
                    .input, "an array element is larger than \(maximumElementSize >> 20) MB", line: startLine,
                    column: startColumn)
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
                guard depth < Self.maximumDepth else { throw error("JSON nested too deeply") }
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth < 0 { throw error("unexpected '\(Character(UnicodeScalar(byte)))'") }
                if depth == 0 { return raw }
            }
        }
        throw error(inString ? "the JSON ends inside a string" : "the JSON ends inside an array element")
    }

    /// A number, `true`, `false` or `null`, checked.
    private mutating func literal() throws -> String {
        let (startLine, startColumn) = (line, column)
        var bytes: [UInt8] = []
        while let byte = try peek(), !Self.isDelimiter(byte) {
            advance()
            bytes.append(byte)
            guard bytes.count <= 64 else { break }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if text == "null" || text == "true" || text == "false" { return text }
        let isNumber =
            !bytes.isEmpty && bytes.allSatisfy { Self.isNumberByte($0) }
            && bytes.withUnsafeBufferPointer { NumberParsing.parseDouble($0) } != nil
        guard isNumber else {
            let shown = bytes.isEmpty ? (try peek().map { String(UnicodeScalar($0)) } ?? "end of file") : text
            throw ImportError(.input, "unexpected '\(shown)': not JSON", line: startLine, column: startColumn)
        }
        return text
    }

    /// A JSON string, escapes decoded.
    private mutating func string() throws -> String {
        var bytes: [UInt8] = []
        try decodeString(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes the string at the current position (its opening quote included) and appends its UTF-8 bytes.
    private mutating func decodeString(into bytes: inout [UInt8]) throws {
        advance()  // the opening quote
        let start = bytes.count
        while let byte = try peek() {
            advance()
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = try peek() else { break }
                advance()
                switch escaped {
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if (0xD800..<0xDC00).contains(scalar), try peek() == UInt8(ascii: "\\") {
                        advance()
                        guard try peek() == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a string")
                        }
                        advance()
                        let low = try hexQuad()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00 & 0x3FF)
                    }
                    bytes.append(
                        contentsOf: Array(String(UnicodeScalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
                default: bytes.append(escaped)  // \" \\ \/
                }
            } else {
                bytes.append(byte)
            }
            guard bytes.count - start <= maximumElementSize else { throw error("a string is larger than 1 MB") }
        }
        throw error("the JSON ends inside a string")
    }

    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek(), let digit = Self.hexDigit(byte) else { throw error("a bad \\u escape") }
            advance()
            value = value << 4 | digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
            || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always) private mutating func advance() {
        let byte = buffer[position]
        position += 1
        if byte == 0x0A {
            line += 1
            lineStart = consumedBefore + position
        }
    }

    private mutating func skipWhitespace() {
        while let byte = try? peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    @inline(__always) private mutating func peek() throws -> UInt8? {
        if position == count {
            consumedBefore += count
            count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            position = 0
            if count == 0 { return nil }
        }
        return buffer[position]
    }

    private func error(_ message: String) -> ImportError {
        ImportError(.input, message, line: line, column: column)
    }
}

/// How `JSONArrayScanner.walk` hands over the elements of an array.
enum JSONElementMode {
    /// Read through it, telling the visitor about its scalars and objects.
    case descend
    /// Each element as its raw bytes (`rawElement`).
    case raw
    /// Each element as a flat object (`flatElement`).
    case flat
}

/// What `JSONArrayScanner.walk` tells about a document. Paths are the keys from the root; arrays add nothing
/// (the points of every metric are at ["data", "metrics", "data"]).
protocol JSONScanVisitor: AnyObject {
    func mode(forArrayAt path: [String]) -> JSONElementMode
    func rawElement(_ bytes: [UInt8], at path: [String], line: Int, column: Int) throws
    func flatElement(_ object: JSONFlatObject, at path: [String], line: Int, column: Int) throws
    /// A string, number, boolean or null met while descending; `path` ends with its key.
    func scalar(_ kind: JSONFlatObject.Kind, text: String, at path: [String])
    /// The end of an object met while descending (its members were reported before).
    func objectEnded(at path: [String]) throws
}

extension JSONScanVisitor {
    func rawElement(_ bytes: [UInt8], at path: [String], line: Int, column: Int) throws {}
    func flatElement(_ object: JSONFlatObject, at path: [String], line: Int, column: Int) throws {}
    func scalar(_ kind: JSONFlatObject.Kind, text: String, at path: [String]) {}
    func objectEnded(at path: [String]) throws {}
}

/// One array element read as an object of scalars: keys in document order, values decoded into `storage`.
/// Reused from element to element, so reading a point allocates nothing beyond its long strings.
struct JSONFlatObject {
    enum Kind: Sendable { case string, number, bool, null, nested }
    var storage: [UInt8] = []
    var fields: [(key: String, kind: Kind, range: Range<Int>)] = []
    /// False when the element was not an object at all.
    var isObject = true

    mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        isObject = true
    }

    func field(_ key: String) -> (kind: Kind, range: Range<Int>)? {
        for field in fields where field.key == key { return (field.kind, field.range) }
        return nil
    }

    func string(_ key: String) -> String? {
        guard let (kind, range) = field(key), kind == .string else { return nil }
        return String(decoding: storage[range], as: UTF8.self)
    }

    /// A number, or a string holding one (some apps write numbers in quotes).
    func double(_ key: String) -> Double? {
        guard let (kind, range) = field(key), kind == .number || kind == .string else { return nil }
        return storage.withUnsafeBufferPointer { NumberParsing.parseDouble(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    func timestamp(_ key: String) -> Timestamp? {
        guard let (kind, range) = field(key), kind == .string else { return nil }
        return storage.withUnsafeBufferPointer { Timestamp.parse(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    func text(_ range: Range<Int>) -> String { String(decoding: storage[range], as: UTF8.self) }
}

/// `scan`'s visitor: the elements of one array, raw.
private final class RawCollector: JSONScanVisitor {
    let path: [String]
    var body: ([UInt8]) throws -> Void
    var found = false

    init(path: [String], body: @escaping ([UInt8]) throws -> Void) {
        self.path = path
        self.body = body
    }

    func mode(forArrayAt path: [String]) -> JSONElementMode {
        guard path == self.path else { return .descend }
        found = true
        return .raw
    }

    func rawElement(_ bytes: [UInt8], at path: [String], line: Int, column: Int) throws { try body(bytes) }
}
