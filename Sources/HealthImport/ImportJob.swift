import Foundation
import HealthModel
import HealthReading
import HealthStages
import HealthStore

/// One import: source → stages → sink, with the summary of what happened.
///
/// This is what `healthetl import` runs; the CLI only parses arguments and prints.
public struct ImportJob {
    public var inputPath: String
    public var databasePath: String
    /// The zone of `local_date`; nil keeps the database's (else the machine's). A different zone than the
    /// database's recomputes every `local_date` in it.
    public var timeZone: TimeZone?
    public var stages: [any ExportStage] = [UnitStage(), ValenceStage()]
    /// A Health Auto Export JSON file with State of Mind entries (Apple's export has none).
    public var stateOfMindPath: String?
    /// The dedup switches (exact duplicates, sync versions), applied by the sink.
    public var dedup = SQLiteSink.Options()
    /// How long to wait for another import's lock on the database before giving up.
    public var lockTimeoutSeconds: Double = 10
    /// Called now and then with (bytes of XML read, total when known).
    public var progress: ((UInt64, UInt64?) -> Void)?
    /// Import even an export older than the database's newest (`--force`).
    public var allowOlderExport = false
    /// Read the export even when it is the same file as the last successful run (`--rescan`).
    public var rescan = false
    /// How errors name the database, when not by its path (a PostgreSQL working copy is named after the
    /// person: its path means nothing once the run is over, yet the message is stored in `import_runs`).
    public var databaseLabel: String?
    /// Route points a workout keeps in memory before they move to a temporary file (`RoutePointBuffer`);
    /// tests lower it to make small routes spill.
    package var routeSpillThreshold = RoutePointBuffer.defaultSpillThreshold

    public init(inputPath: String, databasePath: String, timeZone: TimeZone?) {
        self.inputPath = inputPath
        self.databasePath = databasePath
        self.timeZone = timeZone
    }

    public func run() throws -> ImportSummary {
        let clock = ContinuousClock()
        let started = clock.now
        var summary = ImportSummary()
        summary.startedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
        summary.input = inputPath

        let container = try ExportContainer(path: inputPath)
        summary.inputKind = container.kind.rawValue
        summary.mainEntry = container.mainEntry
        summary.inputBytes = container.inputSize
        summary.inputFingerprint = inputFingerprint(container)
        var options = dedup
        options.allowOlderExport = allowOlderExport
        options.replacesStateOfMind = stateOfMindPath != nil
        options.convertsUnits = stages.contains { $0 is UnitStage }
        let sink: SQLiteSink
        do {
            sink = try SQLiteSink(
                path: databasePath, timeZone: timeZone, options: options,
                lockTimeoutMilliseconds: Int32(lockTimeoutSeconds * 1000))
        } catch {
            throw labeled(error)
        }
        summary.timeZone = sink.timeZone.identifier
        let reader: ExportReader
        do {
            if !rescan, let fingerprint = summary.inputFingerprint, try sink.lastInputFingerprint() == fingerprint {
                summary.finishedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
                summary.seconds = ImportSummary.seconds(clock.now - started)
                return try sink.finishUnchanged(summary)
            }
            reader = try ExportReader(container: container)
        } catch {
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }

        // Decode on a second thread while this one writes. Reading the GPX files of routes runs on the thread
        // with time to spare: the decoding one in a first import, this one in a re-import, where most samples
        // are only looked up (see `ItemQueue.decoderDoesMore`).
        let queue = ItemQueue(decoderDoesMore: !sink.updatesExistingDatabase)
        var writerRoutes = queue.decoderDoesMore ? nil : RouteResolver(container: container)
        writerRoutes?.spillThreshold = routeSpillThreshold
        reader.resolvesRoutes = queue.decoderDoesMore
        reader.routeSpillThreshold = routeSpillThreshold
        let production = Production(reader: reader, stages: stages, progress: progress, summary: summary)
        production.stateOfMindPath = stateOfMindPath
        let produced = Handoff(production)
        let decoder = Thread {
            produced.value.run(into: queue)
        }
        decoder.stackSize = 8 << 20
        decoder.name = "decode"
        decoder.start()
        do {
            while var batch = try queue.pop() {
                // By index: each item is borrowed from the batch, not copied out of it (a retain and a release of
                // every string and array it holds, for millions of items).
                for index in batch.items.indices {
                    if writerRoutes != nil, case .workout(var workout) = batch.items[index] {
                        batch.items[index] = .header(locale: nil, exportDate: nil)  // `workout` is the only copy
                        writerRoutes?.resolve(&workout)
                        try sink.write(.workout(workout))
                    } else {
                        let identity = batch.identities.isEmpty ? nil : batch.identities[index]
                        try sink.write(batch.items[index], sampleIdentity: identity)
                    }
                }
                queue.giveBack(batch)
                try Interruption.check(file: databasePath)
            }
        } catch {
            queue.cancel()
            produced.value.waitUntilDone()
            sink.abort(recording: labeled(error), summary: produced.value.summary)
            throw labeled(error)
        }
        produced.value.waitUntilDone()
        summary = produced.value.summary
        if let writerRoutes { summary.warnings.merge(writerRoutes.warnings, uniquingKeysWith: +) }
        summary.rows = sink.rowCounts
        summary.dropped = sink.dropped
        summary.warnings.merge(sink.warnings, uniquingKeysWith: +)
        for (type, count) in sink.unknownTypes {
            summary.warnings["records of a type not in the HealthKit catalog (stored by the fallback rule): \(type)"] =
                count
        }
        summary.finishedAt = TimestampFormatting.utcString(Int64(Date().timeIntervalSince1970))
        summary.seconds = ImportSummary.seconds(clock.now - started)
        do {
            summary = try sink.finish(summary)
        } catch {
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        summary.seconds = ImportSummary.seconds(clock.now - started)
        return summary
    }

    /// The fingerprint `run()` compares with the last successful run's; nil for inputs that are not zips.
    package func expectedInputFingerprint() throws -> String? {
        inputFingerprint(try ExportContainer(path: inputPath))
    }

    /// What decides the database's content besides the export: the zip's table of contents, the stages and
    /// dedup rules, the State of Mind file, and the versions of the tool and schema. The time zone is left
    /// out on purpose: changing it only recomputes `local_date`, which the sink does without a re-read.
    /// nil (no shortcut) for inputs that are not zips.
    func inputFingerprint(_ container: ExportContainer) -> String? {
        guard let content = container.contentFingerprint else { return nil }
        var parts = [
            content, "stages=" + stages.map(\.name).joined(separator: ","),
            "exact=\(dedup.dropExactDuplicates),sync=\(dedup.keepHighestSyncVersion)",
            "scope=" + dedup.scope.stableDescription,
            "tool=\(HealthETLVersion.current),schema=\(Schema.userVersion)",
        ]
        if let stateOfMindPath {
            let attributes = try? FileManager.default.attributesOfItem(atPath: stateOfMindPath)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            parts.append("stateOfMind=\(stateOfMindPath),\(size),\(modified)")
        }
        var hasher = StableHasher()
        for part in parts { hasher.combine(part) }
        return String(UInt64(bitPattern: hasher.finish()), radix: 16)
    }

    /// The error with the database named by `databaseLabel`.
    func labeled(_ error: Error) -> Error {
        guard let databaseLabel, var error = error as? ImportError, error.file == databasePath else { return error }
        error.file = databaseLabel
        return error
    }
}

extension ImportJob: DatabaseImport {
    package func run(into path: String, label: String) throws -> ImportSummary {
        var job = self
        job.databasePath = path
        job.databaseLabel = label
        return try job.run()
    }
}
