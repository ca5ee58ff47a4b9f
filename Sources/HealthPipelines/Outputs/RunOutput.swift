import Foundation

/// Something a run writes from its finished database besides the database itself: a CSV folder, the HTML
/// report, and every output added later. Each is a reading peer in a target of its own; it plugs into runs
/// through one registration (`PipelineOutputKind`), and `PipelinePlan` writes every output of a run the same way,
/// in the order given, after the import has committed.
public protocol RunOutput: Sendable {
    /// The kind's key: the pipeline file's sink key (`"csv"`), and the word of the summary's JSON.
    var key: String { get }
    /// Where it is written, as messages name it.
    var destination: String { get }
    /// What `healthetl run --dry-run` says it would write, after "<key>: ".
    var plannedDescription: String { get }
    /// Drawn from a database the run keeps: not from the scratch database of a run without one, nor from a
    /// PostgreSQL person's working copy (the report reads the whole history the file holds).
    var needsKeptDatabase: Bool { get }
    /// Writes it from the database at `databasePath`.
    func produce(from databasePath: String) throws -> RunOutputResult
    /// For a run that keeps no database: runs `body` with the path of a scratch database placed beside this
    /// output (dedup and the rollups need one on disk), removed afterwards; nil when it cannot host one.
    func hostScratchDatabase<T>(_ body: (_ path: String) throws -> T) throws -> T?
    /// The same kind with the same settings (a pipeline definition is a value that can be compared).
    func isSame(as other: any RunOutput) -> Bool
}

extension RunOutput where Self: Equatable {
    public func isSame(as other: any RunOutput) -> Bool { (other as? Self) == self }
}

extension RunOutput {
    public var needsKeptDatabase: Bool { false }
    public func hostScratchDatabase<T>(_ body: (_ path: String) throws -> T) throws -> T? { nil }
}

/// What writing one output did, for the run's summary.
public struct RunOutputResult: Sendable {
    public var key: String
    /// The lines the text summary prints for it (empty: none).
    public var text: String
    /// What `--json` adds under `key` (nil: nothing).
    public var json: (any Encodable & Sendable)?
    /// The output's own report, for callers that know its kind (`PipelinePlan.Result.csv`).
    public var detail: any Sendable

    public init(key: String, text: String, json: (any Encodable & Sendable)?, detail: any Sendable) {
        self.key = key
        self.text = text
        self.json = json
        self.detail = detail
    }
}

/// A run's outputs in order, comparable as a value.
public struct RunOutputs: Sendable, Equatable {
    public var items: [any RunOutput] = []

    public init(_ items: [any RunOutput] = []) { self.items = items }

    public static func == (lhs: RunOutputs, rhs: RunOutputs) -> Bool {
        lhs.items.count == rhs.items.count && zip(lhs.items, rhs.items).allSatisfy { $0.isSame(as: $1) }
    }

    /// The first output of a concrete kind.
    public func first<Output: RunOutput>(_ kind: Output.Type) -> Output? {
        items.lazy.compactMap { $0 as? Output }.first
    }

    /// Replaces the outputs of `Output`'s kind by `output` (none when nil), keeping the others' order.
    public mutating func set<Output: RunOutput>(_ output: Output?, as kind: Output.Type) {
        if let index = items.firstIndex(where: { $0 is Output }) {
            if let output { items[index] = output } else { items.remove(at: index) }
        } else if let output {
            items.append(output)
        }
    }
}
