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
    private var nextRow = 0
    private var nextOther = 0
    private var xmlFinished = false
    private var trailingPaths: ArraySlice<String>?
    private var sideFileWarnings: [String: Int] = [:]
    private var routes: RouteResolver
    /// Whether `next()` reads the GPX files of a workout's routes; when false, the workout comes without
    /// points and whoever takes it resolves them with a `RouteResolver` of its own (the import does, on
    /// its writing thread, in a re-import).
    public var resolvesRoutes = true
    /// Route points a workout keeps in memory before they move to a temporary file (`RoutePointBuffer`);
    /// lowered by tests to spill small routes.
    public var routeSpillThreshold: Int {
        get { decoder.routeSpillThreshold }
        set {
            decoder.routeSpillThreshold = newValue
            routes.spillThreshold = newValue
        }
    }

    public init(container: ExportContainer, chunkSize: Int = XMLDocumentReader.defaultChunkSize) throws {
        self.container = container
        routes = RouteResolver(container: container)
        for name in container.duplicateEntryNames {
            sideFileWarnings["zip entry name appears more than once (the first is used): \(name)", default: 0] += 1
        }
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
        var all = decoder.warnings.merging(sideFileWarnings, uniquingKeysWith: +)
            .merging(routes.warnings, uniquingKeysWith: +)
        if document.replacedInvalidUTF8Bytes > 0 {
            all["bytes that were not valid UTF-8, replaced by '?'"] = document.replacedInvalidUTF8Bytes
        }
        if decoder.legacyRecords > 0 {
            // Not a problem: read in full. Reported so a person knows which reading rules applied.
            all[Self.legacyFormatNote] = decoder.legacyRecords
        }
        return all
    }

    public var elementCounts: [String: Int] { decoder.elementCounts }

    /// The summary line counting records of the iOS 8/9 format.
    public static let legacyFormatNote =
        "records in the iOS 8/9 format (compact dates, source=, metadata as attributes), read in full"

    /// The next item in document order: the decoder's rows and its other items interleaved as they came.
    /// A row is handed out as the `Sample` it holds, for the stages and writers that still take `Sample`s
    /// (an adapter until they take batches: docs/batches.md, step 8).
    public func next() throws -> ExportItem? {
        while true {
            let others = decoder.batch.others.count
            if nextOther < others, decoder.batch.others[nextOther].beforeRow <= nextRow {
                // Moved out instead of copied: a copy would retain every string and array the item holds.
                let item = decoder.batch.takeOther(nextOther)
                nextOther += 1
                return resolved(item)
            }
            if nextRow < decoder.batch.rowCount {
                nextRow += 1
                return .sample(decoder.batch.sample(at: nextRow - 1))
            }
            decoder.batch.removeClosedRows()
            nextRow = 0
            nextOther = 0
            if xmlFinished { return try nextTrailingItem() }
            do {
                xmlFinished = try !document.step()
            } catch let error as ImportError {
                throw error.located(file: container.path, entry: container.entryLabel)
            }
        }
    }

    /// An item with the side files it references read (a workout's routes, a clinical record's resource).
    private func resolved(_ item: consuming ExportItem) -> ExportItem {
        switch item {
        case .workout(var workout) where resolvesRoutes:
            routes.resolve(&workout)
            return .workout(workout)
        case .clinicalRecord(var record):
            resolveResource(&record)
            return .clinicalRecord(record)
        default:
            return item
        }
    }

    private func warn(_ message: String) { sideFileWarnings[message, default: 0] += 1 }

    /// Side files read whole: FHIR resources are a few kilobytes, an ECG of 30 s ~120 KB. An import holds a
    /// file about three times over (its bytes, its text or samples, SQLite's copy of the value), so this
    /// limit keeps memory flat; 64 MiB did not (a 46 MB ECG file: 168 MB).
    static let maximumSideFileSize = 4 * 1024 * 1024

    private func resolveResource(_ record: inout ClinicalRecord) {
        guard let path = record.resourceFilePath else { return }
        do {
            guard let stream = try container.openSideFile(path) else {
                record.problem = "FHIR file \(path) is not in the export"
                warn("clinical record file referenced but missing")
                return
            }
            let bytes = try stream.readAll(limit: Self.maximumSideFileSize)
            guard let json = FHIRText.utf8JSON(bytes) else {
                record.problem = "FHIR file \(path) is not valid JSON"
                warn("clinical record file is not valid JSON (resource not stored)")
                return
            }
            // As written; UTF-16 or UTF-32 (JSON allows them) as the same text in UTF-8, since read as UTF-8
            // it would be full of NULs.
            record.resourceJSON = json.text
            if json.reencoded { warn("clinical record file not in UTF-8 (stored re-encoded as UTF-8)") }
        } catch {
            record.problem = "\(error)"
            warn("clinical record file unreadable: \(error)")
        }
    }

    /// ECG CSVs and CDA documents come after the XML, as the exporter writes them. Read one at a time: an
    /// export can hold hundreds of recordings, and holding them all at once would make memory grow with it.
    /// The CDA document is only opened here; its bytes are read by the sink.
    private func nextTrailingItem() throws -> ExportItem? {
        if trailingPaths == nil {
            var paths = container.sideFiles(in: "electrocardiograms").filter { $0.lowercased().hasSuffix(".csv") }
            if let cda = cdaDocumentPath() { paths.append(cda) }
            trailingPaths = paths[...]
        }
        while let path = trailingPaths?.popFirst() {
            if let item = readTrailingItem(path) { return item }
        }
        return nil
    }

    private func readTrailingItem(_ path: String) -> ExportItem? {
        do {
            guard let stream = try container.openSideFile(path) else { return nil }
            if path.lowercased().hasSuffix("_cda.xml") { return openDocument(path, stream: stream) }
            let bytes = try stream.readAll(limit: Self.maximumSideFileSize)
            let name = String(path.split(separator: "/").last ?? Substring(path))
            return .electrocardiogram(try ECGReader.read(fileName: name, bytes: bytes))
        } catch let error as ImportError {
            warn("side file unreadable: \(error.located(file: container.path, entry: container.sideFileLabel(path)))")
        } catch {
            warn("side file unreadable: \(path): \(error)")
        }
        return nil
    }

    /// The CDA document, opened but not read: the sink streams it into the database (`StoredDocument`), so
    /// its size is not limited by memory. Its length must be known first, as the blob is sized before writing.
    private func openDocument(_ path: String, stream: ByteStream) -> ExportItem? {
        guard let size = stream.expectedSize else {
            warn("document not stored: \(container.sideFileLabel(path)) is not a regular file (its size is unknown)")
            return nil
        }
        return .document(
            StoredDocument(
                name: path, size: size, stream: stream, file: container.path, entry: container.sideFileLabel(path)))
    }

    /// `export_cda.xml` beside the main XML; its prefix is localised, the `_cda` suffix is not.
    private func cdaDocumentPath() -> String? {
        let main = container.mainEntry.split(separator: "/").last.map(String.init) ?? container.mainEntry
        let base = main.hasSuffix(".xml") ? String(main.dropLast(4)) : main
        for candidate in [base + "_cda.xml", "export_cda.xml"] {
            if (try? container.openSideFile(candidate)) != nil { return candidate }
        }
        return nil
    }
}
