/// Where a row of the sample tables or `workouts` came from: the `origin` column (`FeedSchema.originColumn`).
enum RowOrigin: Int64 {
    /// A full export (`export.zip`).
    case export = 0
    /// Health Auto Export's JSON feed (FeedMerge.swift).
    case feed = 1

    /// The SQL condition that selects the rows of this origin (`origin = 1`).
    var condition: String { "origin = \(rawValue)" }
}
