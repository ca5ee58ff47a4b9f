import HealthSchema
import HealthStore

/// PostgreSQL's spelling of the views (`Schema.views(in:)`): the same views as SQLite's, in schema `healthetl`,
/// with `person` and every join within the person, showing exactly the text SQLite shows (a test compares them
/// row by row and value by value).
extension ViewDialect {
    package static let postgres = ViewDialect(
        schema: PostgresSchema.name + ".", person: true,
        instantText: { seconds in utcText(seconds, then: "\"Z\"") },
        centisecondText: { centis in
            // Floor division, as in SQLite's: instants before 1970 read as they were written.
            let hundredths = "((\(centis) % 100 + 100) % 100)"
            return utcText("(\(centis) - \(hundredths)) / 100", then: "")
                + " || CASE WHEN \(hundredths) = 0 THEN '' ELSE '.' || lpad(\(hundredths)::text, 2, '0') END || 'Z'"
        },
        offsetText: { seconds in
            "CASE WHEN \(seconds) IS NOT NULL THEN CASE WHEN \(seconds) < 0 THEN '-' ELSE '+' END || "
                + "\(twoDigits("abs(\(seconds)) / 3600")) || ':' || \(twoDigits("abs(\(seconds)) / 60 % 60")) END"
        },
        // As schema 3's view did: exact (numeric), where SQLite's julianday is within a millisecond.
        hoursBetween: { start, end in "extract(epoch FROM \(end)::timestamptz - \(start)::timestamptz) / 3600" },
        // A subquery for the source's name ran a scan of `sources` per row (a person's 255 k samples: 950 ms);
        // the join is hashed (105 ms), and dropped from the plan when the column is not read.
        lookupsAsJoins: true)

    /// Integer seconds as UTC text up to the seconds, then `suffix` (a `to_char` pattern). The pattern has no
    /// locale-dependent field, and the instant is turned to UTC explicitly: the same text under any setting.
    private static func utcText(_ seconds: String, then suffix: String) -> String {
        "to_char(to_timestamp(\(seconds)) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\(suffix)')"
    }

    /// A non-negative integer with at least two digits, like `printf('%02d')` (`lpad` would cut a third).
    private static func twoDigits(_ number: String) -> String {
        "CASE WHEN \(number) < 10 THEN '0' ELSE '' END || (\(number))::text"
    }
}
