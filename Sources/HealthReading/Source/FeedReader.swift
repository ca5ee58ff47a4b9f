import Foundation
import HealthModel

/// One feed format: the files an app writes between exports (docs/feed.md), read as items. A format is a
/// reader type that recognises its files by content and reads one file; `FeedFormats.all` registers it, and
/// the import (`ImportJob+Feed`) does the rest: every file of a run into one transaction, each merged by the
/// feed's rule with the exports' rows (docs/incremental.md), its rows stored with `RowOrigin.feed`.
public protocol FeedReader: ItemSource {
    /// The format's name in the summary ("Health Auto Export points: step_count").
    static var formatName: String { get }
    /// The name endings (lowercased, without the dot) of the format's files in a folder of feed files.
    static var fileExtensions: [String] { get }
    /// Whether the file at `path` is of this format, judged from its content (its first bytes).
    static func recognises(path: String) -> Bool
    /// A reader of one file; `sources` is shared by every file of one run, so a source keeps one row.
    init(path: String, sources: FeedSources) throws
    /// Per type: the earliest start and latest end of the file's items, known once it has been read (what the
    /// file covers: the sink retires the feed rows of earlier files inside it).
    var spans: [String: (start: Int64, end: Int64)] { get }
    /// Points read, by the format's own metric names (for the summary).
    var pointsByMetric: [String: Int] { get }
}

/// The feed formats healthetl reads. A new format is its `FeedReader` type and one line here.
public enum FeedFormats {
    public static var all: [any FeedReader.Type] { [HealthAutoExportReader.self] }

    /// The format of the file at `path`, by content; nil when it is none of them.
    public static func format(of path: String) -> (any FeedReader.Type)? {
        all.first { $0.recognises(path: path) }
    }

    /// Whether a folder entry's name ends like one of the formats' files.
    static func hasFeedExtension(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return all.contains { format in format.fileExtensions.contains { lowercased.hasSuffix("." + $0) } }
    }

    /// The feed files of an input, recognised by content: a file of a feed format, or a folder whose files of
    /// the formats' name endings are (in name order: apps name them by date). nil when the input is not a
    /// feed (an export, or a folder holding one, is never taken for a feed).
    public static func files(_ path: String) -> [FeedFile]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return format(of: path).map { [FeedFile(path: path, format: $0)] } }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if names.contains(where: { $0 == "apple_health_export" || $0.lowercased().hasSuffix(".xml") }) { return nil }
        let files = names.filter { hasFeedExtension($0) && !$0.hasPrefix(".") }.sorted()
            .map { (path as NSString).appendingPathComponent($0) }
            .compactMap { file in format(of: file).map { FeedFile(path: file, format: $0) } }
        return files.isEmpty ? nil : files
    }
}

/// One file of a feed run and the format it was recognised as.
public struct FeedFile {
    public var path: String
    public var format: any FeedReader.Type

    public init(path: String, format: any FeedReader.Type) {
        self.path = path
        self.format = format
    }

    public func reader(sources: FeedSources) throws -> any FeedReader { try format.init(path: path, sources: sources) }
}

/// The sources of a feed run, interned by name and shared by its files: `source` as written (`Nam’s Apple
/// Watch|iPhone`: the sources HealthKit merged into the bucket), or `Health Auto Export` when it is null.
public final class FeedSources {
    public static let defaultName = "Health Auto Export"
    private var byName: [String: SampleSource] = [:]
    private var nextID: Int

    /// `firstID`: ids below it are taken (none in a feed run).
    public init(firstID: Int = 0) { nextID = firstID }

    private var last: (bytes: [UInt8], source: SampleSource)?

    /// The source of a point (its `source` field), found by its bytes: a metric's points mostly share one.
    func source(_ point: JSONFlatObject) -> SampleSource {
        guard let (kind, range) = point.field("source"), kind == .string, !range.isEmpty else { return source(nil) }
        if let last, last.bytes.elementsEqual(point.storage[range]) { return last.source }
        let found = source(point.text(range))
        last = (Array(point.storage[range]), found)
        return found
    }

    public func source(_ name: String?) -> SampleSource {
        let name = (name?.isEmpty ?? true) ? Self.defaultName : name!  // swift-format-ignore: NeverForceUnwrap
        if let known = byName[name] { return known }
        let source = SampleSource(id: nextID, name: name, version: nil, device: nil)
        nextID += 1
        byName[name] = source
        return source
    }
}
