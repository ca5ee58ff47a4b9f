/// A reading position in a JSON text (RFC 8259) and the grammar's tokens read from it: whitespace, strings and
/// their escapes, numbers, the three words, the keys and separators of objects and arrays. The tree parser
/// (`JSONParser`) and the feed's streaming scanner both read through it: one grammar, one set of messages, and
/// one way of placing an error (line, and column in characters).
///
/// The text is held whole (`init(_:)`) or read from a stream one window at a time (`init(refill:)`): a feed
/// file of hundreds of megabytes is read through one window, never held.
package struct JSONCursor {
    /// Fills the buffer it is given and returns how many bytes it wrote; 0 at the end of the stream.
    package typealias Refill = (UnsafeMutableRawBufferPointer) throws -> Int

    /// Where an error is reported.
    package struct Mark: Sendable {
        package var offset: Int
        package var line: Int
        package var column: Int
    }

    // Internal, not private: the scalars (JSONCursor+Scalars.swift) read the window directly.
    var buffer: [UInt8]
    var end: Int
    var position = 0
    private let refill: Refill?
    /// Bytes of the text before `buffer`.
    private var consumedBefore = 0
    package private(set) var line = 1
    /// The offset where the current line starts, and the UTF-8 continuation bytes (10xxxxxx) read on it since:
    /// a column counts characters. Outside strings the grammar allows ASCII only, so strings alone count them.
    private var lineStart = 0
    var continuationBytes = 0
    /// The raw text passed over since `beginCapture`, or nil, and how long it may grow.
    private var capture: [UInt8]?
    private var captureFrom = 0
    private var captureLimit = Int.max

    package init(_ text: some Collection<UInt8>) {
        buffer = Array(text)
        end = buffer.count
        refill = nil
    }

    package init(windowSize: Int = 256 * 1024, refill: @escaping Refill) {
        buffer = [UInt8](repeating: 0, count: windowSize)
        end = 0
        self.refill = refill
    }

    // MARK: Position

    package var offset: Int { consumedBefore + position }
    /// 1-based, in characters.
    package var column: Int { offset - lineStart - continuationBytes + 1 }
    package var mark: Mark { Mark(offset: offset, line: line, column: column) }

    package func error(_ message: String, _ kind: JSONError.Kind = .invalid) -> JSONError {
        Self.error(message, at: mark, kind)
    }

    package static func error(_ message: String, at mark: Mark, _ kind: JSONError.Kind = .invalid) -> JSONError {
        JSONError(kind, message, line: mark.line, column: mark.column, offset: mark.offset)
    }

    // MARK: Bytes

    /// The next byte, nil at the end of the text.
    @inline(__always) package mutating func peek() throws -> UInt8? {
        if position == end, try !fill() { return nil }
        return buffer[position]
    }

    /// Passes the byte `peek` returned; never a line feed (only whitespace holds one, `skipWhitespace`).
    @inline(__always) package mutating func advance() { position += 1 }

    /// The next window of the stream into `buffer`; false at its end (or for text held whole).
    mutating func fill() throws -> Bool {
        guard let refill else { return false }
        if capture != nil {
            capture?.append(contentsOf: buffer[captureFrom..<end])
            captureFrom = 0
            if let count = capture?.count, count > captureLimit {
                throw error("a value larger than \(Self.size(captureLimit))", .tooLarge)
            }
        }
        consumedBefore += end
        position = 0
        end = try buffer.withUnsafeMutableBytes { try refill($0) }
        return end > 0
    }

    package mutating func skipWhitespace() throws {
        while true {
            if position == end, try !fill() { return }
            switch buffer[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = offset
                continuationBytes = 0
            default: return
            }
        }
    }

    /// Passes a UTF-8 byte-order mark at the start of the text: some editors write one, JSON has none. (0xEF
    /// cannot start a JSON value, so a first byte that begins no mark is an error here already.)
    package mutating func skipByteOrderMark() throws {
        guard offset == 0, try peek() == 0xEF else { return }
        let start = mark
        for byte: UInt8 in [0xEF, 0xBB, 0xBF] {
            guard try peek() == byte else { throw Self.error("unexpected character", at: start) }
            position += 1
        }
        lineStart = 3
    }

    /// From here on, keeps the raw text the cursor passes over (a nested value kept as it was written); past
    /// `limit` bytes (checked window by window) it is refused rather than held.
    package mutating func beginCapture(limit: Int = .max) {
        capture = []
        captureFrom = position
        captureLimit = limit
    }

    package mutating func endCapture() -> [UInt8] {
        var captured = capture ?? []
        captured.append(contentsOf: buffer[captureFrom..<position])
        capture = nil
        return captured
    }

    // MARK: Structure

    /// After `{` or `[`: true, with the bracket passed, when `closing` follows at once (an empty container).
    package mutating func closes(_ closing: UInt8) throws -> Bool {
        try skipWhitespace()
        guard try peek() == closing else { return false }
        position += 1
        return true
    }

    /// A member's key and its `:`, decoded into `key`; the cursor is left at the value.
    package mutating func key(into key: inout [UInt8]) throws {
        try skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
        try string(into: &key)
        try skipWhitespace()
        guard try peek() == UInt8(ascii: ":") else { throw error("expected ':'") }
        position += 1
        try skipWhitespace()
    }

    /// After a member (`closing` is `}`) or an element (`]`): true at the end of the container, false after a
    /// `,` (with the cursor at the next one). Both are passed.
    package mutating func next(closing: UInt8) throws -> Bool {
        try skipWhitespace()
        guard let byte = try peek() else { throw error("unexpected end of the text") }
        if byte == UInt8(ascii: ",") {
            position += 1
            try skipWhitespace()
            return false
        }
        guard byte == closing else {
            throw error(closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
        }
        position += 1
        return true
    }

    /// `1 << 20` as "1 MB", for the messages of limits.
    package static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
    }
}
