import HealthModel

/// Pulls an XML document out of a `ByteStream`, cleans it (`XMLInputFilter`) and feeds it to a SAX handler
/// chunk by chunk, so memory stays at one chunk whatever the document's size.
public final class XMLDocumentReader {
    public static let defaultChunkSize = 64 * 1024

    private let stream: ByteStream
    private let parser: SAXParser
    private var filter = XMLInputFilter()
    private var buffer: UnsafeMutableRawBufferPointer
    private var finished = false
    /// Bytes read from the stream so far (before filtering), for progress.
    public private(set) var bytesRead: UInt64 = 0

    public init(stream: ByteStream, handler: SAXHandler, wantsText: Bool = false, chunkSize: Int = defaultChunkSize) {
        self.stream = stream
        parser = SAXParser(handler: handler, wantsText: wantsText)
        buffer = .allocate(byteCount: max(1, chunkSize), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The parser, for handlers that need to stop it or ask for the current line.
    public var saxParser: SAXParser { parser }

    /// XML-illegal control characters removed so far.
    public var removedControlCharacters: Int { filter.removedControlCharacters }

    /// Bytes that were not valid UTF-8, replaced by `?` so far.
    public var replacedInvalidUTF8Bytes: Int { filter.replacedInvalidUTF8Bytes }

    /// Reads and parses one chunk. Returns false once the document has been read to its end.
    public func step() throws -> Bool {
        if finished { return false }
        let count = try stream.read(into: buffer)
        if count == 0 {
            do {
                try filter.finish { try parser.feed($0) }
                try parser.finish()
            } catch let error as ImportError where !parser.lastErrorWasEncoding {
                throw Self.endedEarly(error, at: bytesRead)
            }
            finished = true
            return false
        }
        bytesRead += UInt64(count)
        try filter.process(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])) { try parser.feed($0) }
        return true
    }

    /// An error only at the end of the input means the document was cut short.
    static func endedEarly(_ error: ImportError, at bytesRead: UInt64) -> ImportError {
        var error = error
        error.message = "the XML ends at byte \(bytesRead) before the document is complete (\(error.message))"
        error.hint = error.hint ?? "the file is incomplete: copy it again or re-export from the Health app"
        return error
    }

    /// Parses the whole document.
    public func readToEnd() throws {
        while try step() {}
    }
}
