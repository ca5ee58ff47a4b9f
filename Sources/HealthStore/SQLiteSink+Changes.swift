import HealthModel
import HealthSchema

/// Matching rows against earlier runs (`RowRemover` takes rows out, `ChangeLedger` counts what changed).
extension SQLiteSink {
    /// Looks a sample up among the rows of earlier runs by (type, start, identity): an earlier row not met yet
    /// is this sample again (`matched`: nothing is written); a row met already, or stored by this run, is a
    /// taken identity (`DuplicateRule`); none is the identity to insert with.
    func matchSample(
        _ table: TrackedTable, typeID: Int64, start: Timestamp?, identity: Int64, _ duplicates: DuplicateRule
    ) throws -> DuplicateRule.Placement {
        try duplicates.place(identity) { candidate in
            guard let id = try sampleWriters[table.rawValue].find(typeID: typeID, start: start, identity: candidate)
            else { return .free }
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
}
