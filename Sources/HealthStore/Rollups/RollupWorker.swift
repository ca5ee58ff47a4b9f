import Foundation
import HealthModel
import HealthRollups

/// Runs the `RollupEngine`s on a thread of their own, so the engine's sweep overlaps SQLite reading the next
/// samples (the two cost about the same). The SQLite thread sends batches of one type's samples and takes back
/// the rows to insert; only it touches the connection. The inbox is bounded, so memory stays flat.
///
/// When another thread sends the samples and the inserting thread only takes rows (a parallel pass), the
/// rows can come faster than they are inserted; `outboxRowLimit` then makes the worker wait for them to be
/// taken. (A thread that both sends and takes must not set it: it could wait on a full inbox while the
/// worker waits on a full outbox.)
final class RollupWorker: @unchecked Sendable {
    /// Rows of one type, with what inserting them needs.
    struct Output {
        var type: String
        var kind: TypeCatalog.SampleKind
        var unit: String?
        /// Rows of periods starting before this are dropped (a partial rebuild keeps those).
        var keepFrom: Int64
        var rows: [RollupRow]
    }

    private enum Work {
        case begin(type: String, kind: TypeCatalog.SampleKind, unit: String?, keepFrom: Int64)
        case samples([RollupSample])
        case end
        case stop
    }

    static let batchSize = 4096
    /// Batches waiting for the engine: enough to keep both threads busy; each is ~260 KB, and a parallel pass
    /// has two workers (eight held ~5 MB at the peak of a 4.6 GB export's pass).
    private static let inboxLimit = 3

    private let condition = NSCondition()
    private var inbox: [Work] = []
    private var outbox: [Output] = []
    private var outboxRows = 0
    private let outboxRowLimit: Int?
    private var failure: Error?
    private var stopped = false
    private var cancelled = false
    private let periods: [RollupPeriod]
    private let timeZone: TimeZone

    init(periods: [RollupPeriod], timeZone: TimeZone, outboxRowLimit: Int? = nil) {
        self.periods = periods
        self.timeZone = timeZone
        self.outboxRowLimit = outboxRowLimit
        let thread = Thread { [self] in work() }
        thread.name = "rollups"
        thread.start()
    }

    func begin(type: String, kind: TypeCatalog.SampleKind, unit: String?, keepFrom: Int64) {
        send(.begin(type: type, kind: kind, unit: unit, keepFrom: keepFrom))
    }

    func add(_ batch: [RollupSample]) { send(.samples(batch)) }
    func end() { send(.end) }

    /// The rows computed so far (without waiting).
    func takeOutput() -> [Output] {
        condition.lock()
        defer { condition.unlock() }
        let output = outbox
        outbox.removeAll()
        outboxRows = 0
        condition.broadcast()
        return output
    }

    /// Waits for the last rows; rethrows what the engine threw. The rows are taken while it waits, so a
    /// worker held by `outboxRowLimit` can go on.
    func finish() throws -> [Output] {
        condition.lock()
        var output: [Output] = []
        func takeWaiting() {
            output += outbox
            outbox.removeAll()
            outboxRows = 0
            condition.broadcast()
        }
        while inbox.count >= Self.inboxLimit, !stopped {
            takeWaiting()
            condition.wait()
        }
        if !stopped { inbox.append(.stop) }
        condition.broadcast()
        while !stopped {
            takeWaiting()
            condition.wait()
        }
        output += outbox
        outbox.removeAll()
        let failure = failure
        condition.unlock()
        if let failure { throw failure }
        return output
    }

    private func send(_ work: Work) {
        condition.lock()
        while inbox.count >= Self.inboxLimit, !stopped { condition.wait() }
        if !stopped { inbox.append(work) }
        condition.broadcast()
        condition.unlock()
    }

    /// Rows handed over at a time. A batch of samples can close buckets over years (a sparse type of a
    /// 25-year export: tens of thousands of rows, 8.6 MB held at once), and `outboxRowLimit` only bounds the
    /// rows delivered.
    static let rowsPerDelivery = 1024

    private func append(_ row: RollupRow, to output: inout Output) {
        output.rows.append(row)
        if output.rows.count >= Self.rowsPerDelivery {
            deliver(output)
            output.rows = []
            output.rows.reserveCapacity(Self.rowsPerDelivery)
        }
    }

    private func deliver(_ output: Output) {
        guard !output.rows.isEmpty else { return }
        condition.lock()
        if let outboxRowLimit {
            while outboxRows >= outboxRowLimit, !stopped, !cancelled { condition.wait() }
        }
        outbox.append(output)
        outboxRows += output.rows.count
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the worker without waiting for it and drops what it has not done (a pass that failed).
    func cancel() {
        condition.lock()
        cancelled = true
        inbox.removeAll()
        inbox.append(.stop)
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        var engine: RollupEngine?
        var current = Output(type: "", kind: .discrete, unit: nil, keepFrom: .min, rows: [])
        while true {
            condition.lock()
            while inbox.isEmpty { condition.wait() }
            let next = inbox.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                switch next {
                case .begin(let type, let kind, let unit, let keepFrom):
                    engine = RollupEngine(typeIdentifier: type, kind: kind, periods: periods, timeZone: timeZone)
                    current = Output(type: type, kind: kind, unit: unit, keepFrom: keepFrom, rows: [])
                case .samples(let batch):
                    var output = current
                    for sample in batch { try engine?.add(sample) { append($0, to: &output) } }
                    deliver(output)
                case .end:
                    var output = current
                    engine?.finish { append($0, to: &output) }
                    engine = nil
                    deliver(output)
                case .stop:
                    condition.lock()
                    stopped = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
            } catch {
                condition.lock()
                failure = error
                stopped = true
                inbox.removeAll()
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}
