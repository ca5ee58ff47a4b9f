/// A piece of the filtered export XML cut by `TopLevelSplitter`, and what a fresh parser needs to decode it as
/// the whole document's parser would have: where in the document it starts, and how to wrap it.
///
/// `bytes` is a view into the splitter's reusable buffer: valid only while the splitter's `emit` runs.
package struct TopLevelChunk {
    /// 0, 1, 2, … in document order.
    package var index: Int
    package var bytes: UnsafeRawBufferPointer
    /// The line (1-based, as libxml2 counts: line feeds) of `bytes`' first byte in the whole document.
    package var firstLine: Int
    /// Its column as libxml2 counts it (1 at a line start; mid-line cuts are only made after plain ASCII, where
    /// a byte is a column).
    package var firstColumn: Int
    /// The chunk continues the parse of the chunk before it (that one was cut without an element boundary:
    /// a top-level element longer than the splitter's maximum, or input the splitter does not follow). It must
    /// be fed to the same parser, without a wrapper.
    package var continuesPrevious: Bool
    /// The next chunk continues this one's parse: no closing wrapper, no end of parse.
    package var continuedByNext: Bool
    /// The chunk holds the end of the input: no closing wrapper, and the parse ends as the document does.
    package var isLast: Bool
    /// Bytes from this offset on reached the splitter when its input ended (held back by the input filter until
    /// then): an error while they are parsed is an error "at the end of the input", as in `XMLDocumentReader`.
    package var finalBytesStart: Int
    /// Raw bytes read from the input when the chunk was cut, for the last chunk's "the XML ends at byte N".
    package var inputBytesRead: UInt64
    /// What a chunk other than the first is parsed after: the document's XML declaration and its root's start
    /// tag, on one line (so the root element, its namespaces and encoding are the document's own).
    package var opening: [UInt8]
    /// The line of the root element's `<`, which libxml2 names in messages such as "Premature end of data in
    /// tag HealthData line 2".
    package var rootLine: Int
    /// The root's end tag, which closes a chunk that does not reach it.
    package var closing: [UInt8]
}
