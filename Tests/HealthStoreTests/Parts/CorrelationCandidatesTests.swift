import HealthSchema
import Testing

@testable import HealthSQLite
@testable import HealthStore

/// `CorrelationCandidates`: top-level samples by identity → (table, id), the last remembered under an identity
/// winning; kept in a TEMP table of the connection that a new set empties.
struct CorrelationCandidatesTests {
    @Test func theLastSampleRememberedUnderAnIdentityWins() throws {
        let rig = try WriterRig()
        let candidates = try CorrelationCandidates(rig.connection)
        #expect(try candidates[5] == nil)
        try candidates.remember(5, (.discrete, 3))
        try candidates.remember(6, (.cumulative, 1 << 55))  // a large id keeps all its bits
        try candidates.remember(-7, (.category, 9))
        #expect(try candidates[5].map { "\($0.table) \($0.id)" } == "discrete 3")
        #expect(try candidates[6].map { "\($0.table) \($0.id)" } == "cumulative \(Int64(1) << 55)")
        #expect(try candidates[-7].map { "\($0.table) \($0.id)" } == "category 9")
        try candidates.remember(5, (.cumulative, 4))
        #expect(try candidates[5].map { "\($0.table) \($0.id)" } == "cumulative 4")
        #expect(try rig.integer("SELECT count(*) FROM temp.correlation_candidates") == 3)
    }

    @Test func aNewSetStartsEmpty() throws {
        let rig = try WriterRig()
        try CorrelationCandidates(rig.connection).remember(5, (.discrete, 3))
        let again = try CorrelationCandidates(rig.connection)
        #expect(try again[5] == nil)
        // Nothing of it is in the database file.
        #expect(try rig.integer("SELECT count(*) FROM main.sqlite_master WHERE name = 'correlation_candidates'") == 0)
    }
}
