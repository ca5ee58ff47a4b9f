import HealthModel

/// What Health Auto Export's feed adds to the schema: an `origin` column on the sample tables and `workouts`
/// (part of schema 4; a database of version 3 gets it when it is upgraded), and partial indexes over the feed's
/// rows (`Schema.indexes`).
package enum FeedSchema {
    /// The public tables whose rows can come from the feed.
    package static let tables = ["cumulative_samples", "discrete_samples", "category_samples", "workouts"]

    package static let originColumn = column(
        "origin", "INTEGER NOT NULL DEFAULT 0",
        "Where the row came from: 0 a full export (`export.zip`); 1 Health Auto Export's JSON feed, where a "
            + "sample row is one bucket of HealthKit's statistics (a minute by default, sources already merged), "
            + "not a sample. Feed rows fill only the time after the newest export's `ExportDate`; the next export "
            + "replaces those it covers (docs/incremental.md, docs/feed.md).")

    /// The feed's rows by start (and type): the merge rule looks them up by time, `status` reads the newest.
    /// On the stored tables; a database of exports only has none of these rows and pays nothing.
    package static let indexes =
        TrackedTable.sampleTables.map {
            "CREATE INDEX \($0.storageName)_feed ON \($0.storageName)(start_date, type_id) WHERE \(RowOrigin.feed.condition)"
        } + ["CREATE INDEX workouts_feed ON workouts(start_date) WHERE \(RowOrigin.feed.condition)"]
}
