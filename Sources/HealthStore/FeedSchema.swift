import HealthSQLite

/// What Health Auto Export's feed adds to the schema: an `origin` column on the sample tables and `workouts`,
/// and a partial index over the feed's rows. Additive only: a database of this schema version written before
/// the feed existed gets both on its next import (`upgrade`), without a version bump.
package enum FeedSchema {
    /// The tables whose rows can come from the feed.
    package static let tables = ["cumulative_samples", "discrete_samples", "category_samples", "workouts"]

    package static let originColumn = column(
        "origin", "INTEGER NOT NULL DEFAULT 0",
        "Where the row came from: 0 a full export (`export.zip`); 1 Health Auto Export's JSON feed, where a "
            + "sample row is one bucket of HealthKit's statistics (a minute by default, sources already merged), "
            + "not a sample. Feed rows fill only the time after the newest export's `ExportDate`; the next export "
            + "replaces those it covers (docs/incremental.md, docs/feed.md).")

    /// The feed's rows by start (and type): the merge rule looks them up by time, `status` reads the newest.
    static let indexes = tables.map { table in
        let type = table == "workouts" ? "" : ", type"
        return "CREATE INDEX IF NOT EXISTS \(table)_feed ON \(table)(start_date\(type)) WHERE origin = 1"
    }

    /// Adds `origin` where it is missing (a database written before the feed existed) and the feed's indexes.
    static func upgrade(_ connection: SQLiteConnection) throws {
        for table in tables where try !hasOrigin(connection, table: table) {
            try connection.execute("ALTER TABLE \"\(table)\" ADD COLUMN origin INTEGER NOT NULL DEFAULT 0")
        }
        for index in indexes { try connection.execute(index) }
    }

    /// Whether `table` has the `origin` column (readers of a database not yet upgraded do without it).
    package static func hasOrigin(_ connection: SQLiteConnection, table: String = "cumulative_samples") throws -> Bool {
        try connection.query("PRAGMA table_info(\"\(table)\")").contains { $0[1].text == "origin" }
    }
}
