import HealthModel

/// Reads the track points of a workout route file (`workout-routes/route_….gpx`, reference §8.2).
///
/// The file is streamed through `XMLDocumentReader`, so memory is one chunk plus the points, which a
/// `RoutePointBuffer` keeps in bounded memory: a route of a marathon is ~15,000 points, a multi-day one at 1 Hz
/// hundreds of thousands. Elements are matched by local name: Apple writes the `<extensions>` children
/// (`speed`, `course`, `hAcc`, `vAcc`) in the default GPX namespace, other writers put them under a prefix.
public enum GPXReader {
    /// Route files range from a few KB to a few MB; 64 KB keeps the parser busy without holding much.
    public static let defaultChunkSize = 64 * 1024

    /// The points of one file, and how many `<trkpt>`s were dropped for lacking a usable position.
    public struct Result: Equatable, Sendable {
        public var points: [RoutePoint]
        /// `<trkpt>`s whose `lat`/`lon` were missing, not numbers or out of range.
        public var skippedPoints: Int

        public init(points: [RoutePoint], skippedPoints: Int) {
            self.points = points
            self.skippedPoints = skippedPoints
        }
    }

    /// The points of the file, in document order, with the count of skipped points. Throws an `ImportError`
    /// with line and column when the file is not well formed (or truncated) or its root element is not
    /// `<gpx>`. `chunkSize` is exposed so tests can prove that chunk boundaries do not change the result.
    public static func readResult(_ stream: ByteStream, chunkSize: Int = defaultChunkSize) throws -> Result {
        let route = try readRoute(stream, spillThreshold: Int.max, chunkSize: chunkSize)
        return Result(points: try route.points.array(), skippedPoints: route.skippedPoints)
    }

    /// `readResult`, with the points in a `RoutePointBuffer` that moves them to a temporary file past
    /// `spillThreshold` (what an import reads routes with). More than `RoutePointBuffer.maximumCount` points is
    /// an error, as a broken file is.
    public static func readRoute(
        _ stream: ByteStream, spillThreshold: Int = RoutePointBuffer.defaultSpillThreshold,
        chunkSize: Int = defaultChunkSize
    ) throws -> (points: RoutePointBuffer, skippedPoints: Int) {
        let handler = GPXHandler(spillThreshold: spillThreshold)
        let watched = EndWatchingStream(stream)
        let reader = XMLDocumentReader(stream: watched, handler: handler, wantsText: true, chunkSize: chunkSize)
        handler.parser = reader.saxParser
        do {
            // Lifetime: the parser holds the handler unowned; `handler` is a local that outlives `reader`'s use.
            try withExtendedLifetime(handler) { try reader.readToEnd() }
        } catch let error as ImportError {
            throw explained(error, atEnd: watched.reachedEnd, handler: handler)
        }
        guard handler.sawRoot else {
            throw ImportError(.input, "the GPX file is empty", line: 1)
        }
        var points = handler.points
        handler.points = RoutePointBuffer()
        try points.finishAppending()
        return (points, handler.skippedPoints)
    }

    /// libxml2 2.9 reports a document cut short as "Extra content at the end of the document", which sends
    /// the user looking for the wrong problem; this says what happened and keeps libxml2's line and column.
    /// Errors before the end of the input, read errors and the handler's own errors are left as they are.
    private static func explained(_ error: ImportError, atEnd: Bool, handler: GPXHandler) -> ImportError {
        guard error.kind == .input, atEnd, !handler.stoppedParser else { return error }
        var explained = error
        if handler.openElements > 0 {
            explained.message = "the GPX file ends before its elements are closed (truncated?): " + error.message
        } else if !handler.sawRoot {
            explained.message = "the GPX file has no root element (empty?): " + error.message
        }
        return explained
    }

    // MARK: - ISO 8601

    /// Parses `yyyy-MM-ddTHH:mm:ss[.fff][Z|±hh:mm|±hhmm|±hh]` into seconds since 1970, by hand because a
    /// DateFormatter per point would dominate the reading time. A time without a zone is taken as UTC, which
    /// is what GPX 1.1 prescribes. Returns nil for anything else, including impossible dates.
    static func parseTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count >= 19, count <= 64 else { return nil }
        func digits(_ offset: Int, _ length: Int) -> Int? {
            var value = 0
            for index in offset..<(offset + length) {
                let digit = Int(bytes[index]) &- 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        let separator = bytes[10]
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[13] == 0x3A, bytes[16] == 0x3A,
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysInMonth(year, month), hour < 24,
            minute < 60, second < 61
        else { return nil }

        var index = 19
        var fraction = 0.0
        if index < count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var scale = 0.1
            let start = index
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }

        var offset = 0
        if index < count {
            let sign = bytes[index]
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                guard index + 1 == count else { return nil }
            } else {
                guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
                let rest = count - index - 1
                let hours: Int?
                var minutes: Int? = 0
                switch rest {
                case 2:
                    hours = digits(index + 1, 2)
                case 4:
                    hours = digits(index + 1, 2)
                    minutes = digits(index + 3, 2)
                case 5 where bytes[index + 3] == 0x3A:
                    hours = digits(index + 1, 2)
                    minutes = digits(index + 4, 2)
                default:
                    return nil
                }
                guard let hours, let minutes, hours < 24, minutes < 60 else { return nil }
                offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        let days = Timestamp.daysFromCivil(year, month, day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(whole) + fraction
    }
}

/// Passes a stream through and notes when it has been read to its end, to tell truncation from other errors.
private final class EndWatchingStream: ByteStream {
    private let base: ByteStream
    private(set) var reachedEnd = false

    init(_ base: ByteStream) { self.base = base }

    var expectedSize: UInt64? { base.expectedSize }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        if count == 0 { reachedEnd = true }
        return count
    }
}

/// The SAX side of `GPXReader`: fills one packed `RoutePointBuffer.Record` per `<trkpt>`, straight from
/// libxml2's bytes: a route of a day at 1 Hz is 86,400 points and ~ 700,000 elements, so nothing here
/// allocates per point (the text of a field goes to a fixed buffer, numbers and times are parsed from bytes).
private final class GPXHandler: SAXHandler {
    typealias Field = RoutePointBuffer.Field

    /// Set right after the parser is made, to stop it on a wrong root element.
    // Not `weak`: a weak reference gives the parser a side table, which sends every retain and release of it
    // down the slow path. The parser only calls back while it parses, and its owner outlives that.
    unowned(unsafe) var parser: SAXParser?

    var points: RoutePointBuffer
    private(set) var skippedPoints = 0
    private(set) var sawRoot = false
    /// Set when the handler itself stopped the parse (wrong root), whose message must stay as it is.
    private(set) var stoppedParser = false

    /// The open `<trkpt>`; nil outside one, or inside one that will be skipped.
    private var point: RoutePointBuffer.Record?
    /// Element depth of the open `<trkpt>` (0 when none), so a nested `<trkpt>` cannot reset it.
    private var pointDepth = 0
    private var depth = 0
    /// Elements opened and not yet closed.
    var openElements: Int { depth }

    /// The field whose text is being collected, and its depth; text arrives in several pieces.
    private var field: Field?
    private var fieldDepth = 0
    /// The field's text so far, `textCount` bytes of a fixed buffer.
    private let text = UnsafeMutablePointer<UInt8>.allocate(capacity: maximumTextLength)
    private var textCount = 0
    /// A value longer than this is not a number we want; the cap keeps memory flat on a hostile file.
    private static let maximumTextLength = 128
    private var textOverflowed = false

    /// What an element name means: a track point, a field of one, or nothing to us.
    private enum ElementKind {
        case trackPoint, field(Field), other
    }

    // libxml2 interns element and attribute names in its dictionary: one name is one pointer for the whole
    // parse. So what a name means is worked out from its bytes once and then found by pointer, in a fixed
    // table (no array, so no reference counting per element); a long 1 Hz route has millions of elements.
    // (Bounded: a crafted file with more names than the table holds is only slower.)
    private static let kindSlots = 32
    private let kindNames = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: kindSlots)
    private let kinds = UnsafeMutablePointer<ElementKind>.allocate(capacity: kindSlots)
    private var kindCount = 0
    private var latitudeName: UnsafeRawPointer?
    private var longitudeName: UnsafeRawPointer?

    @inline(__always)
    private func kind(of name: XMLBytes, identity: UnsafeRawPointer) -> ElementKind {
        for index in 0..<kindCount where kindNames[index] == identity { return kinds[index] }
        let kind: ElementKind =
            name.elementsEqual("trkpt".utf8) ? .trackPoint : Self.field(named: name).map { .field($0) } ?? .other
        if kindCount < Self.kindSlots {
            kindNames[kindCount] = identity
            (kinds + kindCount).initialize(to: kind)
            kindCount += 1
        }
        return kind
    }

    init(spillThreshold: Int) {
        points = RoutePointBuffer(spillThreshold: spillThreshold)
    }

    deinit {
        text.deallocate()
        kindNames.deallocate()
        kinds.deinitialize(count: kindCount)
        kinds.deallocate()
    }

    func startElement(_ name: XMLBytes, identity: UnsafeRawPointer, attributes: XMLAttributes) {
        depth += 1
        if !sawRoot {
            sawRoot = true
            if !name.elementsEqual("gpx".utf8) {
                let root = String(decoding: name, as: UTF8.self)
                stoppedParser = true
                parser?.stop(with: ImportError(.input, "not a GPX file: the root element is <\(root)>, not <gpx>"))
            }
            return
        }
        let kind = kind(of: name, identity: identity)
        if pointDepth == 0 {
            if case .trackPoint = kind { startPoint(attributes) }
            return
        }
        guard point != nil, field == nil, case .field(let started) = kind else { return }
        field = started
        fieldDepth = depth
        textCount = 0
        textOverflowed = false
    }

    func endElement(_ name: XMLBytes, identity: UnsafeRawPointer) {
        defer { depth -= 1 }
        if let field, depth == fieldDepth {
            self.field = nil
            store(field)
        }
        if depth == pointDepth {
            pointDepth = 0
            if let point {
                do {
                    try points.append(point)
                } catch {
                    stoppedParser = true
                    parser?.stop(with: error as? ImportError ?? ImportError(.internal, "\(error)"))
                }
            }
            point = nil
        }
    }

    func text(_ bytes: XMLBytes) {
        guard field != nil, !textOverflowed else { return }
        guard textCount + bytes.count <= Self.maximumTextLength, let base = bytes.baseAddress else {
            textOverflowed = textCount + bytes.count > Self.maximumTextLength
            return
        }
        (text + textCount).update(from: base, count: bytes.count)
        textCount += bytes.count
    }

    private func startPoint(_ attributes: XMLAttributes) {
        pointDepth = depth
        var latitude: Double?
        var longitude: Double?
        for index in 0..<attributes.count {
            let identity = attributes.nameIdentity(index)
            if identity == latitudeName {
                latitude = Self.number(attributes.value(index))
            } else if identity == longitudeName {
                longitude = Self.number(attributes.value(index))
            } else if attributes.name(index).elementsEqual("lat".utf8) {
                latitudeName = identity
                latitude = Self.number(attributes.value(index))
            } else if attributes.name(index).elementsEqual("lon".utf8) {
                longitudeName = identity
                longitude = Self.number(attributes.value(index))
            }
        }
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            skippedPoints += 1
            point = nil
            return
        }
        point = RoutePointBuffer.Record(latitude: latitude, longitude: longitude)
    }

    private func store(_ field: Field) {
        var value: Double?
        if !textOverflowed {
            let trimmed = Self.trimmed(UnsafeBufferPointer(start: text, count: textCount))
            value = field == .time ? GPXReader.parseTime(trimmed) : NumberParsing.parseDouble(trimmed)
        }
        switch field {
        // CoreLocation reports an invalid speed or course as -1; any negative value means "unknown".
        case .speed, .course: point?[field] = value.flatMap { $0 < 0 ? nil : $0 }
        default: point?[field] = value
        }
    }
    private static func field(named name: XMLBytes) -> Field? {
        switch name.count {
        case 3:
            return name.elementsEqual("ele".utf8) ? .elevation : nil
        case 4:
            if name.elementsEqual("time".utf8) { return .time }
            if name.elementsEqual("hAcc".utf8) { return .horizontalAccuracy }
            if name.elementsEqual("vAcc".utf8) { return .verticalAccuracy }
            return nil
        case 5:
            return name.elementsEqual("speed".utf8) ? .speed : nil
        case 6:
            return name.elementsEqual("course".utf8) ? .course : nil
        default:
            return nil
        }
    }

    private static func number(_ bytes: XMLBytes) -> Double? {
        NumberParsing.parseDouble(trimmed(bytes))
    }

    /// XML allows whitespace around element text (pretty-printed files), which the number parsers reject.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
