import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `SyncKey`, `SyncDecision` and `SyncVersions`: per app and sync identifier only the highest version is kept,
/// whatever order the versions come in; `sync_identifiers` remembers the version stored and where its row is.
struct SyncVersionsTests {
    @Test func theKeyIsReadFromMetadata() {
        let key = SyncKey([
            MetadataEntry(key: "HKMetadataKeySyncVersion", value: "3"),
            MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "abc"),
        ])
        #expect(key == SyncKey(identifier: "abc", version: 3))
        #expect(SyncKey([MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "abc")])?.version == 0)
        #expect(
            SyncKey([
                MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "abc"),
                MetadataEntry(key: "HKMetadataKeySyncVersion", value: "two"),
            ])?.version == 0)
        #expect(SyncKey([MetadataEntry(key: "HKMetadataKeySyncVersion", value: "3")]) == nil)
        #expect(SyncKey([]) == nil)
    }

    @Test func onlyAHigherVersionReplacesTheStoredOne() {
        let row = SyncedRow(table: .samples(.discrete), id: 4)
        #expect(SyncDecision(stored: nil, version: 1) == .keep)
        #expect(SyncDecision(stored: (row, 3), version: 2) == .drop(row, version: 3))
        #expect(SyncDecision(stored: (row, 3), version: 3) == .drop(row, version: 3))
        #expect(SyncDecision(stored: (row, 3), version: 4) == .replace(row))
    }

    @Test func tablesAreStoredByName() {
        for table in TrackedTable.allCases {
            #expect(SyncedTable(name: SyncedTable.samples(table).name) == .samples(table))
        }
        #expect(SyncedTable.routes.name == "workout_routes")
        #expect(SyncedTable(name: "workout_routes") == .routes)
        #expect(SyncedTable(name: "metadata") == nil)
    }

    @Test func theStoredVersionIsRememberedPerAppAndIdentifier() throws {
        let rig = try WriterRig()
        let sync = SyncVersions(rig.statements)
        let key = SyncKey(identifier: "abc", version: 2)
        #expect(try sync.stored(source: "Scale", identifier: "abc") == nil)
        try sync.remember(source: "Scale", key: key, row: SyncedRow(table: .samples(.discrete), id: 7))
        let stored = try #require(try sync.stored(source: "Scale", identifier: "abc"))
        #expect(stored.row == SyncedRow(table: .samples(.discrete), id: 7))
        #expect(stored.version == 2)
        #expect(try sync.stored(source: "Other app", identifier: "abc") == nil)
        #expect(try sync.decision(source: "Scale", key: SyncKey(identifier: "abc", version: 5)) == .replace(stored.row))
        #expect(try sync.decision(source: "Other app", key: key) == .keep)
        // A higher version's row takes the identifier's place.
        try sync.remember(
            source: "Scale", key: SyncKey(identifier: "abc", version: 5), row: SyncedRow(table: .routes, id: 1))
        #expect(
            try rig.rows("SELECT source_name, sync_identifier, version, row_table, row_id FROM sync_identifiers")
                == [["Scale", "abc", "5", "workout_routes", "1"]])
    }
}
