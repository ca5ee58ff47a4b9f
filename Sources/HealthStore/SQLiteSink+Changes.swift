import HealthModel

/// Matching rows against earlier runs, and removing rows (`ChangeLedger` counts what changed per type).
extension SQLiteSink {
    /// Why a row of an earlier run leaves its table: `deleted_samples.reason`.
    enum RemovalReason: String {
        /// The newer export no longer has it.
        case deleted
        /// A higher sync version took its place.
        case replaced
    }

    /// A row taken out of a table, and what the run's bookkeeping needs to know about it.
    struct RemovedRow {
        var type: String
        var identity: Int64
        /// Stored by an earlier run (so it was archived in `deleted_samples`), rather than by this one.
        var wasPrevious: Bool
        /// Already met in this export (counted as unchanged).
        var wasSeen: Bool
        var start: Int64?
    }

    /// Looks a sample up among the rows of earlier runs by (type, start, identity): an earlier row not met yet
    /// is this sample again (`matched`: nothing is written); a row met already, or stored by this run, is a
    /// taken identity (`DuplicateRule`); none is the identity to insert with.
    func matchSample(
        _ table: TrackedTable, type: String, start: Timestamp?, identity: Int64, _ duplicates: DuplicateRule
    ) throws -> DuplicateRule.Placement {
        let statement = lookups.findSample[table.rawValue]
        return try duplicates.place(identity) { candidate in
            statement.bind(1, type)
            bindInstant(statement, 2, start)
            statement.bind(3, candidate)
            guard let id = try statement.firstInteger() else { return .free }
            if previous.tables[table.rawValue].isPrevious(id), previous.tables[table.rawValue].seen.insert(id) {
                return .matched(id)
            }
            return .taken
        }
    }

    /// Looks a correlation or workout up by identity: the first earlier row not yet met in this export.
    func matchNested(_ table: TrackedTable, identity: Int64) throws -> Int64? {
        guard previous.isActive else { return nil }
        let statement = table == .workouts ? lookups.findWorkout : lookups.findCorrelation
        statement.bind(1, identity)
        for id in try statement.integers()
        where previous.tables[table.rawValue].isPrevious(id) && previous.tables[table.rawValue].seen.insert(id) {
            return id
        }
        return nil
    }

    /// Deletes a row and everything hanging off it. A row of an earlier run is first copied to
    /// `deleted_samples` with `reason`, so nothing leaves the database unrecorded.
    func removeRow(_ table: TrackedTable, id: Int64, reason: RemovalReason) throws -> RemovedRow? {
        let rows = previous.tables[table.rawValue]
        let wasPrevious = previous.isActive && rows.isPrevious(id)
        let found =
            wasPrevious
            ? try lookups.archive[table.rawValue].rows([.integer(runs.runID), .text(reason.rawValue), .integer(id)])
            : try lookups.typeAndIdentity[table.rawValue].rows([.integer(id)])
        guard let row = found.first, case .integer(let identity) = row[1] else { return nil }
        for statement in lookups.deletes[table.rawValue] { try statement.run([.integer(id)]) }
        let wasSeen = rows.seen.contains(id)
        if wasPrevious {
            previous.tables[table.rawValue].previousCount -= 1
            previous.tables[table.rawValue].seen.remove(id)
        }
        return RemovedRow(
            type: ChangeLedger.key(table, type: row[0].text ?? ""), identity: identity, wasPrevious: wasPrevious,
            wasSeen: wasSeen, start: row[2].integer)
    }

    /// The end of a re-import: the rows of earlier runs that this export no longer has are moved to
    /// `deleted_samples`. A table whose earlier rows were all met is not searched.
    func removeUnseenRows() throws {
        guard previous.isActive else { return }
        for table in TrackedTable.allCases where previous.tables[table.rawValue].hasUnseenRows {
            var unseen: [Int64] = []
            let rows = previous.tables[table.rawValue]
            // In id order, whatever plan SQLite picks: the order gives the rows their deleted_samples ids, which
            // must not depend on whether the database has statistics (a PostgreSQL working copy has none).
            let scan = try connection.prepare("SELECT id FROM \"\(table.name)\" WHERE id <= ?1 ORDER BY id")
            scan.bind(1, rows.previousMaxID)
            try scan.forEachInteger { id in if !rows.seen.contains(id) { unseen.append(id) } }
            if !options.scope.isEmpty { unseen = try unseen.filter { id in try isInScope(table, id: id) } }
            for id in unseen {
                guard let removed = try removeRow(table, id: id, reason: .deleted) else { continue }
                ledger.countDeleted(removed, table: table)
            }
        }
        ledger.flush()
    }

    /// Whether an earlier run's row lies inside the run's filters (only then does its absence mean deletion).
    func isInScope(_ table: TrackedTable, id: Int64) throws -> Bool {
        let row = try connection.query(
            "SELECT \(table.typeColumn), source_name, unixepoch(start_date) FROM \"\(table.name)\" WHERE id = ?1",
            [.integer(id)])
        guard let row = row.first else { return false }
        return options.scope.contains(
            type: ChangeLedger.key(table, type: row[0].text ?? ""), source: row[1].text ?? "", start: row[2].integer)
    }
}
