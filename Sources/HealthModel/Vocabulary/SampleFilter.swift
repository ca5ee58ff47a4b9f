/// Which samples a pipeline covers. nil fields do not filter.
public struct SampleFilter: Sendable, Equatable {
    /// Type identifiers (`HKWorkoutTypeIdentifier` for workouts).
    public var types: Set<String>?
    public var sources: Set<String>?
    /// Start instants, UTC seconds: `from` inclusive, `to` exclusive.
    public var from: Int64?
    public var to: Int64?

    public init(types: Set<String>? = nil, sources: Set<String>? = nil, from: Int64? = nil, to: Int64? = nil) {
        self.types = types
        self.sources = sources
        self.from = from
        self.to = to
    }

    /// The same text for the same filter in every process (for the input fingerprint).
    public var stableDescription: String {
        "types=\(types.map { $0.sorted().joined(separator: ",") } ?? "*");"
            + "sources=\(sources.map { $0.sorted().joined(separator: ",") } ?? "*");"
            + "from=\(from.map(String.init) ?? "*");to=\(to.map(String.init) ?? "*")"
    }

    public var isEmpty: Bool { types == nil && sources == nil && from == nil && to == nil }

    public func contains(type: String, source: String, start: Int64?) -> Bool {
        if let types, !types.contains(type) { return false }
        if let sources, !sources.contains(source) { return false }
        if from != nil || to != nil {
            guard let start else { return false }
            if let from, start < from { return false }
            if let to, start >= to { return false }
        }
        return true
    }
}
