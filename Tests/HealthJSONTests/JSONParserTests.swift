import Testing

@testable import HealthJSON

/// The tree parser against RFC 8259: what it accepts, what it refuses and at which byte, and its limits.
@Suite struct JSONParserTests {
    func failure(_ text: [UInt8]) -> JSONError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    func failure(_ text: String) -> JSONError? { failure(Array(text.utf8)) }

    /// The error expected at byte `offset` of a one-line text whose bytes before it are ASCII (column = offset + 1).
    func expected(_ message: String, _ offset: Int, _ kind: JSONError.Kind = .invalid) -> JSONError {
        JSONError(kind, message, line: 1, column: offset + 1, offset: offset)
    }

    @Test(arguments: [
        ("0", JSON.integer(0)), ("-0", .integer(0)), ("123", .integer(123)), ("-7", .integer(-7)),
        ("1.5", .number(1.5)), ("-0.25", .number(-0.25)), ("1e3", .number(1000)), ("1E+2", .number(100)),
        ("2.5e-1", .number(0.25)), ("9223372036854775807", .integer(Int64.max)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)),
    ])
    func numbersInJSONsForm(text: String, expected: JSON) throws {
        let value = try JSONParser.parse(text)
        #expect(value == expected)
        // Integers stay integers (a JSON-RPC id of 7 is 7, not 7.0) unless they do not fit 64 bits.
        if case .integer = expected { #expect({ if case .integer = value { true } else { false } }()) }
    }

    @Test(arguments: [
        ("01", "invalid number (leading 0)", 2), ("-", "invalid number", 1), ("1.", "invalid number", 2),
        ("1.e5", "invalid number", 2), ("1e", "invalid number", 2), ("1e+", "invalid number", 3),
        (".5", "unexpected character", 0), ("+1", "unexpected character", 0), ("- 1", "invalid number", 1),
        ("0x10", "unexpected text after the value", 1), ("NaN", "unexpected character", 0),
        ("Infinity", "unexpected character", 0),
    ])
    func numbersOutsideTheGrammarAreRefusedWhereTheyGoWrong(text: String, message: String, offset: Int) {
        #expect(failure(text) == expected(message, offset))
    }

    @Test func escapesAreDecoded() throws {
        #expect(try JSONParser.parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        #expect(try JSONParser.parse(#""\u00e9\u00E9""#) == .string("éé"))
        #expect(failure(#""\x""#) == expected("invalid escape", 3))
        #expect(failure(#""\u12G4""#) == expected("invalid \u{5C}u escape", 5))
        #expect(failure(#""\u12"#) == expected("unterminated \u{5C}u escape", 3))
        #expect(failure(#""\"#) == expected("unterminated escape", 2))
    }

    @Test func surrogatePairsAreOneScalarAndLoneOnesAReplacementCharacter() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\uD834\uDD1E""#) == .string("𝄞"))
        #expect(try JSONParser.parse(#""\ud83d""#) == .string("\u{FFFD}"))
        #expect(try JSONParser.parse(#""\ud83dx""#) == .string("\u{FFFD}x"))
        #expect(try JSONParser.parse(#""\ud83d\u0041""#) == .string("\u{FFFD}"))
        #expect(try JSONParser.parse(#""\ude00""#) == .string("\u{FFFD}"))
    }

    @Test func rawTextMustBeUTF8WithoutControlCharacters() throws {
        #expect(try JSONParser.parse(Array("\"né 😀\"".utf8)) == .string("né 😀"))
        // 0xC3 starts a two-byte sequence; "(" cannot continue it. The offset is where the run of text starts.
        #expect(
            failure([0x22, 0x61, 0xC3, 0x28, 0x22])
                == expected("invalid UTF-8 in a string", 1))
        #expect(failure([0x22, 0xFF, 0x22]) == expected("invalid UTF-8 in a string", 1))
        // An encoded surrogate (ED A0 80) is not UTF-8 either.
        #expect(
            failure([0x22, 0xED, 0xA0, 0x80, 0x22])
                == expected("invalid UTF-8 in a string", 1))
        #expect(failure("\"a\u{09}b\"") == expected("control character in a string", 2))
        #expect(failure("\"a\u{0A}\"") == expected("control character in a string", 2))
    }

    @Test func nestingIsLimited() throws {
        let limit = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(failure(tooDeep) == expected("nested deeper than \(limit) levels", limit, .tooLarge))
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(failure(objects)?.message == "nested deeper than \(limit) levels")
    }

    @Test(arguments: [
        ("", "unexpected end of the text", 0), ("[", "unexpected end of the text", 1),
        ("[1", "unexpected end of the text", 2), ("[1,", "unexpected end of the text", 3),
        (#"{"a""#, "expected ':'", 4), (#"{"a":"#, "unexpected end of the text", 5),
        (#"{"a":1"#, "unexpected end of the text", 6), (#""abc"#, "unterminated string", 4),
        ("tru", "unexpected character", 0), ("nul", "unexpected character", 0),
    ])
    func truncatedInputNamesWhereItEnds(text: String, message: String, offset: Int) {
        #expect(failure(text) == expected(message, offset))
    }

    @Test(arguments: [
        ("[1,]", "unexpected character", 3), ("[1 2]", "expected ',' or ']'", 3), (#"{"a":1,}"#, "expected a key", 7),
        (#"{a:1}"#, "expected a key", 1), (#"{"a" 1}"#, "expected ':'", 5),
        (#"{"a":1 "b":2}"#, "expected ',' or '}'", 7),
        ("[] []", "unexpected text after the value", 3), ("'a'", "unexpected character", 0),
    ])
    func structureErrorsArePlaced(text: String, message: String, offset: Int) {
        #expect(failure(text) == expected(message, offset))
        #expect(failure(text)?.description == "\(message) at line 1, column \(offset + 1)")
    }

    @Test func whitespaceIsTheFourOfTheGrammar() throws {
        #expect(try JSONParser.parse(" \t\r\n[ 1 ,\n2 ]\n") == .array([.integer(1), .integer(2)]))
        // A no-break space or a form feed is not JSON whitespace.
        #expect(failure("\u{0C}[]")?.offset == 0)
        #expect(failure("[]\u{A0}")?.message == "unexpected text after the value")
    }

    @Test func objectsKeepTheirOrderAndRepeatedKeys() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":2,"b":3}"#)
        #expect(value == .object([("b", .integer(1)), ("a", .integer(2)), ("b", .integer(3))]))
        #expect(value["b"] == .integer(1))
    }
}
