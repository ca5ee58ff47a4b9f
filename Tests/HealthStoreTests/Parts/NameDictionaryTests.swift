import Testing

@testable import HealthSQLite
@testable import HealthStore

/// `NameDictionary`: a name gets the next id the first time it is stored and keeps it; a database of earlier
/// runs is read, and its ids go on.
struct NameDictionaryTests {
    @Test func aNewNameGetsTheNextIdOnceAndKeepsIt() throws {
        let rig = try WriterRig()
        var names = try NameDictionary(rig.connection, table: "metadata_keys", column: "key", hadData: false)
        // More names than the few remembered last, so later look-ups go through the hash table too.
        let keys = (0..<12).map { "Key\($0)" }
        for (index, key) in keys.enumerated() { #expect(try names.id(of: key) == Int64(index + 1)) }
        for (index, key) in keys.enumerated().reversed() { #expect(try names.id(of: key) == Int64(index + 1)) }
        #expect(try names.id(of: String("Key" + "3")) == 4)  // equal text in other storage
        let stored = try rig.rows("SELECT id, key FROM metadata_keys ORDER BY id")
        #expect(stored == keys.enumerated().map { [String($0.offset + 1), $0.element] })
    }

    @Test func theNamesOfEarlierRunsKeepTheirIdsAndNewOnesFollowTheHighest() throws {
        let rig = try WriterRig()
        try rig.connection.execute(
            "INSERT INTO type_names (id, type) VALUES (3, 'HKQuantityTypeIdentifierStepCount'), "
                + "(9, 'HKQuantityTypeIdentifierHeartRate')")
        var names = try NameDictionary(rig.connection, table: "type_names", column: "type", hadData: true)
        #expect(try names.id(of: "HKQuantityTypeIdentifierHeartRate") == 9)
        #expect(try names.id(of: "HKQuantityTypeIdentifierStepCount") == 3)
        #expect(try names.id(of: "HKQuantityTypeIdentifierBodyMass") == 10)
        #expect(try rig.integer("SELECT count(*) FROM type_names") == 3)
        #expect(try rig.text("SELECT type FROM type_names WHERE id = 10") == "HKQuantityTypeIdentifierBodyMass")
    }
}
