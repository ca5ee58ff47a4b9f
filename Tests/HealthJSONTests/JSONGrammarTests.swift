import Testing

@testable import HealthJSON

/// The grammar check (FHIR files: the parser's rules, nothing built) agrees with the tree parser on every text the
/// parser's own cases use, except where it is stricter by design: the top level must be an object or an array.
@Suite struct JSONGrammarTests {
    func isValid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { JSONGrammar.isValid($0) } }
    func isValid(_ text: String) -> Bool { isValid(Array(text.utf8)) }

    func parses(_ text: String) -> Bool { (try? JSONParser.parse(text)) != nil }

    @Test(arguments: [
        "[0]", "[-0]", "[1.5e10]", "[1E+2]", "[01]", "[1.]", "[.5]", "[+1]", "[-]", "[1e]", "[NaN]",
        #"[" \" \\ \/ \b \f \n \r \t \u00e9 "]"#, #"["\x"]"#, #"["\u12G4"]"#, #"["\ud83d\ude00"]"#, "[1,]",
        #"{"a":1,}"#, #"{"a" 1}"#, "[] []", "[", #"{"a":"#, #"["abc"#, "[tru]", "[true,false,null]",
        " \t\r\n[ 1 ,\n2 ]\n", "\u{0C}[]", "[\"a\u{09}b\"]", #"{"a":{"b":[{"c":null}]}}"#,
    ])
    func agreesWithTheParserOnContainers(text: String) {
        #expect(isValid(text) == parses(text), "\(text)")
    }

    @Test func theTopLevelIsAnObjectOrAnArray() {
        #expect(isValid("{}") && isValid("[]"))
        #expect(!isValid("1") && !isValid(#""a""#) && !isValid("null") && !isValid(""))
    }

    @Test func nestingIsLimited() {
        let limit = JSONGrammar.maximumDepth
        #expect(isValid(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)))
        #expect(!isValid(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)))
        // A million open brackets: refused at the limit, not after a million levels.
        #expect(!isValid(String(repeating: "[", count: 1_000_000)))
    }

    @Test func checkNamesTheSameErrorAsTheParser() throws {
        for text in ["[1,]", #"{"a" 1}"#, "[01]", #"["\x"]"#, "[", "[] []"] {
            var parsed: JSONError?
            do throws(JSONError) {
                _ = try JSONParser.parse(text)
            } catch {
                parsed = error
            }
            let checked = Array(text.utf8).withUnsafeBufferPointer { JSONParser.check($0, maximumDepth: 64) }
            #expect(checked != nil && checked == parsed, "\(text)")
        }
    }

    @Test func utf8IsLeftToTheCaller() {
        // The check reads bytes: invalid UTF-8 inside a string passes it, and `FHIRText` refuses it after.
        #expect(isValid([0x5B, 0x22, 0xFF, 0x22, 0x5D]))
    }
}
