import HealthModel
import HealthSQLite

/// Up to when the database's data reaches, by where it came from: the newest full export, and Health Auto
/// Export's feed after it (`healthetl status`).
public struct FeedCoverage: Codable, Sendable, Equatable {
    /// The newest `ExportDate` imported: the export's rows cover everything up to it.
    public var exportThrough: String?
    /// The latest end of a feed row (origin 1): the feed fills from `exportThrough` up to here.
    public var feedThrough: String?
    /// Rows from the feed, all tables together.
    public var feedRows: Int64 = 0

    static func read(_ connection: SQLiteConnection) throws -> FeedCoverage {
        var coverage = FeedCoverage()
        coverage.exportThrough = try connection.scalar(
            "SELECT max(export_date) FROM import_runs WHERE outcome IN ('ok', 'unchanged')"
        ).text
        for table in FeedSchema.tables {
            // Through the `_feed` partial index: the row with the latest start, then its end.
            let end = try connection.scalar(
                "SELECT coalesce(end_date, start_date) FROM \"\(table)\" WHERE \(RowOrigin.feed.condition) ORDER BY start_date DESC LIMIT 1"
            ).text
            if let end, end > (coverage.feedThrough ?? "") { coverage.feedThrough = end }
            coverage.feedRows +=
                try connection.scalar("SELECT count(*) FROM \"\(table)\" WHERE \(RowOrigin.feed.condition)").integer
                ?? 0
        }
        return coverage
    }

    /// `export through 2024-04-02T16:00:00Z; Health Auto Export feed through 2024-04-08T21:59:00Z (17,833 rows)`
    public var text: String {
        var line = "export through " + (exportThrough ?? "(no export imported)")
        if let feedThrough {
            line += "; Health Auto Export feed through \(feedThrough) (\(DigitGrouping.grouped(Int(feedRows))) rows)"
        } else {
            line += "; no Health Auto Export feed"
        }
        return line
    }
}
