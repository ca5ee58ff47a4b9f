import Foundation
import HealthModel
import HealthRollups
import HealthSQLite
import HealthSchema

/// One type's samples to roll up.
struct RollupJob: Sendable {
    var table: String
    var kind: TypeCatalog.SampleKind
    var type: String
    /// Set when only the type's changed periods are rebuilt.
    var refresh: RollupTables.Refresh?
}

/// Reads the samples of rollup jobs from one connection, sorted by start, and hands them to a
/// `RollupWorker` in batches. One feed per connection; it is used on one thread.
struct RollupFeed {
    /// The display names and device models of `sources`, by id.
    typealias Sources = [Int64: (name: String, model: String?)]

    private let statements: [String: SQLiteStatement]
    private let options: RollupOptions
    private let sources: Sources

    init(_ connection: SQLiteConnection, options: RollupOptions, sources: Sources) throws {
        var statements: [String: SQLiteStatement] = [:]
        for (table, kind) in RollupTables.sampleTables {
            let unusable = kind == .category ? RollupTables.unusableCategory : RollupTables.unusableQuantity
            // swift-format-ignore: NeverForceUnwrap
            let stored = TrackedTable(name: table)!.storageName
            statements[table] = try connection.prepare(
                """
                SELECT r.start_date, r.end_seconds, r.value, r.source_id, r.flags, r.unit
                FROM "\(stored)" AS r JOIN type_names AS t ON t.id = r.type_id
                WHERE t.type = ?1 AND r.start_date >= ?2 AND r.flags & \(unusable) = 0 ORDER BY r.start_date
                """)
        }
        self.statements = statements
        self.options = options
        self.sources = sources
    }

    /// Sends the job's usable samples to `worker` (nothing when it has none), calling `afterBatch` after each
    /// full batch: the caller inserts the rows computed meanwhile, or checks whether to stop.
    func feed(_ job: RollupJob, to worker: RollupWorker, afterBatch: () throws -> Void) throws {
        guard let samples = statements[job.table] else { return }
        let kind = job.kind
        let earliest = job.refresh.map { $0.from == Int64.min ? Int64.min : $0.from - $0.lookback } ?? Int64.min
        samples.bind(1, job.type)
        samples.bind(2, RollupTables.utcText(earliest))
        let priority = options.priorityByType[job.type] ?? options.priority
        var classes: [Int64: Int] = [:]
        var categories = CategoryNames()
        var batch: [RollupSample] = []
        batch.reserveCapacity(RollupWorker.batchSize)
        var begun = false
        try samples.forEachRow { row in
            guard let start = row.utcSeconds(0), !row.isNull(1) else { return }
            let end = row.integer(1)
            if !begun {
                begun = true
                worker.begin(
                    type: job.type, kind: kind, unit: kind == .category ? nil : row.text(5),
                    keepFrom: job.refresh?.from ?? Int64.min)
            }
            let sourceID = row.integer(3)
            let userEntered = row.integer(4) & SampleWriter.userEnteredFlag != 0
            let key = sourceID * 2 + (userEntered ? 1 : 0)
            let source = sources[sourceID] ?? ("", nil)
            let sourceClass =
                classes[key]
                ?? priority.sourceClass(sourceName: source.name, deviceModel: source.model, userEntered: userEntered)
            classes[key] = sourceClass
            batch.append(
                RollupSample(
                    start: start, end: end, value: kind == .category ? 0 : row.double(2),
                    category: kind == .category ? categories.name(row.columnView(2)) : nil, sourceName: source.name,
                    sourceClass: sourceClass))
            if batch.count == RollupWorker.batchSize {
                worker.add(batch)
                batch.removeAll(keepingCapacity: true)
                if worker.hasFailed { return }  // its error comes from `finish`
                try afterBatch()
            }
        }
        guard begun else { return }
        if !batch.isEmpty { worker.add(batch) }
        worker.end()
    }
}

/// A category type's values as shared strings: a type has a few (sleep stages), its samples millions, and a
/// string per sample (`HKCategoryValueSleepAnalysisAsleepCore` is too long to be stored inline) held 6.5 MB in
/// the workers' inboxes at the peak of a 4.6 GB export's rollup pass.
struct CategoryNames {
    private var known: [(bytes: [UInt8], name: String)] = []
    private var next = 0

    mutating func name(_ column: SQLiteColumnView) -> String? {
        guard case .text(let bytes) = column else { return nil }
        for entry in known where entry.bytes.elementsEqual(bytes) { return entry.name }
        let name = String(decoding: bytes, as: UTF8.self)
        if known.count < 16 {
            known.append((Array(bytes), name))
        } else {
            known[next] = (Array(bytes), name)  // a type with more values: the oldest goes
            next = (next + 1) % known.count
        }
        return name
    }
}

/// The jobs of one rollup pass, handed out one at a time to the threads that read them.
final class RollupJobQueue: Sendable {
    private let jobs = BoundedChannel<RollupJob>(capacity: nil)

    init(_ jobs: [RollupJob]) {
        for job in jobs { self.jobs.send(job) }
        self.jobs.finish()
    }

    /// The next job, or nil when none is left or the pass was cancelled.
    func take() -> RollupJob? { try? jobs.receive() }

    func cancel() { jobs.cancel() }
    var isCancelled: Bool { jobs.isCancelled }
}

/// One reader of a new database's rollup pass: on a thread of its own, with a read-only connection to the
/// file, it takes jobs from the shared queue and feeds them to a worker of its own. Only the importing
/// connection inserts, so the caller takes this worker's rows (`worker.takeOutput()`) and writes them.
final class RollupReader: Sendable {
    let worker: RollupWorker
    private let thread: WorkerThread

    init(path: String, jobs: RollupJobQueue, options: RollupOptions, sources: RollupFeed.Sources, timeZone: TimeZone) {
        let worker = RollupWorker(
            periods: options.periods, timeZone: timeZone, outboxRowLimit: RollupTables.parallelOutboxRowLimit)
        self.worker = worker
        thread = WorkerThread(name: "rollup reader") { _ in
            do {
                // Opened, used and closed on this thread: the file leaves WAL mode at the end of the run,
                // which needs every other connection closed.
                let connection = try SQLiteConnection(path: path, create: false, readOnly: true)
                // A type's rows are read in one sweep of its index range and table rows; a small cache keeps
                // the two readers from adding megabytes to the import's peak memory.
                try connection.execute("PRAGMA cache_size = -\(RollupTables.readerCacheKiB)")
                let feed = try RollupFeed(connection, options: options, sources: sources)
                while !worker.hasFailed, let job = jobs.take() {
                    try feed.feed(job, to: worker) { if jobs.isCancelled { throw CancellationError() } }
                }
            } catch {
                jobs.cancel()  // the other reader stops too
                throw error
            }
        }
    }

    /// Waits up to `seconds` for the reader to run out of jobs; true when it has. Rethrows what it threw.
    func waitUntilDone(seconds: Double) throws -> Bool { try thread.join(waitingAtMost: seconds) }
}
