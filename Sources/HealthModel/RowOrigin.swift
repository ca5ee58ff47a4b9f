/// Where a stored row came from: Apple's export, or a feed file read between exports (docs/feed.md). Stored
/// as the `origin` column of the sample tables and `workouts` (its raw value), by which an export retires
/// the feed rows it covers (docs/incremental.md).
public enum RowOrigin: Int64, Sendable, CaseIterable {
    case export = 0
    case feed = 1

    /// The SQL condition that selects the rows of this origin (`origin = 1`).
    public var condition: String { "origin = \(rawValue)" }
}
