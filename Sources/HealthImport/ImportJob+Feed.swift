import Foundation
import HealthModel
import HealthReading
import HealthSchema
import HealthStages
import HealthStore

/// A feed (docs/feed.md): one file, or a folder of them, of the formats in `FeedFormats`, read file by file in
/// name order into one transaction, each file merged by the feed's rule (docs/incremental.md, `FeedMerge`).
extension ImportJob {
    func runFeed(_ files: [FeedFile], started: ContinuousClock.Instant) throws -> ImportSummary {
        let bytes = files.reduce(UInt64(0)) { total, file in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.uint64Value
                    ?? 0)
        }
        var summary = startSummary(
            kind: "feed",
            mainEntry: files.count == 1
                ? (files[0].path as NSString).lastPathComponent : "\(files.count) JSON files",
            bytes: bytes, fingerprint: feedFingerprint(files.map(\.path)))
        var options = storeOptions
        options.feed = true
        let sink: SQLiteSink
        switch try open(&summary, options: options, started: started) {
        case .unchanged(let finished): return finished
        case .opened(let opened): sink = opened
        }
        let sources = FeedSources()
        var warnings: [String: Int] = [:]
        var stageReports: [String: [String: Int]] = [:]
        var pointsRead: [String: Int] = [:]
        var bytesRead: UInt64 = 0
        do {
            for file in files {
                let reader = try file.reader(sources: sources)
                sink.beginFeedFile()
                summary = try pump(reader, into: sink, summary: summary)
                warnings.merge(summary.warnings, uniquingKeysWith: +)
                for (stage, report) in summary.stages {
                    stageReports[stage, default: [:]].merge(report, uniquingKeysWith: +)
                }
                try sink.endFeedFile(spans: reader.spans)
                // The points read per metric, under the format's names (the counts by HealthKit type are in
                // `changes`).
                for (metric, count) in reader.pointsByMetric {
                    pointsRead["\(file.format.formatName) points: \(metric)", default: 0] += count
                }
                bytesRead += summary.xmlBytes
            }
        } catch {
            summary.warnings = warnings
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        summary.stages = stageReports
        summary.xmlBytes = bytesRead
        for (label, count) in pointsRead { summary.items[label] = count }
        summary.warnings = warnings
        return try finish(sink, summary: summary, started: started)
    }

    /// One file: decoded and staged on a second thread, written on this one (as `run` does for an export).
    private func pump(_ reader: any FeedReader, into sink: SQLiteSink, summary: ImportSummary) throws
        -> ImportSummary
    {
        let queue = ItemQueue(placement: WorkPlacement(updatesExistingDatabase: sink.updatesExistingDatabase))
        var start = summary
        start.warnings = [:]
        start.stages = [:]
        let production = Production(reader: reader, stages: stages, progress: progress, summary: start)
        var noRoutes: RouteResolver?
        do {
            return try transfer(production, queue: queue, into: sink, writerRoutes: &noRoutes)
        } catch let failed as FailedTransfer {
            throw failed.error
        }
    }

    /// The unchanged-input shortcut's key for a feed: every file's identity on disk (as for an unzipped export),
    /// the stages, and the versions of the tool and schema.
    func feedFingerprint(_ files: [String]) -> String {
        var hasher = StableHasher()
        hasher.combine("feed")
        for file in files {
            var info = stat()
            hasher.combine(file)
            if stat(file, &info) == 0 {
                for part in [
                    Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
                    Int64(info.st_mtim.tv_nsec),
                ] {
                    hasher.combine(part)
                }
            }
        }
        hasher.combine("stages=" + stages.map(\.name).joined(separator: ","))
        hasher.combine("tool=\(HealthETLVersion.current),schema=\(Schema.userVersion)")
        return "feed:" + String(UInt64(bitPattern: hasher.finish()), radix: 16)
    }
}
