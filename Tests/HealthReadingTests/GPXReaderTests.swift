import Foundation
import Testing

@testable import HealthModel
@testable import HealthReading

/// The real route file, found next to the repository (`../shared`); absent in a fresh clone.
private let gpxRealRoutePath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/fixtures/real/dogsheep-excerpt/zip_contents/workout-routes")
    .appendingPathComponent("route_2019-06-11_3.00pm.gpx").standardizedFileURL.path
private let gpxRealRouteAvailable = FileManager.default.fileExists(atPath: gpxRealRoutePath)

/// Bytes in memory as a `ByteStream`. `maximumRead` hands them out in small pieces, as a zip entry being
/// inflated would, so the reader cannot rely on one read returning a whole element.
private final class GPXTestStream: ByteStream {
    private let bytes: [UInt8]
    private var position = 0
    private let maximumRead: Int
    var expectedSize: UInt64? { UInt64(bytes.count) }

    init(_ text: String, maximumRead: Int = .max) {
        bytes = Array(text.utf8)
        self.maximumRead = maximumRead
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        maximumRead = .max
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position, maximumRead)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + count)]))
        }
        position += count
        return count
    }
}

/// A GPX document around `points`, shaped like Apple's (default namespace, no prefix on extensions).
private func gpxDocument(_ points: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
      <metadata><time>2023-05-13T08:37:07Z</time></metadata>
      <trk><name>Route 2019-06-11 3:00pm</name><trkseg>
    \(points)
      </trkseg></trk>
    </gpx>
    """
}

private let gpxApplePoint = """
    <trkpt lon="6.135726" lat="48.653445"><ele>361.960114</ele><time>2019-09-24T10:22:37Z</time>\
    <extensions><speed>0.976885</speed><course>50.515900</course><hAcc>6.680021</hAcc><vAcc>6.416514</vAcc>\
    </extensions></trkpt>
    """

/// 2019-09-24T10:22:37Z, worked out independently: 18163 days from 1970-01-01 to 2019-09-24.
private let gpxApplePointTime = gpxSeconds(days: 18163, 10, 22, 37)

/// Seconds since 1970 of a UTC time of day, `days` after 1970-01-01.
private func gpxSeconds(days: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Double {
    Double(days * 86_400 + hour * 3600 + minute * 60 + second)
}

@Suite struct GPXReaderTests {
    @Test(.enabled(if: gpxRealRouteAvailable, "../shared/fixtures is absent (fresh clone): real GPX not checked"))
    func readsTheRealDogsheepRoute() throws {
        let result = try GPXReader.readResult(try FileStream(path: gpxRealRoutePath))
        #expect(result.skippedPoints == 0)
        try #require(result.points.count == 3)
        let first = result.points[0]
        #expect(first.latitude == 37.781672)
        #expect(first.longitude == -122.396397)
        #expect(first.elevation == 4.076904)
        // 2019-06-11T22:00:42Z: 18058 days after 1970-01-01.
        #expect(first.time == gpxSeconds(days: 18058, 22, 0, 42))
        #expect(first.speed == 0.180883)
        #expect(first.course == 206.252884)
        #expect(first.horizontalAccuracy == 8.063116)
        #expect(first.verticalAccuracy == 6.428697)
        #expect(result.points[2].time == gpxSeconds(days: 18058, 22, 0, 43))
        #expect(result.points[2].longitude == -122.396394)
        // The plain entry point gives the same points.
        #expect(try GPXReader.readResult(try FileStream(path: gpxRealRoutePath)).points == result.points)
    }

    @Test func readsAnApplePoint() throws {
        let points = try GPXReader.readResult(GPXTestStream(gpxDocument(gpxApplePoint))).points
        #expect(
            points == [
                RoutePoint(
                    latitude: 48.653445, longitude: 6.135726, elevation: 361.960114, time: gpxApplePointTime,
                    speed: 0.976885, course: 50.5159, horizontalAccuracy: 6.680021, verticalAccuracy: 6.416514)
            ])
    }

    @Test(arguments: [1, 7, 4096])
    func chunkSizeDoesNotChangeThePoints(chunkSize: Int) throws {
        let document = gpxDocument(
            String(repeating: gpxApplePoint + "\n", count: 5)
                + #"<trkpt lat="1.5" lon="-2.25"><ele> 12 </ele><time>2020-01-01T00:00:00.25Z</time></trkpt>"#)
        let expected = try GPXReader.readResult(GPXTestStream(document), chunkSize: 1 << 20)
        let actual = try GPXReader.readResult(GPXTestStream(document), chunkSize: chunkSize)
        #expect(actual == expected)
        #expect(actual.points.count == 6)
        #expect(actual.points[5].elevation == 12)
        #expect(actual.points[5].time == 1_577_836_800.25)
    }

    @Test(arguments: [1, 3])
    func textSplitAcrossReadsIsAccumulated(maximumRead: Int) throws {
        let stream = GPXTestStream(gpxDocument(gpxApplePoint), maximumRead: maximumRead)
        let points = try GPXReader.readResult(stream, chunkSize: 5).points
        #expect(points.first?.elevation == 361.960114)
        #expect(points.first?.horizontalAccuracy == 6.680021)
        #expect(points.first?.time == gpxApplePointTime)
    }

    /// Character references and CDATA make libxml2 deliver one text node in several `characters` calls,
    /// whatever the chunk size.
    @Test func textInSeveralPiecesIsAccumulated() throws {
        let point = #"<trkpt lat="1" lon="2"><ele>1&#48;.5</ele><hAcc><![CDATA[4.]]>25</hAcc></trkpt>"#
        let points = try GPXReader.readResult(GPXTestStream(gpxDocument(point))).points
        #expect(points.first?.elevation == 10.5)
        #expect(points.first?.horizontalAccuracy == 4.25)
    }

    @Test func invalidSpeedAndCourseBecomeNil() throws {
        let point = """
            <trkpt lat="1" lon="2"><extensions><speed>-1.000000</speed><course>-1</course>\
            <hAcc>5</hAcc></extensions></trkpt>
            """
        let points = try GPXReader.readResult(GPXTestStream(gpxDocument(point))).points
        #expect(points.count == 1)
        #expect(points.first?.speed == nil)
        #expect(points.first?.course == nil)
        #expect(points.first?.horizontalAccuracy == 5)
    }

    @Test func pointsWithoutAUsablePositionAreSkippedAndCounted() throws {
        let points = """
            <trkpt lon="2"><ele>1</ele></trkpt>
            <trkpt lat="north" lon="2"/>
            <trkpt lat="91" lon="2"/>
            <trkpt lat="1" lon="-181"/>
            <trkpt lat=" 1.5 " lon="2"><ele>oops</ele></trkpt>
            """
        let result = try GPXReader.readResult(GPXTestStream(gpxDocument(points)))
        #expect(result.skippedPoints == 4)
        #expect(result.points == [RoutePoint(latitude: 1.5, longitude: 2)])
    }

    @Test func prefixedExtensionsAreMatchedByLocalName() throws {
        let point = """
            <trkpt lat="1" lon="2" xmlns:x="urn:x"><extensions><x:TrackPointExtension><x:speed>3.5</x:speed>\
            </x:TrackPointExtension></extensions></trkpt>
            """
        #expect(try GPXReader.readResult(GPXTestStream(gpxDocument(point))).points.first?.speed == 3.5)
    }

    /// Names are recognised by libxml2's interned pointer after their first appearance, in a cache of a few
    /// dozen names: a file with more distinct names than that, and with `lat`/`lon` in either order, must read
    /// every point and field the same (the cache is only a shortcut).
    @Test func manyDistinctElementNamesDoNotHidePointsOrFields() throws {
        let noise = (0..<40).map { "<x\($0)>1</x\($0)>" }.joined()
        let points = (0..<6).map { index in
            let position = index.isMultiple(of: 2) ? #"lat="1.5" lon="2""# : #"lon="2" lat="1.5""#
            return "<trkpt \(position)><extensions>\(noise)<speed>\(index)</speed></extensions><ele>7</ele></trkpt>"
        }
        let result = try GPXReader.readResult(GPXTestStream(gpxDocument(noise + points.joined(separator: "\n"))))
        #expect(result.skippedPoints == 0)
        #expect(result.points.map(\.speed) == (0..<6).map { Optional(Double($0)) })
        #expect(result.points.allSatisfy { $0.latitude == 1.5 && $0.longitude == 2 && $0.elevation == 7 })
    }

    /// Each optional field missing, empty, malformed, too long, repeated (the last one counts, also when it
    /// is malformed) or padded: the point keeps its position and only the fields that parse.
    @Test func optionalFieldsMissingOrMalformedAreNil() throws {
        let long = String(repeating: "1", count: 129)
        let points = """
            <trkpt lat="1" lon="2"/>
            <trkpt lat="1" lon="2"><ele></ele><time>yesterday</time><extensions><speed>fast</speed>\
            <course>1e999</course><hAcc>\(long)</hAcc><vAcc>nan</vAcc></extensions></trkpt>
            <trkpt lat="1" lon="2"><ele>5</ele><ele>x</ele><speed>1</speed><speed>2.5</speed>\
            <time>\t2020-01-01T00:00:00Z\n</time><hAcc>0x10</hAcc><vAcc> -3 </vAcc></trkpt>
            """
        let result = try GPXReader.readResult(GPXTestStream(gpxDocument(points)))
        #expect(result.skippedPoints == 0)
        #expect(
            result.points == [
                RoutePoint(latitude: 1, longitude: 2),
                RoutePoint(latitude: 1, longitude: 2),
                RoutePoint(latitude: 1, longitude: 2, time: 1_577_836_800, speed: 2.5, verticalAccuracy: -3),
            ])
    }

    /// A file written with CRLF line ends, inside values too, reads as the LF one does.
    @Test func crlfLineEndsReadTheSame() throws {
        let lf = gpxDocument(gpxApplePoint + "\n" + "<trkpt lat=\"1\" lon=\"2\"><ele>\n 7\n</ele></trkpt>")
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        let expected = try GPXReader.readResult(GPXTestStream(lf))
        #expect(expected.points.count == 2)
        #expect(expected.points[1].elevation == 7)
        #expect(try GPXReader.readResult(GPXTestStream(crlf)) == expected)
        #expect(try GPXReader.readResult(GPXTestStream(crlf, maximumRead: 3), chunkSize: 5) == expected)
    }

    /// A route longer than the spill threshold goes to the temporary file as it is read, and comes back with
    /// the same points, fields and order as one kept in memory; skipped points are counted the same.
    @Test func aLongRouteSpillsToItsTemporaryFileUnchanged() throws {
        let points = (0..<3000).map { index in
            index % 500 == 7
                ? "<trkpt lat=\"north\" lon=\"2\"/>"
                : "<trkpt lat=\"\(Double(index) * 1e-4)\" lon=\"-2\"><ele>\(index)</ele>"
                    + (index % 3 == 0 ? "" : "<time>2020-01-01T00:00:\(String(format: "%02d", index % 60)).5Z</time>")
                    + "<extensions><speed>\(index % 4 == 0 ? -1 : 1)</speed></extensions></trkpt>"
        }
        let document = gpxDocument(points.joined(separator: "\n"))
        let inMemory = try GPXReader.readResult(GPXTestStream(document))
        var spilled = try GPXReader.readRoute(GPXTestStream(document), spillThreshold: 100, chunkSize: 4096)
        #expect(spilled.points.isSpilled)
        #expect(spilled.skippedPoints == 6 && inMemory.skippedPoints == 6)
        #expect(spilled.points.count == 2994)
        #expect(try spilled.points.array() == inMemory.points)
        let fifth = RoutePoint(latitude: Double(4) * 1e-4, longitude: -2, elevation: 4, time: 1_577_836_804.5)
        #expect(inMemory.points[4] == fifth)
        try spilled.points.finishAppending()
        #expect(try spilled.points.array() == inMemory.points)
    }

    @Test func metadataTimeIsNotAPoint() throws {
        let result = try GPXReader.readResult(GPXTestStream(gpxDocument("")))
        #expect(result == GPXReader.Result(points: [], skippedPoints: 0))
    }

    @Test func timeFormats() {
        func parse(_ text: String) -> Double? {
            var copy = text
            return copy.withUTF8 { GPXReader.parseTime($0) }
        }
        let base = gpxSeconds(days: 18058, 22, 0, 42)  // 2019-06-11T22:00:42Z
        #expect(parse("2019-06-11T22:00:42Z") == base)
        #expect(parse("2019-06-11T22:00:42") == base)
        #expect(parse("2019-06-11T22:00:42.5Z") == base + 0.5)
        #expect(parse("2019-06-12T00:00:42+02:00") == base)
        #expect(parse("2019-06-11T17:00:42-0500") == base)
        #expect(parse("2019-06-11T23:00:42+01") == base)
        #expect(parse("1969-12-31T23:59:59Z") == -1)
        #expect(parse("2019-02-29T00:00:00Z") == nil)
        #expect(parse("2019-06-11T22:00:42Q") == nil)
        #expect(parse("2019-06-11T22:00:42.Z") == nil)
        #expect(parse("2019-06-11") == nil)
        #expect(parse("") == nil)
    }

    @Test func brokenGPXThrowsWithALine() throws {
        let broken = gpxDocument(#"<trkpt lat="1" lon="2"><ele>3</trkpt>"#)
        let error = try #require(throws: ImportError.self) { try GPXReader.readResult(GPXTestStream(broken)).points }
        #expect(error.kind == .input)
        #expect(error.line == 5)
        #expect(error.column != nil)
    }

    @Test func truncatedGPXThrowsWithALine() throws {
        let document = gpxDocument(String(repeating: gpxApplePoint + "\n", count: 3))
        let truncated = String(document.utf8.prefix(document.utf8.count / 2))!
        let error = try #require(throws: ImportError.self) { try GPXReader.readResult(GPXTestStream(truncated)).points }
        #expect(error.kind == .input)
        #expect(error.message.contains("truncated"))
        #expect((error.line ?? 0) >= 1)
    }

    @Test func emptyInputThrows() throws {
        let error = try #require(throws: ImportError.self) { try GPXReader.readResult(GPXTestStream("")).points }
        #expect(error.message.contains("no root element"))
        #expect(throws: ImportError.self) {
            try GPXReader.readResult(GPXTestStream(bytes: [0xFF, 0xFE, 0x00, 0x41])).points
        }
    }

    @Test func aRootOtherThanGPXIsAnError() throws {
        let document = #"<?xml version="1.0"?>"# + "\n<HealthData><trkpt lat=\"1\" lon=\"2\"/></HealthData>"
        let error = try #require(throws: ImportError.self) { try GPXReader.readResult(GPXTestStream(document)).points }
        #expect(error.message.contains("<HealthData>"))
        #expect(error.line == 2)
    }

    /// The DOCTYPE is cut out before libxml2 sees it, so `&xxe;` is an undeclared entity: an error, never
    /// the file's content. Checked both through the reader and by collecting every piece of text the
    /// parser delivers.
    @Test func externalEntitiesAreNotRead() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE gpx [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="1" lon="2"><name>&xxe;</name><ele>&xxe;</ele></trkpt>
            </trkseg></trk></gpx>
            """
        do {
            let result = try GPXReader.readResult(GPXTestStream(document))
            #expect(!"\(result)".contains("root:"))
        } catch let error as ImportError {
            #expect(!error.description.contains("root:"))
        }

        let collector = GPXTextCollector()
        let reader = XMLDocumentReader(stream: GPXTestStream(document), handler: collector, wantsText: true)
        do {
            try reader.readToEnd()
        } catch let error as ImportError {
            #expect(!error.description.contains("root:"))
        }
        #expect(!collector.text.contains("root:"))
    }
}

/// Collects all text the parser hands over.
private final class GPXTextCollector: SAXHandler {
    var text = ""
    func startElement(_ name: XMLBytes, identity: UnsafeRawPointer, attributes: XMLAttributes) {
        for index in 0..<attributes.count { text += String(decoding: attributes.value(index), as: UTF8.self) }
    }
    func endElement(_ name: XMLBytes, identity: UnsafeRawPointer) {}
    func text(_ bytes: XMLBytes) { text += String(decoding: bytes, as: UTF8.self) }
}
