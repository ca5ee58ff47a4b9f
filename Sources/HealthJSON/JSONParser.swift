/// A strict JSON parser (RFC 8259) building a `JSON` tree: a protocol message, a pipeline file, one element of
/// a feed's array. Hand-written because the server must tell a parse error (-32700) from a valid message of the
/// wrong shape, integers stay integers, the sender's nesting depth is never trusted, and every error is placed
/// by line and column (`JSONError`). The tokens are `JSONCursor`'s, which the feed's streaming scanner reads
/// too; the same rules without building anything check a whole file's grammar (`check`, for FHIR files).
package struct JSONParser {
    /// Deeper nesting is refused (a message of a million `[` would otherwise exhaust the stack).
    package static let maximumDepth = 64

    package struct Options: Sendable {
        package var maximumDepth = JSONParser.maximumDepth
        /// A key given twice in one object is an error (a configuration file: which one did the user mean?);
        /// otherwise both are kept, in order, and `JSON`'s subscript answers with the first.
        package var refusesDuplicateKeys = false
        package var skipsByteOrderMark = false
        /// A value whose text runs past this many bytes is refused (`JSONError.Kind.tooLarge`): a reader that
        /// keeps one element of a stream at a time bounds its memory.
        package var maximumBytes = Int.max

        package init() {}
    }

    private let options: Options
    /// False when only checking: every value is read by the same rules and dropped (`.null` stands for it).
    private let building: Bool
    private var start = 0
    private var text: [UInt8] = []

    private init(_ options: Options, building: Bool) {
        self.options = options
        self.building = building
    }

    package static func parse(_ text: some Collection<UInt8>, options: Options = Options()) throws(JSONError) -> JSON {
        var cursor = JSONCursor(text)
        var parser = JSONParser(options, building: true)
        return try parser.whole(&cursor)
    }

    package static func parse(_ text: String, options: Options = Options()) throws(JSONError) -> JSON {
        try parse(Array(text.utf8), options: options)
    }

    /// The first grammar error of `bytes` read as one JSON value nested at most `maximumDepth` deep, nil when
    /// there is none. Nothing is built; invalid UTF-8 inside strings is not looked for (the caller decodes).
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> JSONError? {
        var cursor = JSONCursor(bytes)
        var options = Options()
        options.maximumDepth = maximumDepth
        var parser = JSONParser(options, building: false)
        do throws(JSONError) {
            _ = try parser.whole(&cursor)
            return nil
        } catch {
            return error
        }
    }

    /// The value at `cursor` (an element of a stream), read by `options`; the cursor is left after it.
    package static func value(from cursor: inout JSONCursor, options: Options = Options()) throws -> JSON {
        var parser = JSONParser(options, building: true)
        parser.start = cursor.offset
        return try parser.value(&cursor, depth: 0)
    }

    /// Passes the value at `cursor`, checking its grammar and building nothing.
    package static func skipValue(at cursor: inout JSONCursor, maximumDepth: Int) throws {
        var options = Options()
        options.maximumDepth = maximumDepth
        var parser = JSONParser(options, building: false)
        parser.start = cursor.offset
        _ = try parser.value(&cursor, depth: 0)
    }

    /// A text held whole: one value, whitespace around it, nothing after.
    private mutating func whole(_ cursor: inout JSONCursor) throws(JSONError) -> JSON {
        do {
            if options.skipsByteOrderMark { try cursor.skipByteOrderMark() }
            try cursor.skipWhitespace()
            let value = try value(&cursor, depth: 0)
            try cursor.skipWhitespace()
            guard try cursor.peek() == nil else { throw cursor.error("unexpected text after the value") }
            return value
        } catch let error as JSONError {
            throw error
        } catch {
            // Text held whole is read without a stream: nothing else can fail.
            throw cursor.error("\(error)")
        }
    }

    private mutating func value(_ cursor: inout JSONCursor, depth: Int) throws -> JSON {
        guard depth < options.maximumDepth else {
            throw cursor.error("nested deeper than \(options.maximumDepth) levels", .tooLarge)
        }
        if cursor.offset - start > options.maximumBytes {
            throw cursor.error("a value larger than \(JSONCursor.size(options.maximumBytes))", .tooLarge)
        }
        switch try cursor.peek() {
        case UInt8(ascii: "{"):
            cursor.advance()
            return try object(&cursor, depth: depth)
        case UInt8(ascii: "["):
            cursor.advance()
            return try array(&cursor, depth: depth)
        default:
            let mark = cursor.mark
            text.removeAll(keepingCapacity: true)
            let scalar = try cursor.scalar(into: &text, keep: building, maximumLength: options.maximumBytes)
            guard building else { return .null }
            switch scalar {
            case .string: return .string(try string(at: mark))
            case .number(let isInteger):
                let number = String(decoding: text, as: UTF8.self)
                if isInteger, let integer = Int64(number) { return .integer(integer) }
                guard let double = Double(number) else { throw JSONCursor.error("invalid number", at: mark) }
                return .number(double)
            case .bool(let value): return .bool(value)
            case .null: return .null
            }
        }
    }

    /// `text` as a string; the error, if it is not UTF-8, is placed where the string's text starts.
    private func string(at mark: JSONCursor.Mark) throws -> String {
        guard let string = String(validating: text, as: UTF8.self) else {
            let start = JSONCursor.Mark(offset: mark.offset + 1, line: mark.line, column: mark.column + 1)
            throw JSONCursor.error("invalid UTF-8 in a string", at: start)
        }
        return string
    }

    private mutating func object(_ cursor: inout JSONCursor, depth: Int) throws -> JSON {
        var members: [(String, JSON)] = []
        if try cursor.closes(UInt8(ascii: "}")) { return .object(members) }
        var keys = Set<String>()
        repeat {
            try cursor.skipWhitespace()
            let mark = cursor.mark
            text.removeAll(keepingCapacity: true)
            try cursor.key(into: &text)
            let key = building ? try string(at: mark) : ""
            if options.refusesDuplicateKeys, building, !keys.insert(key).inserted {
                throw JSONCursor.error("duplicate key '\(key)'", at: mark)
            }
            let member = try value(&cursor, depth: depth + 1)
            if building { members.append((key, member)) }
        } while try !cursor.next(closing: UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array(_ cursor: inout JSONCursor, depth: Int) throws -> JSON {
        var values: [JSON] = []
        if try cursor.closes(UInt8(ascii: "]")) { return .array(values) }
        repeat {
            let element = try value(&cursor, depth: depth + 1)
            if building { values.append(element) }
        } while try !cursor.next(closing: UInt8(ascii: "]"))
        return .array(values)
    }
}
