import Foundation
import HealthModel
import HealthReading
import HealthSchema
import HealthStages
import HealthStore

/// Health Auto Export's JSON feed (docs/feed.md): one file, or a folder of them, read file by file in name
/// order into one transaction, each file merged by the feed's rule (docs/incremental.md, `FeedMerge`).
extension ImportJob {
    /// The feed files of an input, recognised by content: a JSON file of the app's format, or a folder whose
    /// `.json` files are (in name order: the app names them by date). nil when the input is not a feed (an
    /// export, or a folder holding one, is never taken for a feed).
    package static func feedFiles(_ path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return HealthAutoExportReader.looksLikeFeed(path: path) ? [path] : nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if names.contains(where: { $0 == "apple_health_export" || $0.lowercased().hasSuffix(".xml") }) { return nil }
        let files = names.filter { $0.lowercased().hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .map { (path as NSString).appendingPathComponent($0) }
            .filter { HealthAutoExportReader.looksLikeFeed(path: $0) }
        return files.isEmpty ? nil : files
    }

    func runFeed(_ files: [String]) throws -> ImportSummary {
        let clock = ContinuousClock()
        let started = clock.now
        var summary = ImportSummary()
        summary.startedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
        summary.input = inputPath
        summary.inputKind = "feed"
        summary.mainEntry = files.count == 1 ? (files[0] as NSString).lastPathComponent : "\(files.count) JSON files"
        summary.inputBytes = files.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.uint64Value ?? 0)
        }
        summary.inputFingerprint = feedFingerprint(files)
        var options = dedup
        options.feed = true
        options.convertsUnits = stages.contains { $0 is UnitStage }
        let sink = try openSink(options)
        summary.timeZone = sink.timeZone.identifier
        do {
            if !rescan, let fingerprint = summary.inputFingerprint, try sink.lastInputFingerprint() == fingerprint {
                summary.finishedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
                summary.seconds = ImportSummary.seconds(clock.now - started)
                return try sink.finishUnchanged(summary)
            }
        } catch {
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        let sources = FeedSources()
        var warnings: [String: Int] = [:]
        var stageReports: [String: [String: Int]] = [:]
        var pointsRead: [String: Int] = [:]
        var bytesRead: UInt64 = 0
        do {
            for file in files {
                let reader = try HealthAutoExportReader(path: file, sources: sources)
                sink.beginFeedFile()
                summary = try pump(reader, into: sink, summary: summary)
                warnings.merge(summary.warnings, uniquingKeysWith: +)
                for (stage, report) in summary.stages {
                    stageReports[stage, default: [:]].merge(report, uniquingKeysWith: +)
                }
                try sink.endFeedFile(spans: reader.spans)
                pointsRead.merge(reader.pointsByMetric, uniquingKeysWith: +)
                bytesRead += summary.xmlBytes
            }
        } catch {
            summary.warnings = warnings
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        summary.stages = stageReports
        summary.xmlBytes = bytesRead
        // The points read per metric, under the app's names (the counts by HealthKit type are in `changes`).
        for (metric, count) in pointsRead { summary.items["Health Auto Export points: \(metric)"] = count }
        summary.warnings = warnings
        return try finish(sink, summary: summary, started: started)
    }

    /// One file: decoded and staged on a second thread, written on this one (as `run` does for an export).
    private func pump(_ reader: HealthAutoExportReader, into sink: SQLiteSink, summary: ImportSummary) throws
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
