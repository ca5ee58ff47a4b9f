import Glibc
import HealthModel

/// Cuts the filtered, inflated export XML into `TopLevelChunk`s of about `targetSize` bytes, each ending right
/// after a child of the root (`<HealthData>`) has closed, so that N parsers can decode them at once (docs/batches.md,
/// "Decoding on N cores").
///
/// A small state machine follows just enough of XML to know the depth: start and end tags, quoted attribute
/// values (`>` and `/>` inside them are text), comments, CDATA sections, processing instructions and a
/// DOCTYPE with its internal subset. Where it cannot follow (markup it does not know, or after the root has
/// closed) it stops cutting at element boundaries and hands the rest out as chunks that continue one parse,
/// so libxml2 sees those bytes exactly as in one whole parse and reports the same errors at the same places.
///
/// Chunk 0 holds the prolog, the root's start tag and the header elements (`ExportDate`, `Me`): no cut is made
/// before another top-level element has closed. A cut is moved past the blanks that follow the element up to
/// its line feed, so chunks of a real export start at column 1; a cut in the middle of a line is made only
/// after plain ASCII (no CR), where libxml2's column is the byte count. Memory: one buffer of `maximumSize`
/// bytes; a top-level element longer than that goes out in pieces that continue one parse.
package final class TopLevelSplitter {
    /// 256 KiB: each worker holds a few chunks and their decoded batches, so this sets `--threads N`'s memory;
    /// measured against 1 MiB (docs/performance.md, 2026-12-07): − 11 MB peak at two threads, no slower.
    package static let defaultTargetSize = 1 << 18

    package let targetSize: Int
    package let maximumSize: Int
    /// The buffer: `maximumSize`, but never below 64 KiB, so a prolog or a broken tail (read as one parse) goes
    /// to libxml2 in the pieces a whole parse would feed it (its reading of broken markup depends on them).
    private let capacity: Int
    /// Bytes read from the raw input (before filtering), given by whoever reads it; named by the last chunk's
    /// "the XML ends at byte N" error.
    package var inputBytesRead: UInt64 = 0
    /// What `split`'s input filter removed and replaced, once the input has ended.
    package private(set) var removedControlCharacters = 0
    package private(set) var replacedInvalidUTF8Bytes = 0

    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var scan = 0
    private var state = State.text
    /// Set when the input misses an element boundary the state machine can trust: no more cuts.
    private var serial = false
    private var depth = 0
    /// Where the markup being scanned starts (`<`) and where its content starts; may go negative once the
    /// bytes before them have gone out in a continuing chunk.
    private var markupStart = 0
    private var contentStart = 0
    private var quote: UInt8 = 0
    /// Inside the DOCTYPE's internal subset (a comment or PI there returns to it).
    private var inSubset = false
    private var openTopLevelIsHeader = false
    private var mayCut = false

    private var chunkIndex = 0
    private var firstLine = 1
    private var firstColumn = 1
    /// The current line, before the buffer's first byte, holds only plain ASCII.
    private var linePlain = true
    private var continuesPrevious = false
    private var finalStart = Int.max
    private var declaration: [UInt8] = []
    private var opening: [UInt8] = []
    private var closing: [UInt8] = []
    private var rootLine = 1
    private var sawRoot = false

    private enum State {
        case text, open, startTag, startQuote, endTag, comment, cdata, processing, doctype, doctypeQuote
        /// A top-level element has closed and a cut is due: at the line feed, or before the next markup.
        case afterTopLevel
    }

    /// - Parameters:
    ///   - targetSize: a chunk is cut at the first top-level boundary past this many bytes (1: at every one).
    ///   - maximumSize: a chunk with no boundary goes out, continued by the next, at this size.
    package init(targetSize: Int = defaultTargetSize, maximumSize: Int? = nil) {
        self.targetSize = max(1, targetSize)
        self.maximumSize = max(64, maximumSize ?? max(4 * targetSize, 64 * 1024))
        capacity = max(self.maximumSize, 64 * 1024)
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// Takes the next bytes of the filtered document; `emit` receives every chunk completed by them.
    /// `atEnd`: these bytes were held by the input filter until the input ended.
    package func consume(
        _ bytes: UnsafeRawBufferPointer, atEnd: Bool = false, emit: (TopLevelChunk) throws -> Void
    ) throws {
        if atEnd, finalStart == Int.max {
            // Held by the filter until the end (a prolog it could not read): read as one parse, as it was fed.
            finalStart = count
            serial = true
        }
        var offset = 0
        while offset < bytes.count {
            let take = min(bytes.count - offset, capacity - count)
            // swift-format-ignore: NeverForceUnwrap
            (buffer + count).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: take)
            count += take
            offset += take
            try run(emit)
            if count == capacity || (count >= maximumSize && sawRoot && !serial) {
                // No boundary in a whole buffer: out it goes, keeping the few bytes the state machine looks back at.
                // (A wait for the few bytes that tell what markup opens keeps fewer than 9 back.)
                try send(upTo: max(1, min(scan, count - 8)), continued: true, last: false, emit)
            }
        }
    }

    /// The input has ended: the rest goes out as the last chunk (chunk 0 too, if it is the only one).
    package func finish(emit: (TopLevelChunk) throws -> Void) throws {
        try run(emit)
        try send(upTo: count, continued: false, last: true, emit)
    }

    /// Reads `stream` to its end through the input filter (as `XMLDocumentReader` does) and cuts it.
    package func split(
        _ stream: ByteStream, readSize: Int = XMLDocumentReader.defaultChunkSize, emit: (TopLevelChunk) throws -> Void
    ) throws {
        var filter = XMLInputFilter()
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, readSize), alignment: 16)
        defer { piece.deallocate() }
        while true {
            let read = try stream.read(into: piece)
            if read == 0 { break }
            inputBytesRead += UInt64(read)
            try filter.process(UnsafeMutableRawBufferPointer(rebasing: piece[0..<read])) { try consume($0, emit: emit) }
        }
        try filter.finish { try consume($0, atEnd: true, emit: emit) }
        removedControlCharacters = filter.removedControlCharacters
        replacedInvalidUTF8Bytes = filter.replacedInvalidUTF8Bytes
        try finish(emit: emit)
    }

    // MARK: - The state machine

    private func run(_ emit: (TopLevelChunk) throws -> Void) throws {
        if serial {
            scan = count
            return
        }
        var i = scan
        scanning: while i < count, !serial {
            switch state {
            case .text:
                guard let found = find(UInt8(ascii: "<"), from: i) else {
                    i = count
                    break scanning
                }
                markupStart = found
                state = .open
                i = found + 1
            case .open:
                let byte = buffer[i]
                if byte == UInt8(ascii: "/") {
                    state = .endTag
                    i += 1
                } else if byte == UInt8(ascii: "?") {
                    state = .processing
                    contentStart = i + 1
                    i += 1
                } else if byte == UInt8(ascii: "!") {
                    guard let next = markupDeclaration(at: i) else { break scanning }  // more bytes needed
                    i = next
                } else {
                    state = .startTag
                }
            case .startTag:
                while i < count {
                    let byte = buffer[i]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                        state = .startQuote
                        i += 1
                        continue scanning
                    }
                    if byte == UInt8(ascii: ">") {
                        i += 1
                        startTagEnded(selfClosing: buffer[i - 2] == UInt8(ascii: "/") && i - 2 > markupStart, end: i)
                        continue scanning
                    }
                    if byte == UInt8(ascii: "<") {
                        serial = true  // not well formed: libxml2 says where
                        break scanning
                    }
                    i += 1
                }
            case .startQuote, .doctypeQuote:
                guard let found = find(quote, from: i) else {
                    i = count
                    break scanning
                }
                state = state == .startQuote ? .startTag : .doctype
                i = found + 1
            case .endTag:
                guard let found = find(UInt8(ascii: ">"), from: i) else {
                    i = count
                    break scanning
                }
                i = found + 1
                state = .text
                depth -= 1
                if depth == 1 {
                    topLevelClosed(header: openTopLevelIsHeader, at: i)
                } else if depth <= 0 {
                    serial = true  // the root has closed (or a stray end tag): the rest is one parse
                }
            case .comment, .cdata, .processing:
                guard let found = find(UInt8(ascii: ">"), from: i) else {
                    i = count
                    break scanning
                }
                i = found + 1
                if closesSection(at: found) {
                    if state == .processing { declarationEnded(end: i) }
                    state = inSubset ? .doctype : .text
                }
            case .doctype:
                while i < count {
                    let byte = buffer[i]
                    i += 1
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                        state = .doctypeQuote
                        continue scanning
                    } else if byte == UInt8(ascii: "[") {
                        inSubset = true
                    } else if byte == UInt8(ascii: "]") {
                        inSubset = false
                    } else if byte == UInt8(ascii: ">"), !inSubset {
                        state = .text
                        continue scanning
                    } else if byte == UInt8(ascii: "<"), inSubset, i + 3 <= count {
                        // A comment or PI in the subset may hold quotes, brackets and `>`.
                        if buffer[i] == UInt8(ascii: "?") {
                            state = .processing
                            contentStart = i + 1
                            i += 1
                            continue scanning
                        } else if buffer[i] == UInt8(ascii: "!"), buffer[i + 1] == UInt8(ascii: "-"),
                            buffer[i + 2] == UInt8(ascii: "-")
                        {
                            state = .comment
                            contentStart = i + 3
                            i += 3
                            continue scanning
                        }
                    } else if byte == UInt8(ascii: "<"), inSubset {
                        i -= 1  // wait for the bytes that tell what it opens
                        break scanning
                    }
                }
            case .afterTopLevel:
                let byte = buffer[i]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    i += 1
                } else if byte == 0x0A {
                    state = .text
                    i += 1
                    try send(upTo: i, continued: false, last: false, emit)
                    i = 0
                } else {
                    state = .text
                    if lineIsPlain(upTo: i) {
                        try send(upTo: i, continued: false, last: false, emit)
                        i = 0
                    }
                }
            }
        }
        scan = serial ? count : i
    }

    /// After `<!` at `index`: a comment, CDATA section or DOCTYPE; returns where scanning goes on, or nil when
    /// more bytes are needed to tell. Anything else is not followed: no more cuts.
    private func markupDeclaration(at index: Int) -> Int? {
        for (bytes, next) in Self.declarations {
            let available = min(bytes.count, count - index)
            guard (0..<available).allSatisfy({ buffer[index + $0] == bytes[$0] }) else { continue }
            if available < bytes.count { return nil }
            state = next
            contentStart = index + bytes.count
            return index + bytes.count
        }
        serial = true
        return count
    }

    private static let declarations: [([UInt8], State)] = [
        (Array("!--".utf8), .comment), (Array("![CDATA[".utf8), .cdata), (Array("!DOCTYPE".utf8), .doctype),
    ]

    /// Whether the `>` at `index` ends the open comment (`-->`), CDATA section (`]]>`) or PI (`?>`).
    private func closesSection(at index: Int) -> Bool {
        switch state {
        case .comment:
            index - 2 >= contentStart && buffer[index - 1] == UInt8(ascii: "-")
                && buffer[index - 2] == UInt8(ascii: "-")
        case .cdata:
            index - 2 >= contentStart && buffer[index - 1] == UInt8(ascii: "]")
                && buffer[index - 2] == UInt8(ascii: "]")
        default:
            index - 1 >= contentStart && buffer[index - 1] == UInt8(ascii: "?")
        }
    }

    /// `<?xml …?>` at the document's first byte: repeated in the opening of the other chunks, so that they are
    /// read in the document's declared version and encoding.
    private func declarationEnded(end: Int) {
        guard chunkIndex == 0, markupStart == 0, !sawRoot, end >= 6 else { return }
        let name = UnsafeBufferPointer(start: buffer, count: 6)
        guard name.starts(with: "<?xml".utf8), Self.endsName(name[5]) else { return }
        declaration = (0..<end).map { Self.blank(buffer[$0]) }
        // Another encoding is converted by libxml2, whose errors then depend on where its input is cut.
        let text = String(String(decoding: declaration, as: UTF8.self).lowercased().filter { $0 != " " })
        if text.contains("encoding="), !text.contains("encoding=\"utf-8\""), !text.contains("encoding='utf-8'") {
            serial = true
        }
    }

    private func startTagEnded(selfClosing: Bool, end: Int) {
        state = .text
        if depth == 0 {
            rootStarted(end: end)
            if selfClosing || !sawRoot { serial = true }
            return
        }
        let header = depth == 1 && isHeaderElement()
        if selfClosing {
            if depth == 1 { topLevelClosed(header: header, at: end) }
        } else {
            depth += 1
            if depth == 2 { openTopLevelIsHeader = header }
        }
    }

    private func rootStarted(end: Int) {
        guard markupStart >= 0, !sawRoot, end - markupStart <= 64 * 1024 else { return }
        sawRoot = true
        depth = 1
        rootLine = firstLine + lineFeeds(0..<markupStart)
        opening = declaration + (markupStart..<end).map { Self.blank(buffer[$0]) }
        var nameEnd = markupStart + 1
        while nameEnd < end, !Self.endsName(buffer[nameEnd]) { nameEnd += 1 }
        closing = Array("</".utf8) + (markupStart + 1..<nameEnd).map { buffer[$0] } + [UInt8(ascii: ">")]
    }

    /// `ExportDate` and `Me`, which stay in chunk 0.
    private func isHeaderElement() -> Bool {
        guard markupStart >= 0 else { return false }
        var end = markupStart + 1
        while end < count, !Self.endsName(buffer[end]) { end += 1 }
        let name = UnsafeBufferPointer(start: buffer + markupStart + 1, count: end - markupStart - 1)
        return name.elementsEqual("ExportDate".utf8) || name.elementsEqual("Me".utf8)
    }

    private func topLevelClosed(header: Bool, at end: Int) {
        if !header { mayCut = true }
        if mayCut, end >= targetSize { state = .afterTopLevel }
    }

    // MARK: - Chunks out

    private func send(upTo end: Int, continued: Bool, last: Bool, _ emit: (TopLevelChunk) throws -> Void) throws {
        if !last, end == 0 { return }
        let chunk = TopLevelChunk(
            index: chunkIndex, bytes: UnsafeRawBufferPointer(start: buffer, count: end), firstLine: firstLine,
            firstColumn: firstColumn, continuesPrevious: continuesPrevious, continuedByNext: continued, isLast: last,
            finalBytesStart: min(max(finalStart, 0), end), inputBytesRead: inputBytesRead, opening: opening,
            rootLine: rootLine, closing: closing)
        try emit(chunk)
        advancePosition(over: end)
        count -= end
        if count > 0 { buffer.update(from: buffer + end, count: count) }
        scan -= end
        markupStart -= end
        contentStart -= end
        if finalStart != Int.max { finalStart -= end }
        chunkIndex += 1
        continuesPrevious = continued
    }

    /// The line and column of byte `end`, which becomes the buffer's first.
    private func advancePosition(over end: Int) {
        let feeds = lineFeeds(0..<end)
        if feeds > 0 {
            var lastFeed = end - 1
            while buffer[lastFeed] != 0x0A { lastFeed -= 1 }
            firstLine += feeds
            firstColumn = end - lastFeed
            linePlain = plain(lastFeed + 1..<end)
        } else {
            firstColumn += end
            linePlain = linePlain && plain(0..<end)
        }
    }

    /// The line up to `end` holds only plain ASCII, so a chunk may start there with a column libxml2 agrees on.
    private func lineIsPlain(upTo end: Int) -> Bool {
        var start = end
        while start > 0, buffer[start - 1] != 0x0A { start -= 1 }
        return plain(start..<end) && (start > 0 || linePlain)
    }

    private func plain(_ range: Range<Int>) -> Bool {
        for index in range where buffer[index] >= 0x80 || buffer[index] == 0x0D { return false }
        return true
    }

    private func lineFeeds(_ range: Range<Int>) -> Int {
        ByteScan.count(of: 0x0A, in: buffer + range.lowerBound, range.count)
    }

    private func find(_ byte: UInt8, from index: Int) -> Int? {
        guard let found = memchr(buffer + index, Int32(byte), count - index) else { return nil }
        return found.assumingMemoryBound(to: UInt8.self) - buffer
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/")
    }

    /// Line ends and tabs as spaces: the opening is one line, so the chunk's own lines count from its first.
    private static func blank(_ byte: UInt8) -> UInt8 {
        byte == 0x0A || byte == 0x0D || byte == 0x09 ? 0x20 : byte
    }
}
