import HealthModel

/// State of Mind valence shifting.
///
/// Valence lies in [-1, 1], so averaging it directly makes one very pleasant and one very unpleasant day look
/// "neutral" and hides how far from zero either was; every average healthetl computes is taken on the shifted
/// scale (valence + 1, in [0, 2]) and reported as a percent of it. A valence outside [-1, 1] is an error in
/// that entry: it is dropped and counted, never clamped.
public struct ValenceStage: ExportStage {
    public let name = "valence"
    public private(set) var report: [String: Int] = [:]

    public init() {}

    public mutating func process(_ item: consuming ExportItem, emit: (consuming ExportItem) throws -> Void) throws {
        guard case .stateOfMind(var entry) = item else {
            try emit(item)
            return
        }
        guard let valence = entry.valence else {
            report["state of mind entries without a valence (kept, no percent)", default: 0] += 1
            try emit(.stateOfMind(entry))
            return
        }
        guard valence.isFinite, valence >= -1, valence <= 1 else {
            report["state of mind entries with a valence outside [-1, 1] (not stored)", default: 0] += 1
            return
        }
        entry.valenceShifted = valence + 1
        entry.valencePercent = (valence + 1) / 2 * 100
        try emit(.stateOfMind(entry))
    }
}
