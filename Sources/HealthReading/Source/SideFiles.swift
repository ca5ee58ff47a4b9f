import Foundation
import HealthModel

/// The side files an export's items reference or that follow its XML: a workout's GPX routes, a clinical
/// record's FHIR resource, the ECG recordings and the CDA document. A missing or broken side file is a counted
/// warning, never a failed import.
///
/// A value, so each thread that decodes (`ExportReader`'s one, `ParallelExportReader`'s workers) resolves the
/// items it decoded with its own, and the warnings are summed at the end (their order does not matter).
struct SideFiles {
    let container: ExportContainer
    var routes: RouteResolver
    /// Asked before `resolved` reads a workout's GPX files (a workout that has some): true leaves them to
    /// whoever takes the workout, which resolves them with a `RouteResolver` of its own. Nil: always read here.
    var leavesRoutes: (@Sendable () -> Bool)?
    private var ownWarnings: [String: Int] = [:]
    private var trailingPaths: ArraySlice<String>?

    init(container: ExportContainer, countsDuplicateEntries: Bool = true) {
        self.container = container
        routes = RouteResolver(container: container)
        guard countsDuplicateEntries else { return }
        for name in container.duplicateEntryNames {
            ownWarnings["zip entry name appears more than once (the first is used): \(name)", default: 0] += 1
        }
    }

    /// Counted warnings of the side files read so far, routes included.
    var warnings: [String: Int] { ownWarnings.merging(routes.warnings, uniquingKeysWith: +) }

    /// Another thread's side-file warnings, summed into these.
    mutating func addWarnings(_ other: [String: Int]) { ownWarnings.merge(other, uniquingKeysWith: +) }

    /// An item with the side files it references read (a workout's routes, a clinical record's resource).
    mutating func resolved(_ item: consuming ExportItem) -> ExportItem {
        switch item {
        case .workout(var workout) where workout.hasUnreadRouteFile:
            if leavesRoutes?() == true { routes.leaveUnread(&workout) } else { routes.resolve(&workout) }
            return .workout(workout)
        case .clinicalRecord(var record):
            resolveResource(&record)
            return .clinicalRecord(record)
        default:
            return item
        }
    }

    private mutating func warn(_ message: String) { ownWarnings[message, default: 0] += 1 }

    private mutating func resolveResource(_ record: inout ClinicalRecord) {
        guard let path = record.resourceFilePath else { return }
        do {
            guard let stream = try container.openSideFile(path) else {
                record.problem = "FHIR file \(path) is not in the export"
                warn("clinical record file referenced but missing")
                return
            }
            let bytes = try stream.readAll(limit: ExportReader.maximumSideFileSize)
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

    /// Hands on `out` (the XML's last rows and items, possibly none) followed by the trailing side files, cut at
    /// `SampleBatch.fullWeight` as the XML's batches are: one definition for both readers.
    mutating func handOnTrailingItems(after out: inout SampleBatch, _ body: (inout SampleBatch) throws -> Void) throws {
        var weight = out.weight
        while let item = nextTrailingItem() { try out.append(item, weighing: &weight, handOn: body) }
        if out.hasContent { try out.handOn(body) }
    }

    /// ECG CSVs and CDA documents come after the XML, as the exporter writes them. Read one at a time: an
    /// export can hold hundreds of recordings, and holding them all at once would make memory grow with it.
    /// The CDA document is only opened here; its bytes are read by the sink.
    mutating func nextTrailingItem() -> ExportItem? {
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

    private mutating func readTrailingItem(_ path: String) -> ExportItem? {
        do {
            guard let stream = try container.openSideFile(path) else { return nil }
            if path.lowercased().hasSuffix("_cda.xml") { return openDocument(path, stream: stream) }
            let bytes = try stream.readAll(limit: ExportReader.maximumSideFileSize)
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
    private mutating func openDocument(_ path: String, stream: ByteStream) -> ExportItem? {
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
