import Foundation
import HealthModel
import HealthReading
import HealthSchema
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
    /// What the SQLite sink is told: the dedup switches (exact duplicates, sync versions), the run's scope, the
    /// rollup options, whether it is a feed run, the unit setting.
    public var storeOptions = SQLiteSink.Options()
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
    /// Threads decoding the export's XML (`--threads`): 1 reads it as `ExportReader` always did; more cut it
    /// into chunks decoded at once (`ParallelExportReader`), with the same rows, ids, warnings and errors.
    /// nil: as `WorkPlacement.decoders` decides for the run (one into a new database, two for a re-import).
    public var threads: Int?
    public static let maximumThreads = 64
    /// The size the XML is cut into for several threads; tests lower it to cut a small export into many chunks.
    package var decodeChunkSize = TopLevelSplitter.defaultTargetSize

    public init(inputPath: String, databasePath: String, timeZone: TimeZone?) {
        self.inputPath = inputPath
        self.databasePath = databasePath
        self.timeZone = timeZone
    }

    public func run() throws -> ImportSummary {
        let started = ContinuousClock.now
        // A feed file (Health Auto Export's JSON, …), recognised by content (ImportJob+Feed.swift).
        if stateOfMindPath == nil, let feed = FeedFormats.files(inputPath) {
            return try runFeed(feed, started: started)
        }

        let container = try ExportContainer(path: inputPath)
        var summary = startSummary(
            kind: container.kind.rawValue, mainEntry: container.mainEntry, bytes: container.inputSize,
            fingerprint: inputFingerprint(container))
        var options = storeOptions
        options.allowOlderExport = allowOlderExport
        options.replacesStateOfMind = stateOfMindPath != nil
        let sink: SQLiteSink
        switch try open(&summary, options: options, started: started) {
        case .unchanged(let finished): return finished
        case .opened(let opened): sink = opened
        }
        let reader: any ItemSource
        let placement = WorkPlacement(updatesExistingDatabase: sink.updatesExistingDatabase)
        let decoders = threads ?? placement.decoders
        // Decode on a second thread while this one writes; the work either could do goes to the one with time
        // to spare (`WorkPlacement`).
        let queue = ItemQueue(placement: placement)
        let sharesRoutes = placement.writerSharesRoutes(decoders: decoders)
        var leavesRoutes: (@Sendable () -> Bool)?
        if sharesRoutes { leavesRoutes = { queue.writerIsShortOfWork() } }
        do {
            reader = try makeReader(container, threads: decoders, leavesRoutes: leavesRoutes)
        } catch {
            sink.abort(recording: labeled(error), summary: summary)
            throw labeled(error)
        }
        var writerRoutes = sharesRoutes ? RouteResolver(container: container) : nil
        writerRoutes?.spillThreshold = routeSpillThreshold
        let production = Production(reader: reader, stages: stages, progress: progress, summary: summary)
        production.stateOfMindPath = stateOfMindPath
        do {
            summary = try transfer(production, queue: queue, into: sink, writerRoutes: &writerRoutes)
        } catch let failed as FailedTransfer {
            sink.abort(recording: labeled(failed.error), summary: failed.summary)
            throw labeled(failed.error)
        }
        if let writerRoutes { summary.warnings.merge(writerRoutes.warnings, uniquingKeysWith: +) }
        return try finish(sink, summary: summary, started: started)
    }

    /// One decoding thread: `ExportReader`, which reads the routes' GPX files unless `leavesRoutes` says
    /// otherwise; more: `ParallelExportReader`, whose workers read them, each for its own chunks.
    private func makeReader(
        _ container: ExportContainer, threads: Int, leavesRoutes: (@Sendable () -> Bool)?
    ) throws -> any ItemSource {
        if threads <= 1 {
            let reader = try ExportReader(container: container)
            reader.leavesRoutes = leavesRoutes
            reader.routeSpillThreshold = routeSpillThreshold
            return reader
        }
        let reader = try ParallelExportReader(container: container, threads: threads)
        reader.chunkTargetSize = decodeChunkSize
        reader.routeSpillThreshold = routeSpillThreshold
        return reader
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
            "exact=\(storeOptions.dropExactDuplicates),sync=\(storeOptions.keepHighestSyncVersion)",
            "scope=" + storeOptions.scope.stableDescription,
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
