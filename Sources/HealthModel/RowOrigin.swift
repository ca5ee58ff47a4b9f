/// Where a stored row came from: Apple's export, or a feed file read between exports (docs/feed.md). Stored
/// as the `origin` column of the sample tables and `workouts` (its raw value), by which an export retires
/// the feed rows it covers (docs/incremental.md).
public enum RowOrigin: Int, Sendable, CaseIterable {
    case export = 0
    case feed = 1

    /// The value as SQL text, for statements that select rows by their origin (`origin = 1`).
    public var sqlLiteral: String { String(rawValue) }
}
