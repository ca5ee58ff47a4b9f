import HealthModel
import HealthSchema

/// The two rules that keep one copy of a sample (issue: dedup by sync identifier and version).
///
/// - Exact duplicates: the sample tables are UNIQUE on (type, start_date, identity), so a second copy of a
///   record is not inserted; it is counted.
/// - Sync identifiers: among records of one app with the same `HKMetadataKeySyncIdentifier`, only the one
///   with the highest `HKMetadataKeySyncVersion` is kept, as HealthKit does. Versions can arrive in any order:
///   a lower one after a higher one is dropped; a higher one replaces the row kept so far.
extension SQLiteSink {
    /// Where the row of a sync identifier is: a sample table, or the routes (stored as the table's name).
    enum SyncedTable: Equatable {
        case samples(TrackedTable)
        case routes

        var name: String {
            switch self {
            case .samples(let table): table.name
            case .routes: "workout_routes"
            }
        }

        init?(name: String) {
            if name == Self.routes.name {
                self = .routes
            } else if let table = TrackedTable(name: name) {
                self = .samples(table)
            } else {
                return nil
            }
        }
    }

    enum SyncDecision {
        case keep
        /// A row with this version or a higher one is stored (where, and its version).
        case drop(table: SyncedTable, id: Int64, version: Int64)
        /// A lower version is stored (where): replace it.
        case replace(table: SyncedTable, id: Int64)
    }

    static let syncIdentifierKey = "HKMetadataKeySyncIdentifier"
    static let syncVersionKey = "HKMetadataKeySyncVersion"

    /// The sync identifier and version in `metadata`, if any (version 0 when it is missing or not a number).
    static func syncKey(_ metadata: [MetadataEntry]) -> (identifier: String, version: Int64)? {
        guard !metadata.isEmpty, let identifier = metadata.first(where: { $0.key == syncIdentifierKey })?.value
        else { return nil }
        let version = metadata.first { $0.key == syncVersionKey }.flatMap { Int64($0.value) } ?? 0
        return (identifier, version)
    }

    func syncDecision(source: String, key: (identifier: String, version: Int64)) throws -> SyncDecision {
        guard options.keepHighestSyncVersion else { return .keep }
        let existing = try statements.syncLookup.rows([.text(source), .text(key.identifier)]).first
        guard let existing, case .integer(let version) = existing[0], case .text(let name) = existing[1],
            let table = SyncedTable(name: name), case .integer(let id) = existing[2]
        else { return .keep }
        if version >= key.version { return .drop(table: table, id: id, version: version) }
        return .replace(table: table, id: id)
    }

    func rememberSync(source: String, key: (identifier: String, version: Int64), table: SyncedTable, id: Int64) throws {
        guard options.keepHighestSyncVersion else { return }
        try statements.syncStore.run([
            "source_name": .text(source),
            "sync_identifier": .text(key.identifier),
            "version": .integer(key.version),
            "row_table": .text(table.name),
            "row_id": .integer(id),
        ])
    }

    /// Removes a superseded route and everything hanging off it (samples go through `replaceSample`).
    func deleteSuperseded(table: SyncedTable, id: Int64) throws {
        try remover.removeSuperseded(table, id: id)
        switch table {
        case .routes: count(.workoutRoutes, -1)
        case .samples(let samples): count(WrittenTable(samples), -1)
        }
        drops.add(.replaced)
    }

    /// Links workouts of different sources that cover the same stretch of time (one session recorded by two
    /// apps). Only workouts starting within the longest workout's span before another can overlap it, so the
    /// start-date index bounds each search from both sides (an open-ended range would make it quadratic).
    /// Returns how many links it made.
    func linkProbableDuplicateWorkouts() throws -> Int {
        let longest = try connection.scalar(
            "SELECT coalesce(max(julianday(end_date) - julianday(start_date)), 0) FROM workouts")
        guard case .real(let days) = longest, days > 0 else { return 0 }
        try connection.execute(
            """
            INSERT INTO workout_duplicates (workout_id, probable_duplicate_of, overlap_fraction)
            SELECT later.id, earlier.id,
                   (min(julianday(later.end_date), julianday(earlier.end_date))
                    - max(julianday(later.start_date), julianday(earlier.start_date)))
                   / max(min(julianday(later.end_date) - julianday(later.start_date),
                             julianday(earlier.end_date) - julianday(earlier.start_date)), 1e-9) AS fraction
            FROM workouts AS later JOIN workouts AS earlier
              ON earlier.id < later.id
             AND earlier.start_date < later.end_date AND earlier.end_date > later.start_date
             AND earlier.start_date >= strftime('%Y-%m-%dT%H:%M:%SZ', julianday(later.start_date) - \(min(days, 3650)))
             AND earlier.source_name <> later.source_name
            WHERE fraction >= 0.5
            """)
        return connection.changes
    }
}
