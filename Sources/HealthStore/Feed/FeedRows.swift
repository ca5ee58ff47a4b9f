import HealthModel
import HealthSQLite
import HealthSchema

/// The feed's rows (`RowOrigin.feed`) as `FeedMerge` looks them up, through the `_feed` partial indexes
/// (`FeedSchema`). Each statement is prepared when first used: an export run asks for none of them, or for one.
final class FeedRows {
    /// The statements, by what they look up: a call finds its statement without writing its SQL again (a
    /// feed file of a year per minute makes hundreds of thousands of calls).
    private enum Query: Hashable {
        case newestStart(TrackedTable), identical(TrackedTable), rowsAt(TrackedTable), rowsBetween(TrackedTable)
        case identicalWorkout, rowsBefore(TrackedTable)
    }

    private static let feed = RowOrigin.feed.condition
    private let connection: SQLiteConnection
    private var statements: [Query: SQLiteStatement] = [:]

    init(_ connection: SQLiteConnection) { self.connection = connection }

    private func statement(_ query: Query, _ sql: @autoclosure () -> String) throws -> SQLiteStatement {
        if let prepared = statements[query] { return prepared }
        let prepared = try connection.prepare(sql())
        statements[query] = prepared
        return prepared
    }

    /// The newest feed start of `type` (Int64.min for none).
    func newestStart(_ type: String, table: TrackedTable) throws -> Int64 {
        let query = try statement(
            .newestStart(table),
            "SELECT max(start_date) FROM \"\(table.name)\" WHERE \(Self.feed) AND \(table.typeColumn) = ?1")
        query.bind(1, type)
        var found = Int64.min
        try query.forEachRow { row in found = row.utcSeconds(0) ?? Int64.min }
        return found
    }

    /// A feed row that says exactly what the point says.
    func identical(_ table: TrackedTable, type: String, start: Int64, identity: Int64) throws -> Int64? {
        let query = try statement(
            .identical(table),
            "SELECT id FROM \"\(table.name)\" WHERE start_date = ?1 AND type = ?2 AND identity = ?3 AND \(Self.feed)"
        )
        query.bind(1, TimestampFormatting.utcString(start))
        query.bind(2, type)
        query.bind(3, identity)
        return try query.firstInteger()
    }

    /// The feed rows of `type` starting at `start`: (id, category value).
    func rows(_ table: TrackedTable, type: String, start: Int64) throws -> [(Int64, String?)] {
        let query = try statement(
            .rowsAt(table),
            "SELECT id, \(table == .category ? "value" : "NULL") FROM \"\(table.name)\" "
                + "WHERE start_date = ?1 AND type = ?2 AND \(Self.feed)")
        query.bind(1, TimestampFormatting.utcString(start))
        query.bind(2, type)
        var found: [(Int64, String?)] = []
        try query.forEachRow { found.append(($0.integer(0), $0.text(1))) }
        return found
    }

    /// The feed rows of `type` whose start lies in [from, through].
    func rows(
        _ table: TrackedTable, type: String, from: Int64, through: Int64, where include: (Int64) -> Bool
    ) throws -> [Int64] {
        let typed = table == .workouts ? "?3 IS NOT NULL" : "type = ?3"
        let query = try statement(
            .rowsBetween(table),
            "SELECT id FROM \"\(table.name)\" WHERE start_date >= ?1 AND start_date <= ?2 AND \(typed) "
                + "AND \(Self.feed)")
        query.bind(1, TimestampFormatting.utcString(from))
        query.bind(2, TimestampFormatting.utcString(through))
        query.bind(3, type)
        // In id order, sorted here among the few kept rather than by SQLite among all (its sorter took 16 MB
        // when a year of per-minute feed was sent again).
        return try query.integers(where: include).sorted()
    }

    /// A feed workout with this identity.
    func identicalWorkout(_ identity: Int64) throws -> Int64? {
        let query = try statement(
            .identicalWorkout, "SELECT id FROM workouts WHERE identity = ?1 AND \(Self.feed) ORDER BY id")
        query.bind(1, identity)
        return try query.firstInteger()
    }

    /// The feed rows of a table that start before `date` (UTC text), in id order.
    func rows(_ table: TrackedTable, before date: String) throws -> [Int64] {
        let query = try statement(
            .rowsBefore(table),
            "SELECT id FROM \"\(table.name)\" WHERE start_date < ?1 AND \(Self.feed) ORDER BY id")
        query.bind(1, date)
        return try query.integers()
    }
}
