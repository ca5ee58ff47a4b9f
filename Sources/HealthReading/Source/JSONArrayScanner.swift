import HealthJSON
import HealthModel

/// Streams the arrays of a JSON document without holding it: Health Auto Export files carry every metric in one
/// document and run to hundreds of megabytes (a year of per-minute points), while each element is small.
///
/// Two ways to use it: `scan` hands over each element of one array (`data.stateOfMind`) as a `JSON` tree; `walk`
/// lets a `JSONScanVisitor` choose, array by array, to descend, take elements as trees, or take them as flat
/// objects (`JSONFlatObject`: a point's `date`, `qty`, `source`, read without building a tree). The grammar,
/// its messages and the places of errors are `JSONCursor`'s and `JSONParser`'s (HealthJSON), which read the file
/// one window at a time; errors are `JSONError`s naming the line and column, and the document must be well
/// formed to its end.
struct JSONArrayScanner {
    /// The key path of the array `scan` wants, e.g. ["data", "stateOfMind"].
    let path: [String]
    private var cursor: JSONCursor
    /// Nesting deeper than this is refused: a hostile file must not exhaust the stack.
    static let maximumDepth = 128
    /// One element larger than this is refused (a State of Mind entry is well under a kilobyte; a workout with
    /// its heart-rate series and route can run to megabytes).
    var maximumElementSize = 1 << 20
    private var visitor: (any JSONScanVisitor)?
    private var flat = JSONFlatObject()
    /// A key or a scalar being read (reused: a point's fields allocate nothing of their own).
    private var scratch: [UInt8] = []

    /// `windowSize`: the bytes held of the file at a time (tests make it tiny, to cross every boundary).
    init(stream: ByteStream, path: [String] = [], windowSize: Int = 256 * 1024) {
        self.path = path
        cursor = JSONCursor(windowSize: windowSize, refill: { try stream.read(into: $0) })
    }

    /// Calls `body` with each element of the array at `path`. Returns false if there is none.
    mutating func scan(_ body: (JSON) throws -> Void) throws -> Bool {
        let collector = TreeCollector(path: path, body: { _ in })
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
        try cursor.skipByteOrderMark()
        try cursor.skipWhitespace()
        var current: [String] = []
        try value(at: &current, depth: 0)
        try cursor.skipWhitespace()
        if try cursor.peek() != nil { throw cursor.error("unexpected text after the value") }
    }

    private mutating func value(at current: inout [String], depth: Int) throws {
        guard depth < Self.maximumDepth else {
            throw cursor.error("nested deeper than \(Self.maximumDepth) levels", .tooLarge)
        }
        switch try cursor.peek() {
        case UInt8(ascii: "{"):
            cursor.advance()
            if try !cursor.closes(UInt8(ascii: "}")) {
                repeat {
                    current.append(try key())
                    try value(at: &current, depth: depth + 1)
                    current.removeLast()
                } while try !cursor.next(closing: UInt8(ascii: "}"))
            }
            try visitor?.objectEnded(at: current)
        case UInt8(ascii: "["):
            cursor.advance()
            let mode = visitor?.mode(forArrayAt: current) ?? .descend
            if try cursor.closes(UInt8(ascii: "]")) { return }
            repeat {
                let (line, column) = (cursor.line, cursor.column)
                switch mode {
                case .descend: try value(at: &current, depth: depth + 1)
                case .tree:
                    var options = JSONParser.Options()
                    options.maximumDepth = Self.maximumDepth - depth - 1
                    options.maximumBytes = maximumElementSize
                    let element = try JSONParser.value(from: &cursor, options: options)
                    try visitor?.treeElement(element, at: current, line: line, column: column)
                case .flat:
                    try flatObject(depth: depth + 1)
                    try visitor?.flatElement(flat, at: current, line: line, column: column)
                }
            } while try !cursor.next(closing: UInt8(ascii: "]"))
        default:
            scratch.removeAll(keepingCapacity: true)
            let kind = Self.kind(try cursor.scalar(into: &scratch, maximumLength: maximumElementSize))
            visitor?.scalar(kind, text: String(decoding: scratch, as: UTF8.self), at: current)
        }
    }

    private mutating func key() throws -> String {
        scratch.removeAll(keepingCapacity: true)
        try cursor.key(into: &scratch)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// One element as a flat object into `flat`: scalars decoded, nested values kept as their raw JSON text. An
    /// element that is not an object gives an empty `flat` with `isObject` false.
    private mutating func flatObject(depth: Int) throws {
        flat.reset()
        let start = cursor.mark
        guard try cursor.peek() == UInt8(ascii: "{") else {
            try JSONParser.skipValue(at: &cursor, maximumDepth: Self.maximumDepth - depth)
            flat.isObject = false
            return
        }
        cursor.advance()
        if try cursor.closes(UInt8(ascii: "}")) { return }
        repeat {
            let key = try key()
            let first = flat.storage.count
            let kind: JSONFlatObject.Kind
            switch try cursor.peek() {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                cursor.beginCapture(limit: maximumElementSize)
                try JSONParser.skipValue(at: &cursor, maximumDepth: Self.maximumDepth - depth - 1)
                flat.storage.append(contentsOf: cursor.endCapture())
                kind = .nested
            default:
                kind = Self.kind(try cursor.scalar(into: &flat.storage, maximumLength: maximumElementSize))
            }
            flat.fields.append((key, kind, first..<flat.storage.count))
            guard flat.storage.count <= maximumElementSize else {
                throw JSONCursor.error(
                    "an array element larger than \(JSONCursor.size(maximumElementSize))", at: start, .tooLarge)
            }
        } while try !cursor.next(closing: UInt8(ascii: "}"))
    }

    private static func kind(_ scalar: JSONCursor.Scalar) -> JSONFlatObject.Kind {
        switch scalar {
        case .string: .string
        case .number: .number
        case .bool: .bool
        case .null: .null
        }
    }
}

/// How `JSONArrayScanner.walk` hands over the elements of an array.
enum JSONElementMode {
    /// Read through it, telling the visitor about its scalars and objects.
    case descend
    /// Each element as a `JSON` tree (`treeElement`).
    case tree
    /// Each element as a flat object (`flatElement`).
    case flat
}

/// What `JSONArrayScanner.walk` tells about a document. Paths are the keys from the root; arrays add nothing
/// (the points of every metric are at ["data", "metrics", "data"]).
protocol JSONScanVisitor: AnyObject {
    func mode(forArrayAt path: [String]) -> JSONElementMode
    func treeElement(_ element: JSON, at path: [String], line: Int, column: Int) throws
    func flatElement(_ object: JSONFlatObject, at path: [String], line: Int, column: Int) throws
    /// A string, number, boolean or null met while descending; `path` ends with its key.
    func scalar(_ kind: JSONFlatObject.Kind, text: String, at path: [String])
    /// The end of an object met while descending (its members were reported before).
    func objectEnded(at path: [String]) throws
}

extension JSONScanVisitor {
    func treeElement(_ element: JSON, at path: [String], line: Int, column: Int) throws {}
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

/// `scan`'s visitor: the elements of one array, as trees.
private final class TreeCollector: JSONScanVisitor {
    let path: [String]
    var body: (JSON) throws -> Void
    var found = false

    init(path: [String], body: @escaping (JSON) throws -> Void) {
        self.path = path
        self.body = body
    }

    func mode(forArrayAt path: [String]) -> JSONElementMode {
        guard path == self.path else { return .descend }
        found = true
        return .tree
    }

    func treeElement(_ element: JSON, at path: [String], line: Int, column: Int) throws { try body(element) }
}
