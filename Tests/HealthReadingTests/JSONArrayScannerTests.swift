import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthReading

/// The feed's streaming scanner reads through HealthJSON's cursor: the same grammar, the same messages and the
/// same places as the tree parser, whatever the window, and never more of a file than one window at a time.
@Suite struct JSONArrayScannerTests {
    /// Hands out `text` at most `chunk` bytes per read, counting what it has given.
    final class ChunkedStream: ByteStream {
        private let text: [UInt8]
        private let chunk: Int
        private(set) var bytesRead = 0
        init(_ text: [UInt8], chunk: Int = .max) {
            self.text = text
            self.chunk = chunk
        }
        var expectedSize: UInt64? { UInt64(text.count) }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(buffer.count, chunk, text.count - bytesRead)
            let range = bytesRead..<bytesRead + count
            text.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[range])) }
            bytesRead += count
            return count
        }
    }

    /// What a walk met: points as flat objects (`data.points`), entries as trees (`data.entries`), and the
    /// scalars met while descending.
    final class Recorder: JSONScanVisitor {
        var events: [String] = []
        var onFlat: ((Int) -> Void)?

        func mode(forArrayAt path: [String]) -> JSONElementMode {
            switch path {
            case ["data", "points"]: .flat
            case ["data", "entries"]: .tree
            default: .descend
            }
        }

        func flatElement(_ object: JSONFlatObject, at path: [String], line: Int, column: Int) throws {
            let fields = object.fields.map { "\($0.key)=\($0.kind):\(object.text($0.range))" }
            events.append("flat \(line):\(column) \(object.isObject) \(fields.joined(separator: " "))")
            onFlat?(events.count)
        }

        func treeElement(_ element: JSON, at path: [String], line: Int, column: Int) throws {
            events.append("tree \(line):\(column) \(element.serialized)")
        }

        func scalar(_ kind: JSONFlatObject.Kind, text: String, at path: [String]) {
            events.append("scalar \(path.joined(separator: ".")) \(kind) \(text)")
        }

        func objectEnded(at path: [String]) throws { events.append("end \(path.joined(separator: "."))") }
    }

    static let document = """
        {"data": {"name": "stép \\"one\\"", "count": -1.5e+3, "flag": true, "none": null,
          "points": [{"date": "2024-05-01 10:00:00 +0200", "qty": 0.1, "source": "Nam’s Watch|iPhone"},
                     {"qty": 12, "note": "tab\\there \\ud83d\\ude00 \\u00e9\\/", "extra": {"a": [1, {"b": "]}"}]}},
                     {}, 7, {"list": [ ], "t": false}],
          "entries": [{"id": "A1", "metadata": {"k": "v\\u0000"}}, [1, 2.50, "x"], "plain", {"deep": [[[]]]}]}}
        """

    func walk(_ text: String, window: Int, chunk: Int = .max) throws -> [String] {
        let recorder = Recorder()
        var scanner = JSONArrayScanner(stream: ChunkedStream(Array(text.utf8), chunk: chunk), windowSize: window)
        try scanner.walk(recorder)
        return recorder.events
    }

    @Test(arguments: [1, 2, 3, 5, 16, 4096])
    func theWindowDoesNotChangeWhatIsRead(window: Int) throws {
        let whole = try walk(Self.document, window: 1 << 18)
        #expect(try walk(Self.document, window: window) == whole)
        #expect(try walk(Self.document, window: 1 << 18, chunk: window) == whole)
        #expect(
            whole.contains(
                "flat 2:14 true date=string:2024-05-01 10:00:00 +0200 qty=number:0.1 source=string:Nam’s Watch|iPhone"))
        // Nested values in a flat object are kept as written; escapes decoded, surrogate pairs joined.
        #expect(
            whole.contains(
                #"flat 3:14 true qty=number:12 note=string:tab"# + "\t"
                    + #"here 😀 é/ extra=nested:{"a": [1, {"b": "]}"}]}"#))
        #expect(whole.contains("flat 4:14 true "))
        #expect(whole.contains("flat 4:18 false "))
        #expect(whole.contains(#"tree 5:15 {"id":"A1","metadata":{"k":"v\u0000"}}"#))
        #expect(whole.contains(#"tree 5:59 [1,2.5,"x"]"#))
        #expect(whole.contains(#"scalar data.name string stép "one""#))
        #expect(whole.contains("scalar data.count number -1.5e+3"))
        #expect(whole.contains("scalar data.flag bool true"))
    }

    /// The scanner's error for a text, and the parser's for the same text.
    func errors(_ text: String, window: Int) -> (scanned: JSONError?, parsed: JSONError?) {
        var scanned: JSONError?
        do {
            _ = try walk(text, window: window)
        } catch {
            scanned = error as? JSONError
        }
        var parsed: JSONError?
        do throws(JSONError) {
            _ = try JSONParser.parse(text)
        } catch {
            parsed = error
        }
        return (scanned, parsed)
    }

    @Test(arguments: [1, 3, 4096])
    func errorsArePlacedAsTheParserPlacesThem(window: Int) {
        for text in [
            #"{"data": {"points": [{"a": 1,}]}}"#, "{\n \"data\": {\"points\": [{\"é\": \"ü\" x}]}}",
            "{\"data\": {\"points\": [{\"a\": 01}]}}", "{\"data\": {\"entries\": [{\"a\": \"\\x\"}]}}",
            "{\"data\": {\"entries\": [{\"a\":\n\"\\u12", "{\"data\": [1 2]}", "{\"data\": tru}",
            "{\"data\": \"a\u{01}\"}",
            "{\"data\": 1} []", "{\"data\": {\"points\": [{\"a\": \"x\"}, ]}}", "",
        ] {
            let (scanned, parsed) = errors(text, window: window)
            #expect(scanned != nil && scanned == parsed, "\(text)")
        }
        // One example in full: the column counts characters ("é" and "ü" are two bytes each).
        #expect(
            errors("{\n \"data\": {\"points\": [{\"é\": \"ü\" x}]}}", window: window).scanned
                == JSONError(.invalid, "expected ',' or '}'", line: 2, column: 32, offset: 35))
    }

    @Test func aByteOrderMarkIsPassedOverAndNotCounted() throws {
        let text = "\u{FEFF}" + Self.document
        #expect(try walk(text, window: 2) == (try walk(Self.document, window: 4096)))
        #expect(errors("\u{FEFF}{\"data\" 1}", window: 4096).scanned?.column == 9)
    }

    @Test func elementsPastTheLimitAreRefusedNotHeld() {
        let big = String(repeating: "x", count: 2 << 20)
        for text in [
            "{\"data\": {\"points\": [{\"note\": \"\(big)\"}]}}", "{\"data\": {\"entries\": [[\"\(big)\"]]}}",
            "{\"data\": {\"points\": [{\"n\": [\"\(big)\"]}]}}",
        ] {
            #expect(throws: JSONError.self) { _ = try walk(text, window: 4096) }
        }
    }

    /// Bounded memory: a document of many windows is handed over element by element while it is read; the
    /// first point arrives after one window, not after the file.
    @Test func theFileIsReadOneWindowAtATime() throws {
        let point = #"{"date": "2024-05-01 10:00:00 +0200", "qty": 1.25, "source": "Watch"}"#
        let points = Array(repeating: point, count: 60_000).joined(separator: ",\n")
        let text = Array("{\"data\": {\"points\": [\n\(points)]}}".utf8)
        let window = 64 * 1024
        #expect(text.count > 60 * window)
        let stream = ChunkedStream(text)
        let recorder = Recorder()
        var readWhenFirst: Int?
        recorder.onFlat = { count in if count == 1 { readWhenFirst = stream.bytesRead } }
        var scanner = JSONArrayScanner(stream: stream, windowSize: window)
        try scanner.walk(recorder)
        #expect(readWhenFirst == window)
        #expect(recorder.events.filter { $0.hasPrefix("flat") }.count == 60_000)
        #expect(stream.bytesRead == text.count)
    }
}
