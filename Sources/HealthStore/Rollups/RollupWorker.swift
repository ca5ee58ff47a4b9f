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
final class RollupWorker: Sendable {
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
    }

    static let batchSize = 4096
    /// Batches waiting for the engine: enough to keep both threads busy; each is ~260 KB, and a parallel pass
    /// has two workers (eight held ~5 MB at the peak of a 4.6 GB export's pass).
    private static let inboxLimit = 3

    private let inbox = BoundedChannel<Work>(capacity: inboxLimit)
    /// Bounded by rows when `outboxRowLimit` is set; ends (with the engine's error, if any) when the worker does.
    private let outbox: BoundedChannel<Output>

    init(periods: [RollupPeriod], timeZone: TimeZone, outboxRowLimit: Int? = nil) {
        let inbox = self.inbox
        let outbox = BoundedChannel<Output>(capacity: outboxRowLimit) { $0.rows.count }
        self.outbox = outbox
        // Not joined: the thread ends when the inbox does (`finish`, `cancel`), and `finish` waits for its rows.
        _ = WorkerThread(name: "rollups") { _ in
            do {
                try Self.work(inbox: inbox, outbox: outbox, periods: periods, timeZone: timeZone)
                outbox.finish()
            } catch {
                inbox.cancel()  // a sender waiting for room goes on; what it sends now is dropped
                outbox.finish(throwing: error)
            }
        }
    }

    func begin(type: String, kind: TypeCatalog.SampleKind, unit: String?, keepFrom: Int64) {
        inbox.send(.begin(type: type, kind: kind, unit: unit, keepFrom: keepFrom))
    }

    func add(_ batch: [RollupSample]) { inbox.send(.samples(batch)) }

    /// True once the engine has failed: what is sent is dropped, and `finish` throws its error. A feeder stops
    /// reading then instead of reading every remaining job first.
    var hasFailed: Bool { inbox.isCancelled }
    func end() { inbox.send(.end) }

    /// The rows computed so far (without waiting).
    func takeOutput() -> [Output] { outbox.drain() }

    /// Waits for the last rows; rethrows what the engine threw. The rows are taken while it waits, so a
    /// worker held by `outboxRowLimit` can go on.
    func finish() throws -> [Output] {
        inbox.finish()
        var output: [Output] = []
        while let rows = try outbox.receive() { output.append(rows) }
        return output
    }

    /// Stops the worker without waiting for it and drops what it has not done (a pass that failed).
    func cancel() {
        inbox.cancel()
        outbox.cancel()
    }

    /// Rows handed over at a time. A batch of samples can close buckets over years (a sparse type of a
    /// 25-year export: tens of thousands of rows, 8.6 MB held at once), and `outboxRowLimit` only bounds the
    /// rows delivered.
    static let rowsPerDelivery = 1024

    /// The worker thread's loop: the engine of the current type over each batch, its rows delivered in parts.
    private static func work(
        inbox: BoundedChannel<Work>, outbox: BoundedChannel<Output>, periods: [RollupPeriod], timeZone: TimeZone
    ) throws {
        var engine: RollupEngine?
        var current = Output(type: "", kind: .discrete, unit: nil, keepFrom: .min, rows: [])
        func append(_ row: RollupRow, to output: inout Output) {
            output.rows.append(row)
            if output.rows.count >= rowsPerDelivery {
                outbox.send(output)
                output.rows = []
                output.rows.reserveCapacity(rowsPerDelivery)
            }
        }
        func deliver(_ output: Output) {
            if !output.rows.isEmpty { outbox.send(output) }
        }
        while let next = try inbox.receive(), !outbox.isFinished {
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
            }
        }
    }
}
