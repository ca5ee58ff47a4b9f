import Foundation
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthReading

/// `TopLevelSplitter` + `ExportChunkDecoder` against the whole document's decode: the same items (every field,
/// line numbers included), warnings and element counts, and for broken input the same one-line error, for
/// every cut size down to a cut after every top-level element.
struct TopLevelSplitterTests {
    /// What a decode of the XML gives, as text compared whole.
    struct Decoded: Equatable {
        var items: [String] = []
        var warnings: [String: Int] = [:]
        var counts: [String: Int] = [:]
        var legacyRecords = 0
        var error: String?
    }

    /// The item's every field, through `Mirror`. A source's id is the decoder's, given in order of first
    /// interning, so each chunk's decoder numbers its own from 1: a source is written with `ids[key(source)]`,
    /// its id numbered over the whole document as the one writer will (docs/batches.md, step 10). A route's
    /// points are written out (the buffer itself holds a pointer).
    static func describe(_ item: ExportItem, ids: [String: Int]) -> String {
        var text = ""
        describe(item, ids: ids, into: &text, indent: "")
        return text
    }

    static func describe(_ value: Any, ids: [String: Int], into text: inout String, indent: String) {
        if let source = value as? SampleSource {
            text += indent + "source \(ids[key(source)] ?? -1) \(key(source))\n"
            return
        }
        if let route = value as? RoutePointBuffer {
            text += indent + "points \((try? route.array()).map { "\($0)" } ?? "unreadable")\n"
            return
        }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty {
            text += indent + String(reflecting: value) + "\n"
            return
        }
        text += indent + "\(mirror.subjectType)\n"
        for child in mirror.children {
            text += indent + "  " + (child.label ?? "-") + ":\n"
            describe(child.value, ids: ids, into: &text, indent: indent + "    ")
        }
    }

    static func key(_ source: SampleSource) -> String {
        "\(source.name)|\(source.version ?? "-")|\(source.device.map { String(reflecting: $0.key) } ?? "-")"
    }

    static func wholeDecode(_ bytes: [UInt8]) -> Decoded {
        let decoder = ExportDecoder()
        let reader = XMLDocumentReader(stream: MemoryStream(bytes), handler: decoder)
        decoder.parser = reader.saxParser
        var decoded = Decoded()
        var items: [ExportItem] = []
        do {
            while try reader.step() { items += decoder.takeItems() }
            items += decoder.takeItems()
            let ids = Dictionary(decoder.sources.all.map { (key($0), $0.id) }, uniquingKeysWith: { first, _ in first })
            decoded.items = items.map { describe($0, ids: ids) }
            #expect(!decoded.items.contains { $0.contains("source -1 ") })
            decoded.warnings = decoder.warnings
            decoded.counts = decoder.elementCounts
            decoded.legacyRecords = decoder.legacyRecords
        } catch {
            decoded = Decoded(error: "\(error)")
        }
        return decoded
    }

    /// Split, then each chunk decoded in turn by a fresh parser (or the one it continues); the chunks' bytes are
    /// checked to be the filtered document, whole and in order.
    static func splitDecode(_ bytes: [UInt8], target: Int, maximum: Int? = nil) -> (Decoded, chunks: Int) {
        let splitter = TopLevelSplitter(targetSize: target, maximumSize: maximum)
        let chunkDecoder = ExportChunkDecoder()
        var decoded = Decoded()
        var chunks = 0
        var rejoined: [UInt8] = []
        var ids: [String: Int] = [:]
        var items: [ExportItem] = []
        do {
            try splitter.split(MemoryStream(bytes, pieceSize: 4093)) { chunk in
                #expect(chunk.index == chunks)
                chunks += 1
                rejoined += chunk.bytes
                let decodedChunk = try chunkDecoder.decode(chunk)
                items += decodedChunk.batch.items
                for source in decodedChunk.newSources where ids[key(source)] == nil { ids[key(source)] = ids.count + 1 }
            }
            decoded.items = items.map { describe($0, ids: ids) }
            decoded.warnings = chunkDecoder.warnings
            decoded.counts = chunkDecoder.elementCounts
            decoded.legacyRecords = chunkDecoder.legacyRecords
        } catch {
            return (Decoded(error: "\(error)"), chunks)
        }
        #expect(rejoined == filtered(bytes))
        return (decoded, chunks)
    }

    static func filtered(_ bytes: [UInt8]) -> [UInt8] {
        // In the pieces `splitDecode` reads: the device rewrite leaves a value cut by a piece as it is.
        var filter = XMLInputFilter()
        var out: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 4093) {
            var piece = Array(bytes[start..<min(bytes.count, start + 4093)])
            try? piece.withUnsafeMutableBytes { try filter.process($0) { out += $0 } }
        }
        try? filter.finish { out += $0 }
        return out
    }

    static let targets = [1, 2, 100, 999, 4096, 65_536, TopLevelSplitter.defaultTargetSize]

    /// Every target, and with the smallest buffer (a top-level element longer than 64 bytes goes out in
    /// pieces that continue one parse).
    static func expectSameDecode(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let whole = wholeDecode(bytes)
        for (target, maximum) in targets.map({ ($0, Int?.none) }) + [(1, 64), (100, 64), (1, 200)] {
            let (split, _) = splitDecode(bytes, target: target, maximum: maximum)
            #expect(
                split == whole, "\(label), target \(target), maximum \(maximum ?? 0)", sourceLocation: sourceLocation)
            if split != whole {
                Issue.record(Comment(rawValue: firstDifference(split, whole)), sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// The first line that differs, for a message shorter than two whole decodes.
    static func firstDifference(_ split: Decoded, _ whole: Decoded) -> String {
        if split.error != whole.error {
            return "errors: split \(split.error ?? "none") / whole \(whole.error ?? "none")"
        }
        if split.items.count != whole.items.count {
            return "items: split \(split.items.count) / whole \(whole.items.count)"
        }
        for (index, (a, b)) in zip(split.items, whole.items).enumerated() where a != b {
            let pair = zip(a.split(separator: "\n"), b.split(separator: "\n")).first { $0 != $1 }
            return "item \(index): split \(pair?.0 ?? "") / whole \(pair?.1 ?? "")"
        }
        return
            "warnings \(split.warnings) / \(whole.warnings); counts \(split.counts) / \(whole.counts); legacy \(split.legacyRecords) / \(whole.legacyRecords)"
    }

    static func contents(_ path: String) throws -> [UInt8] {
        let container = try ExportContainer(path: path)
        return try container.openMain().readAll(limit: 1 << 30)
    }

    // MARK: - Fixtures

    @Test func everyFixtureExportDecodesTheSameForEveryCutSize() throws {
        for relative in ["Tests/Fixtures/legacy-ios8.xml", "sample-exports/export.zip"] {
            let bytes = try Self.contents(Fixtures.repositoryRoot + "/" + relative)
            let whole = Self.wholeDecode(bytes)
            #expect(whole.error == nil)
            #expect(whole.items.count > 10)
            // A chunk per top-level element past the header: no part of a real document is read as one parse.
            #expect(Self.splitDecode(bytes, target: 1).chunks >= whole.items.count - 3, "\(relative)")
            Self.expectSameDecode(bytes, relative)
        }
    }

    static let realExports = ["rgosdin-ios12-v8/export.xml", "dogsheep-excerpt/export.xml"]

    @Test(
        .enabled(if: realExports.allSatisfy { Fixtures.real($0) != nil }, "../shared/fixtures/real is not present"),
        arguments: realExports)
    func realExportsDecodeTheSameForEveryCutSize(_ relative: String) throws {
        let bytes = try Self.contents(try #require(Fixtures.real(relative)))
        let whole = Self.wholeDecode(bytes)
        #expect(whole.error == nil)
        #expect(Self.splitDecode(bytes, target: 1).chunks >= whole.items.count - 3, "\(relative)")
        Self.expectSameDecode(bytes, relative)
    }

    static let corpus = Fixtures.repositoryRoot + "/fuzz/corpus/xml"

    /// The fuzzer's inputs, well formed or not: the same items or the same error.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpus), "fuzz/corpus/xml is not present"))
    func fuzzCorpusDecodesTheSame() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
        #expect(names.count > 100)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name)))
            Self.expectSameDecode(bytes, name)
        }
    }

    // MARK: - Where it cuts

    @Test func aOneByteTargetCutsAfterEveryTopLevelElementPastTheHeader() throws {
        let body = (0..<5).map { index in
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" "
                + "startDate=\"2024-02-01 08:0\(index):00 +0100\" endDate=\"2024-02-01 08:0\(index):00 +0100\" value=\"\(index)\"/>"
        }.joined(separator: "\n")
        let bytes = Array(exportXML(" <Me HKCharacteristicTypeIdentifierBiologicalSex=\"x\"/>\n" + body).utf8)
        var chunks: [TopLevelChunk] = []
        var texts: [String] = []
        try TopLevelSplitter(targetSize: 1).split(MemoryStream(bytes)) { chunk in
            chunks.append(chunk)
            texts.append(String(decoding: chunk.bytes, as: UTF8.self))
        }
        // Chunk 0: prolog, root, ExportDate, Me and the first record; then one record each; then the root's end.
        #expect(chunks.count == 6)
        #expect(texts[0].contains("<ExportDate") && texts[0].contains("<Me ") && texts[0].contains("value=\"0\""))
        #expect(texts[1].hasPrefix(" <Record") && texts[1].hasSuffix("value=\"1\"/>\n"))
        #expect(texts[5] == "</HealthData>\n")
        #expect(chunks.map(\.firstLine) == [1, 6, 7, 8, 9, 10])
        #expect(chunks.allSatisfy { $0.firstColumn == 1 && !$0.continuesPrevious && !$0.continuedByNext })
        #expect(chunks.map(\.isLast) == [false, false, false, false, false, true])
        #expect(
            String(decoding: chunks[1].opening, as: UTF8.self)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><HealthData locale=\"en_US\">")
        #expect(String(decoding: chunks[1].closing, as: UTF8.self) == "</HealthData>")
        #expect(chunks[1].rootLine == 2)
    }

    static func record(_ value: Int, attributes: String = "") -> String {
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" "
            + "startDate=\"2024-02-01 08:00:00 +0100\" endDate=\"2024-02-01 08:05:00 +0100\" value=\"\(value)\"\(attributes)/>"
    }

    @Test func recordsOnOneLineAreCutMidLineOnlyAfterPlainASCII() throws {
        let ascii = Array(exportXML(" " + (0..<4).map { Self.record($0) }.joined()).utf8)
        var columns: [Int] = []
        try TopLevelSplitter(targetSize: 1).split(MemoryStream(ascii)) { columns.append($0.firstColumn) }
        let width = Self.record(0).utf8.count
        #expect(columns == [1, 2 + width, 2 + 2 * width, 2 + 3 * width, 1])
        // A source name in UTF-8 before the cut: libxml2 counts characters, not bytes; no cut on that line.
        let accented = Array(
            exportXML(" " + (0..<4).map { Self.record($0, attributes: " device=\"Zoë\"") }.joined()).utf8)
        var count = 0
        try TopLevelSplitter(targetSize: 1).split(MemoryStream(accented)) { _ in count += 1 }
        #expect(count == 2)
        Self.expectSameDecode(ascii, "one line")
        Self.expectSameDecode(accented, "one line, UTF-8")
    }

    // MARK: - Markup the state machine must see through

    @Test func adversarialMarkupDecodesTheSame() throws {
        let workout = """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min"
                      sourceName="Watch" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:30:00 +0100">
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-02-01 08:10:00 +0100" duration="5" durationUnit="min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:30:00 +0100" sum="5" unit="km"/>
              <WorkoutRoute sourceName="Watch" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:30:00 +0100">
               <FileReference path="/workout-routes/route_1.gpx"/>
              </WorkoutRoute>
             </Workout>
            """
        let correlation = """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100">
              \(Self.record(120))
              \(Self.record(80))
             </Correlation>
            """
        let cases: [(String, String)] = [
            ("> and /> in attribute values", " " + Self.record(1, attributes: " note=\"a > b /> c\" other='x\"/>y'")),
            ("a comment holding an end tag", " <!-- </Record></HealthData> -->\n " + Self.record(2)),
            ("a comment with quotes", " <!-- it's \"quoted -->\n " + Self.record(3)),
            ("CDATA at the top level", " <![CDATA[ </Record> ]]> \n " + Self.record(4)),
            ("a processing instruction", " <?pi a=\"</HealthData>\" > ?>\n " + Self.record(5)),
            ("a workout on many lines", workout),
            ("a correlation", correlation),
            ("tabs before records", "\t" + Self.record(6) + "\t" + Self.record(7)),
            (
                "end tags with blanks",
                " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"P\" value=\"HKCategoryValueSleepAnalysisAsleep\" startDate=\"2024-02-01 08:00:00 +0100\" endDate=\"2024-02-01 08:00:00 +0100\"></Record >"
            ),
            ("an unknown element", " <Mystery a=\"1\"><Inner/></Mystery>\n " + Self.record(8)),
        ]
        for (label, body) in cases {
            let text = exportXML(body + "\n " + Self.record(9))
            Self.expectSameDecode(Array(text.utf8), label)
            let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
            Self.expectSameDecode(Array(crlf.utf8), label + ", CRLF")
        }
    }

    /// A DOCTYPE like the exporter's, cut out by the input filter (its lines kept), then the splitter's own
    /// reading of one with quotes, brackets, `>`, comments and a PI in its subset, fed to it directly.
    @Test func aDoctypeWithAnInternalSubsetDecodesTheSame() throws {
        let exporters = """
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 11 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            <!ATTLIST Record
              type          CDATA #REQUIRED
              unit          CDATA #IMPLIED
            >
            ]>

            """
        let body = (0..<6).map { " " + Self.record($0) }.joined(separator: "\n")
        let bytes = Array(exportXML(body, doctype: exporters).utf8)
        Self.expectSameDecode(bytes, "DOCTYPE")
        var lines: [Int] = []
        try TopLevelSplitter(targetSize: 1).split(MemoryStream(bytes)) { lines.append($0.firstLine) }
        #expect(lines == [1, 16, 17, 18, 19, 20, 21])

        let tricky = """
            <!DOCTYPE HealthData [
            <!-- ] > ' " <Record> -->
            <!ATTLIST Record note CDATA "a ] > b" other CDATA 'c ]> d'>
            <?pi ]> ' ?>
            ]>

            """
        let text = Array(exportXML(body, doctype: tricky).utf8)
        let splitter = TopLevelSplitter(targetSize: 1)
        var chunks: [(line: Int, text: String)] = []
        try text.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 3) {
                let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<min(bytes.count, start + 3)])
                try splitter.consume(piece) { chunks.append(($0.firstLine, String(decoding: $0.bytes, as: UTF8.self))) }
            }
        }
        try splitter.finish { chunks.append(($0.firstLine, String(decoding: $0.bytes, as: UTF8.self))) }
        #expect(chunks.map(\.line) == [1, 10, 11, 12, 13, 14, 15])
        #expect(chunks[0].text.hasPrefix("<?xml") && chunks[0].text.hasSuffix("value=\"0\"/>\n"))
        #expect(chunks.dropFirst().dropLast().allSatisfy { $0.text.hasPrefix(" <Record") })
    }

    // MARK: - Broken input: the same one-line error

    @Test func brokenInputGivesTheWholeDecodesError() throws {
        let nested = String(repeating: "<a>", count: 70) + String(repeating: "</a>", count: 70)
        let cases: [(String, String)] = [
            (
                "a start tag open at the end",
                exportXML("").replacingOccurrences(of: "</HealthData>\n", with: "<Record a=\"1\" ")
            ),
            ("an unterminated tag", String(exportXML(" " + Self.record(1) + "\n " + Self.record(2)).dropLast(40))),
            (
                "an unterminated comment",
                exportXML(" " + Self.record(1)).replacingOccurrences(of: "</HealthData>", with: "<!-- never closed")
            ),
            (
                "an unterminated quote",
                exportXML(" " + Self.record(1) + "\n <Record type=\"x value=\"2\"/>\n " + Self.record(3))
            ),
            ("a stray end tag", exportXML(" " + Self.record(1) + "\n </Stray>\n " + Self.record(2))),
            (
                "a mismatched end tag",
                exportXML(" " + Self.record(1) + "\n <Record type=\"x\"><MetadataEntry key=\"k\" value=\"v\"></Record>")
            ),
            (
                "< in an attribute value",
                exportXML(" " + Self.record(1) + "\n " + Self.record(2, attributes: " bad=\"a<b\""))
            ),
            ("an unquoted attribute", exportXML(" " + Self.record(1) + "\n <Record type=x/>")),
            (
                "cut after a top-level element",
                String(exportXML(" " + Self.record(1) + "\n " + Self.record(2)).dropLast(15))
            ),
            ("content after the root", exportXML(" " + Self.record(1)) + "<Record/>\n"),
            ("an unterminated CDATA", exportXML(" " + Self.record(1) + "\n <![CDATA[ x")),
            ("nested too deep", exportXML(" " + Self.record(1) + "\n <Workout>" + nested + "</Workout>")),
            ("an error mid-line", exportXML(" " + Self.record(1) + Self.record(2) + "<Record type=\"a\" type=\"b\"/>")),
            (
                "an error after UTF-8 on its line",
                exportXML(" " + Self.record(1, attributes: " d=\"Zoë ✓\"") + "\t<Record a=\"é\" a=\"b\"/>")
            ),
            (
                "an error after a lone CR",
                exportXML(" " + Self.record(1) + "\r " + Self.record(2) + "\r <Record a=\"1\" a=\"2\"/>")
            ),
            ("an unknown declaration", exportXML(" " + Self.record(1) + "\n <!FOO bar>\n " + Self.record(2))),
            (
                "CRLF and an error",
                exportXML(" " + Self.record(1) + "\n <Record a=\"1\"\n a=\"2\"/>").replacingOccurrences(
                    of: "\n", with: "\r\n")
            ),
        ]
        for (label, text) in cases {
            let bytes = Array(text.utf8)
            let whole = Self.wholeDecode(bytes)
            #expect(whole.error != nil, "\(label) must be an error")
            #expect(whole.error?.contains(":") == true)
            Self.expectSameDecode(bytes, label)
        }
    }
}
