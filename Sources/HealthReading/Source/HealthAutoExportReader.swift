import Foundation
import HealthJSON
import HealthModel

/// Reads one Health Auto Export JSON file (its REST/file automation format) as export items: each point of
/// `data.metrics` becomes a sample (a bucket of HealthKit's statistics, see docs/feed.md), each element of
/// `data.workouts` a workout. The file is streamed: a metric's points are handed on one at a time, whatever
/// their number.
///
/// A metric whose `data` array comes before its `name` (JSON objects have no order) is read in a second pass
/// over the file, once its name is known.
public final class HealthAutoExportReader: FeedReader, JSONScanVisitor {
    public static let formatName = "Health Auto Export"
    public static let fileExtensions = ["json"]

    public let path: String
    private let sources: FeedSources
    private let size: UInt64?
    private var stream: CountingStream?
    private var emit: ((consuming ExportItem) throws -> Void)?
    public private(set) var warnings: [String: Int] = [:]
    /// Per metric type: the earliest start and latest end of its points in this file (what the file covers).
    public private(set) var spans: [String: (start: Int64, end: Int64)] = [:]
    /// Points read, by metric name (for the summary).
    public private(set) var pointsByMetric: [String: Int] = [:]

    // The metric being read.
    private var metricIndex = 0
    private var metricName: String?
    private var metricUnits: String?
    private var points = FeedPoints()
    /// Pass 2 only reads the metrics whose name came after their points in pass 1, by index.
    private var deferred: [Int: (name: String?, units: String?)] = [:]
    private var secondPass = false
    private var readingPoints = false

    public var removedControlCharacters: Int { 0 }
    public var progress: (done: UInt64, total: UInt64?) { (stream?.bytesRead ?? 0, size) }

    /// `sources` is shared by every file of one run: the sink maps a source's id to its row once.
    public required init(path: String, sources: FeedSources) throws {
        self.path = path
        self.sources = sources
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        size = (attributes?[.size] as? NSNumber)?.uint64Value
    }

    public func produce(_ body: (consuming ExportItem) throws -> Void) throws {
        try withoutActuallyEscaping(body) { escapable in
            emit = escapable
            defer { emit = nil }
            do {
                try pass()
                if !deferred.isEmpty {
                    secondPass = true
                    try pass()
                }
            } catch let error as JSONError {
                throw ImportError(error, file: path)
            } catch var error as ImportError {
                error.file = path
                throw error
            }
        }
    }

    private func pass() throws {
        let file = CountingStream(try FileStream(path: path))
        stream = file
        var scanner = JSONArrayScanner(stream: file)
        scanner.maximumElementSize = 64 << 20
        metricIndex = 0
        try scanner.walk(self)
    }

    // MARK: - The document

    func mode(forArrayAt path: [String]) -> JSONElementMode {
        switch path {
        case ["data", "metrics"]: return .descend
        case ["data", "metrics", "data"], ["data"]:
            // A metric's points (["data"]: a file that is one metric object).
            if secondPass {
                readingPoints = deferred[metricIndex] != nil
                if readingPoints, let known = deferred[metricIndex] {
                    startMetric(name: known.name, units: known.units)
                }
                return .flat
            }
            if metricName == nil || metricUnits == nil {
                // Read in the second pass, once the whole metric object has been seen.
                deferred[metricIndex] = (nil, nil)
                readingPoints = false
            } else {
                readingPoints = true
                startMetric(name: metricName, units: metricUnits)
            }
            return .flat
        case ["data", "workouts"]: return secondPass ? .descend : .tree
        case ["data", "stateOfMind"]: return secondPass ? .descend : .tree
        default:
            if path.count == 2, path[0] == "data", !secondPass {
                warnings["Health Auto Export sections not read: \(path[1])", default: 0] += 1
            }
            return .descend
        }
    }

    func scalar(_ kind: JSONFlatObject.Kind, text: String, at path: [String]) {
        guard path.count >= 1 else { return }
        let inMetric = path.count == 3 && path[0] == "data" && path[1] == "metrics"
        let inBareMetric = path.count == 1
        guard inMetric || inBareMetric, kind == .string else { return }
        switch path.last {
        case "name": metricName = text
        case "units": metricUnits = text
        default: break
        }
    }

    func objectEnded(at path: [String]) throws {
        guard path == ["data", "metrics"] || path.isEmpty else { return }
        if readingPoints { try finishMetric() }
        if !secondPass, deferred[metricIndex] != nil { deferred[metricIndex] = (metricName, metricUnits) }
        readingPoints = false
        metricName = nil
        metricUnits = nil
        if path == ["data", "metrics"] { metricIndex += 1 }
    }

    func flatElement(_ object: JSONFlatObject, at path: [String], line: Int, column: Int) throws {
        guard readingPoints, let emit else { return }
        try points.add(object, line: line, warnings: &warnings, sources: sources, emit: emit)
    }

    func treeElement(_ element: JSON, at path: [String], line: Int, column: Int) throws {
        guard let emit else { return }
        if path == ["data", "stateOfMind"] {
            // As `--state-of-mind` reads them; the sink keeps one row per entry id (FeedMerge.swift).
            let origin = "\(self.path):\(line)"
            guard let entry = StateOfMindReader.entry(element, origin: origin, warnings: &warnings) else { return }
            try emit(.stateOfMind(entry))
            return
        }
        guard path == ["data", "workouts"] else { return }
        guard case .object = element else {
            warnings["Health Auto Export workouts that are not JSON objects (skipped)", default: 0] += 1
            return
        }
        guard let workout = FeedWorkouts.workout(element, line: line, sources: sources, warnings: &warnings) else {
            return
        }
        if let start = workout.startDate?.seconds, let end = workout.endDate?.seconds {
            widen(TypeCatalog.workoutType, start: start, end: end)
        }
        try emit(.workout(workout))
    }

    // MARK: - Metrics

    private func startMetric(name: String?, units: String?) {
        let name = name ?? ""
        let metric = HealthAutoExportMetrics.byName[name]
        if metric == nil {
            warnings[
                "Health Auto Export metrics not in healthetl's table (stored as "
                    + "\(HealthAutoExportMetrics.unknownIdentifier(name))): \(name)", default: 0] += 1
        }
        points.start(name: name, metric: metric, units: units ?? "")
    }

    private func finishMetric() throws {
        guard let emit else { return }
        try points.finish(warnings: &warnings, emit: emit)
        for (type, span) in points.spans { widen(type, start: span.start, end: span.end) }
        if points.count > 0 { pointsByMetric[points.name, default: 0] += points.count }
    }

    private func widen(_ type: String, start: Int64, end: Int64) {
        let old = spans[type] ?? (start, end)
        spans[type] = (min(old.start, start), max(old.end, end))
    }

    // MARK: - Recognising a feed

    /// Whether the file is JSON whose first 64 KB hold `"data"` and one of Health Auto Export's sections (or a
    /// bare metric: `"name"`, `"units"` and `"data"`).
    public static func recognises(path: String) -> Bool {
        guard let stream = try? FileStream(path: path) else { return false }
        var head = [UInt8](repeating: 0, count: 64 * 1024)
        var filled = 0
        while filled < head.count {
            let count =
                (try? head.withUnsafeMutableBytes {
                    try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
                }) ?? 0
            if count == 0 { break }
            filled += count
        }
        var index = 0
        if filled >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { index = 3 }
        while index < filled, [0x20, 0x0A, 0x0D, 0x09].contains(head[index]) { index += 1 }
        guard index < filled, head[index] == UInt8(ascii: "{") else { return false }
        let text = String(decoding: head[index..<filled], as: UTF8.self)
        guard text.contains("\"data\"") else { return false }
        return ["\"metrics\"", "\"workouts\"", "\"stateOfMind\"", "\"units\""].contains { text.contains($0) }
    }
}

/// A stream that counts the bytes read through it (for progress).
final class CountingStream: ByteStream {
    private let base: ByteStream
    private(set) var bytesRead: UInt64 = 0
    init(_ base: ByteStream) { self.base = base }
    var expectedSize: UInt64? { base.expectedSize }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        bytesRead += UInt64(count)
        return count
    }
}
