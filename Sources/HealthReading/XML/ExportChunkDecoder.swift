import HealthModel

/// Decodes the chunks of a `TopLevelSplitter`, each (with the chunks that continue it) with a fresh parser and
/// `ExportDecoder`, into the items, warnings and element counts the whole document's decode gives for the same
/// bytes, line numbers and error positions included.
///
/// A chunk other than the first is parsed after its `opening` (the document's XML declaration and root start
/// tag, on one line, placed at the root's line so libxml2's messages name it as in the whole parse), then placed
/// at its own first line and column (`SAXParser.place`); one that does not reach the document's end is
/// closed with the root's end tag. The opening's header item and the closing's count of the root are not the
/// document's: they are left out.
package final class ExportChunkDecoder {
    private var decoder: ExportDecoder?
    private var parser: SAXParser?
    private var knownSources = 0
    /// Counted oddities and elements of the parses ended so far, summed (order does not matter).
    package private(set) var warnings: [String: Int] = [:]
    package private(set) var elementCounts: [String: Int] = [:]
    package private(set) var legacyRecords = 0
    /// Route points a workout keeps in memory before they spill (`ExportDecoder.routeSpillThreshold`).
    package var routeSpillThreshold = RoutePointBuffer.defaultSpillThreshold

    package init() {}

    /// What one chunk gave.
    package struct Decoded {
        /// The chunk's records as rows and its other items, in document order. Names are ids in the parse's own
        /// vocabulary (the batch carries a copy), sources the parse's own ids: `VocabularyMerge` and
        /// `SourceRenumbering` turn them into the whole decode's.
        package var batch: SampleBatch
        /// The sources this chunk's parse interned first, in the order it did (their `id`s are the parse's own,
        /// from 1): the one writer renumbers them in chunk order, which gives the whole decode's ids.
        package var newSources: ArraySlice<SampleSource>
    }

    package func decode(_ chunk: TopLevelChunk) throws -> Decoded {
        if !chunk.continuesPrevious { try begin(chunk) }
        guard let decoder, let parser else {
            throw ImportError(.internal, "chunk \(chunk.index) continues a parse that was not begun")
        }
        try feed(UnsafeRawBufferPointer(rebasing: chunk.bytes[0..<chunk.finalBytesStart]), to: parser)
        if chunk.isLast {
            do {
                try feed(UnsafeRawBufferPointer(rebasing: chunk.bytes[chunk.finalBytesStart...]), to: parser)
                try parser.finish()
            } catch let error as ImportError where !parser.lastErrorWasEncoding {
                throw XMLDocumentReader.endedEarly(error, at: chunk.inputBytesRead)
            }
        } else if !chunk.continuedByNext {
            try chunk.closing.withUnsafeBytes { try parser.feed($0) }
            try parser.finish()
        }
        // Chunks end between top-level elements: every row is closed, and the decoder keeps its vocabulary.
        var batch = SampleBatch(vocabulary: decoder.vocabulary)
        decoder.batch.moveFront(rows: decoder.batch.rowCount, others: decoder.batch.others.count, into: &batch)
        let decoded = Decoded(batch: batch, newSources: decoder.sources.all[knownSources...])
        knownSources = decoder.sources.all.count
        if !chunk.continuedByNext { end(closedByDocument: chunk.isLast) }
        return decoded
    }

    private func begin(_ chunk: TopLevelChunk) throws {
        let decoder = ExportDecoder()
        decoder.routeSpillThreshold = routeSpillThreshold
        let parser = SAXParser(handler: decoder)
        decoder.parser = parser
        self.decoder = decoder
        self.parser = parser
        knownSources = 0
        guard chunk.index > 0 else { return }
        parser.place(line: chunk.rootLine, column: 1)
        try chunk.opening.withUnsafeBytes { try parser.feed($0) }
        guard decoder.batch.rowCount == 0, decoder.takeItems().count == 1 else {
            throw ImportError(.internal, "the opening of chunk \(chunk.index) was not parsed at once")
        }
        parser.place(line: chunk.firstLine, column: chunk.firstColumn)
    }

    private func end(closedByDocument: Bool) {
        guard let decoder else { return }
        warnings.merge(decoder.warnings, uniquingKeysWith: +)
        var counts = decoder.elementCounts
        if !closedByDocument, let root = counts["HealthData"] { counts["HealthData"] = root > 1 ? root - 1 : nil }
        elementCounts.merge(counts, uniquingKeysWith: +)
        legacyRecords += decoder.legacyRecords
        self.decoder = nil
        parser = nil
    }

    /// In pieces of the size the whole document is read in, so libxml2's look-ahead limits act alike.
    private func feed(_ bytes: UnsafeRawBufferPointer, to parser: SAXParser) throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + XMLDocumentReader.defaultChunkSize)
            try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
}
