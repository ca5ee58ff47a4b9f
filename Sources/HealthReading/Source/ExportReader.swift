import Foundation
import HealthModel

/// The source of the pipeline: every item of an export, in document order, then the side files that are
/// not referenced from the XML (ECG recordings, the CDA document).
///
/// Pull-based: `next()` parses just enough of the XML to produce one item, so memory stays at one chunk plus
/// the item being built. Side files a workout or clinical record references are read when that item is
/// produced; a missing or broken side file is a counted warning, never a failed import.
public final class ExportReader {
    public let container: ExportContainer
    private let decoder = ExportDecoder()
    private let document: XMLDocumentReader
    /// The next of the decoder's rows and `others` to hand out.
    private var cursor = BatchItemCursor()
    private var xmlFinished = false
    private var sideFiles: SideFiles
    /// Asked before the GPX files of a workout's routes are read here: true hands the workout on without its
    /// points, and whoever takes it resolves them with a `RouteResolver` of its own (an import asks whether
    /// its writing thread is short of work: `ItemQueue.writerIsShortOfWork`). Nil: always read here.
    public var leavesRoutes: (@Sendable () -> Bool)? {
        get { sideFiles.leavesRoutes }
        set { sideFiles.leavesRoutes = newValue }
    }
    /// Route points a workout keeps in memory before they move to a temporary file (`RoutePointBuffer`);
    /// lowered by tests to spill small routes.
    public var routeSpillThreshold: Int {
        get { decoder.routeSpillThreshold }
        set {
            decoder.routeSpillThreshold = newValue
            sideFiles.routes.spillThreshold = newValue
        }
    }

    public init(container: ExportContainer, chunkSize: Int = XMLDocumentReader.defaultChunkSize) throws {
        self.container = container
        sideFiles = SideFiles(container: container)
        // Inflating runs on its own thread, ahead of the parser.
        let main = try container.openMain()
        let stream: ByteStream = container.kind == .zip ? ReadAheadStream(main) : main
        document = XMLDocumentReader(stream: stream, handler: decoder, chunkSize: chunkSize)
        decoder.parser = document.saxParser
    }

    /// Bytes of the main XML read so far, and its size when known.
    public var progress: (done: UInt64, total: UInt64?) { (document.bytesRead, container.mainSize) }

    /// XML-illegal control characters removed from the main XML.
    public var removedControlCharacters: Int { document.removedControlCharacters }

    /// Counted warnings from the XML and the side files.
    public var warnings: [String: Int] {
        Self.warnings(
            decoder: decoder.warnings, sideFiles: sideFiles.warnings,
            replacedInvalidUTF8Bytes: document.replacedInvalidUTF8Bytes, legacyRecords: decoder.legacyRecords)
    }

    /// The reader's warnings from their parts (one definition for `ExportReader` and `ParallelExportReader`).
    static func warnings(
        decoder: [String: Int], sideFiles: [String: Int], replacedInvalidUTF8Bytes: Int, legacyRecords: Int
    ) -> [String: Int] {
        var all = decoder.merging(sideFiles, uniquingKeysWith: +)
        if replacedInvalidUTF8Bytes > 0 {
            all["bytes that were not valid UTF-8, replaced by '?'"] = replacedInvalidUTF8Bytes
        }
        if legacyRecords > 0 {
            // Not a problem: read in full. Reported so a person knows which reading rules applied.
            all[Self.legacyFormatNote] = legacyRecords
        }
        return all
    }

    public var elementCounts: [String: Int] { decoder.elementCounts }

    /// The summary line counting records of the iOS 8/9 format.
    public static let legacyFormatNote =
        "records in the iOS 8/9 format (compact dates, source=, metadata as attributes), read in full"

    /// The next item in document order: the decoder's rows and its other items interleaved as they came.
    /// A row is handed out as the `Sample` it holds: item-by-item reading for the tests and tools that want it
    /// (an import takes `produceBatches`).
    public func next() throws -> ExportItem? {
        while true {
            if let item = cursor.next(from: &decoder.batch) { return sideFiles.resolved(item) }
            decoder.batch.removeClosedRows()
            cursor.reset()
            if xmlFinished { return sideFiles.nextTrailingItem() }
            do {
                xmlFinished = try !document.step()
            } catch let error as ImportError {
                throw error.located(file: container.path, entry: container.entryLabel)
            }
        }
    }

    /// Every item as batches (`ItemSource`): the decoder's own batch, cut where its weight (`SampleBatch.weight`,
    /// counted in document order) reaches `SampleBatch.fullWeight`, so a heavy item (a workout with its
    /// routes, read here) ends a batch as it did when items were cut one by one; then the trailing side files.
    public func produceBatches(_ body: (inout SampleBatch) throws -> Void) throws {
        var out = SampleBatch(vocabulary: Vocabulary())
        var weighing = SampleBatch.Weighing()
        while !xmlFinished {
            do {
                xmlFinished = try !document.step()
            } catch let error as ImportError {
                throw error.located(file: container.path, entry: container.entryLabel)
            }
            try decoder.batch.handOnFullBatches(&weighing, through: &out, resolve: { sideFiles.resolved($0) }, body)
        }
        // The XML's last rows stay in `out`, followed by the trailing side files, cut by the same weight.
        decoder.batch.moveFront(rows: decoder.batch.rowCount, others: decoder.batch.others.count, into: &out)
        try sideFiles.handOnTrailingItems(after: &out, body)
    }

    /// Side files read whole: FHIR resources are a few kilobytes, an ECG of 30 s ~120 KB. An import holds a
    /// file about three times over (its bytes, its text or samples, SQLite's copy of the value), so this
    /// limit keeps memory flat; 64 MiB did not (a 46 MB ECG file: 168 MB).
    static let maximumSideFileSize = 4 * 1024 * 1024
}

extension ExportReader: ItemSource {
    /// Item by item, for the tests and tools that read an export that way (an import takes `produceBatches`).
    public func produce(_ body: (consuming ExportItem) throws -> Void) throws {
        while let item = try next() { try body(item) }
    }
}
