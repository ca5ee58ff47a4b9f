import CLibXML2
import Glibc
import HealthModel

/// Bytes handed over by the parser; valid only during the callback that receives them.
public typealias XMLBytes = UnsafeBufferPointer<UInt8>

/// Receives the events of a `SAXParser`. Names and values are byte ranges, not `String`s, so the hot path
/// (millions of records) can decide what to keep without allocating.
public protocol SAXHandler: AnyObject {
    func startElement(_ name: XMLBytes, identity: UnsafeRawPointer, attributes: XMLAttributes)
    func endElement(_ name: XMLBytes, identity: UnsafeRawPointer)
    /// Text content; may arrive in several pieces for one text node. Only called when
    /// `SAXParser(wantsText: true)`.
    func text(_ bytes: XMLBytes)
}

/// The attributes of one start tag, as libxml2 laid them out: five pointers each (local name, prefix, URI,
/// value start, value end). Values are not NUL-terminated.
public struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    public let count: Int

    /// The local name of attribute `index`. libxml2 interns names in its dictionary, so `nameIdentity` is the
    /// same pointer for every occurrence of one name during a parse: a cheap cache key.
    public func name(_ index: Int) -> XMLBytes {
        // swift-format-ignore: NeverForceUnwrap
        // libxml2 always sets the local name.
        let start = base![index * 5]!
        return XMLBytes(start: start, count: strlen(start))
    }

    public func nameIdentity(_ index: Int) -> UnsafeRawPointer {
        // swift-format-ignore: NeverForceUnwrap
        UnsafeRawPointer(base![index * 5]!)
    }

    public func value(_ index: Int) -> XMLBytes {
        // swift-format-ignore: NeverForceUnwrap
        let start = base![index * 5 + 3]!
        let end = base![index * 5 + 4]!
        return XMLBytes(start: start, count: end - start)
    }
}

/// A libxml2 push parser in SAX2 mode: never a tree, never the network, never an entity expansion.
///
/// The caller feeds chunks; callbacks go to the handler during `feed`. Errors from libxml2 and errors the
/// handler raises (via `stop(with:)`) come back as thrown `ImportError`s with line and column.
public final class SAXParser {
    private var context: xmlParserCtxtPtr?
    // Lifetime: whoever makes the parser keeps the handler alive for as long as it feeds the parser (the
    // readers own both). `unowned(unsafe)` because a checked `unowned` load retains and releases the handler
    // on every callback, tens of millions of times in a large export.
    private unowned(unsafe) let handler: SAXHandler
    private var handlerError: ImportError?

    public init(handler: SAXHandler, wantsText: Bool = false) {
        self.handler = handler
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        // `_withUnsafeGuaranteedRef`: the parser is alive for the whole call (see the lifetime note below), so
        // no retain and release of it per callback.
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            // swift-format-ignore: NeverForceUnwrap
            // libxml2 passes back the context we gave it and always sets the local name.
            let name = localName!
            Unmanaged<SAXParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { parser in
                parser.handler.startElement(
                    XMLBytes(start: name, count: strlen(name)), identity: UnsafeRawPointer(name),
                    attributes: XMLAttributes(base: attributes, count: Int(attributeCount)))
            }
        }
        sax.endElementNs = { context, localName, _, _ in
            // swift-format-ignore: NeverForceUnwrap
            let name = localName!
            Unmanaged<SAXParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { parser in
                parser.handler.endElement(XMLBytes(start: name, count: strlen(name)), identity: UnsafeRawPointer(name))
            }
        }
        if wantsText {
            sax.characters = { context, bytes, length in
                // swift-format-ignore: NeverForceUnwrap
                Unmanaged<SAXParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { parser in
                    parser.handler.text(XMLBytes(start: bytes, count: Int(length)))
                }
            }
        }
        clibxml2_silence_errors(&sax)
        clibxml2_silence_generic_errors()
        // Lifetime: `self` owns the context and frees it in deinit, and libxml2 only calls back from inside
        // xmlParseChunk(), which `self` calls. So an unretained pointer to `self` is valid in every callback.
        let me = Unmanaged.passUnretained(self).toOpaque()
        context = xmlCreatePushParserCtxt(&sax, me, nil, 0, nil)
        // No NOENT (entity substitution), no DTDLOAD/DTDVALID, no HUGE (keeps libxml2's limits on
        // attribute length and nesting depth), NONET in case anything ever tries to load a resource.
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NO_XXE_IF_AVAILABLE
        _ = xmlCtxtUseOptions(context, Int32(options))
    }

    deinit {
        if let context {
            // An internal <!ENTITY> declaration makes libxml2 2.9 build a document that xmlFreeParserCtxt does
            // not free (found by fuzzing; only crafted files declare entities).
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
    }

    /// Whether the last error was about the document's character encoding (rather than, say, its end).
    public private(set) var lastErrorWasEncoding = false

    /// The line libxml2 is at, for messages raised by the handler.
    public var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }
    public var column: Int { context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 0 }

    /// Makes libxml2 count the bytes fed from now on as starting at `line`:`column` of a whole document, so a
    /// parser that reads a piece of it (`ExportChunkDecoder`) reports lines and columns, in its errors, its
    /// messages ("… line 7") and `line`, as the whole document's parser would. Bytes fed before and not yet
    /// parsed (no line feed among them: the chunks' opening is one line) are counted back from the column.
    func place(line: Int, column: Int) {
        guard let input = context?.pointee.input else { return }
        var unread = 0
        if let cur = input.pointee.cur, let end = input.pointee.end { unread = end - cur }
        input.pointee.line = Int32(clamping: line)
        input.pointee.col = Int32(clamping: column - unread)
    }

    /// Called by the handler from inside a callback: stops the parse; `feed` then throws `error`.
    public func stop(with error: ImportError) {
        if handlerError == nil {
            var located = error
            if located.line == nil {
                located.line = line
                located.column = column
            }
            handlerError = located
        }
        if let context { xmlStopParser(context) }
    }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard let context else { throw ImportError(.internal, "XML parser could not be created") }
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let code = xmlParseChunk(context, base, Int32(bytes.count), 0)
        try check(code)
    }

    /// Tells libxml2 the input has ended: an unclosed element becomes an error here.
    public func finish() throws {
        guard let context else { throw ImportError(.internal, "XML parser could not be created") }
        let code = xmlParseChunk(context, nil, 0, 1)
        try check(code)
    }

    private func check(_ code: Int32) throws {
        if let handlerError { throw handlerError }
        guard code != 0, let context else { return }
        // Encoding failures reach libxml2's generic error channel and may leave no structured error behind.
        let error = xmlCtxtGetLastError(context)
        var message = (error?.pointee.message.map { String(cString: $0) } ?? "XML error \(code)")
            .trimmingTrailingWhitespace()
        var hint: String?
        let errorCode = error?.pointee.code ?? code
        let encodingErrors = [
            XML_ERR_INVALID_ENCODING, XML_ERR_UNSUPPORTED_ENCODING, XML_ERR_UNKNOWN_ENCODING, XML_I18N_CONV_FAILED,
        ]
        .map { Int32($0.rawValue) }
        if encodingErrors.contains(errorCode) || encodingErrors.contains(code) {
            lastErrorWasEncoding = true
            message = "the document is not in UTF-8 as Health exports are (\(message))"
            hint = "this is not an export written by the Health app, or it was converted; re-export it"
        }
        // libxml2's own limits (never lifted: XML_PARSE_HUGE is not set) have terse messages.
        if message.contains("Huge input lookup") || message.contains("length too long") {
            message = "a value is longer than libxml2's 10 MB limit (\(message))"
            hint = "no real Health export has such values: the file is damaged or crafted"
        }
        throw ImportError(
            .input, message, line: error.map { Int($0.pointee.line) } ?? line,
            column: error.map { Int($0.pointee.int2) } ?? column, hint: hint)
    }
}

// XML_PARSE_NO_XXE only exists from libxml2 2.13 on; on older versions entities are not loaded anyway
// because we never set NOENT or DTDLOAD.
// swift-format-ignore: AlwaysUseLowerCamelCase
private let XML_PARSE_NO_XXE_IF_AVAILABLE: UInt32 = 0

extension String {
    func trimmingTrailingWhitespace() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
