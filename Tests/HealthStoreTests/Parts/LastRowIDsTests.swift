import Testing

@testable import HealthSQLite
@testable import HealthStore

/// `LastRowIDs`: the highest id given out per table: the largest row id, the run log's `last_id:` setting, or
/// an id archived in `deleted_samples`, whichever is highest, so no id is given out twice.
struct LastRowIDsTests {
    @Test func aNewDatabaseStartsAtZero() throws {
        let store = try StoreFixture()
        let read = try LastRowIDs(store.connection)
        for table in LastRowIDs.tables {
            #expect(read[table] == 0)
            #expect(LastRowIDs()[table] == 0)
        }
    }

    @Test func theHighestOfRowsSettingsAndArchivedRowsCounts() throws {
        let store = try StoreFixture()
        try store.connection.execute(
            """
            INSERT INTO discrete_rows (id, type_id, source_id, identity) VALUES (5, 1, 1, 1), (12, 1, 1, 2);
            INSERT INTO workouts (id, activity_type, source_id, source_name) VALUES (3, 'HKWorkoutActivityTypeRunning', 1, 'Watch');
            INSERT INTO settings (key, value) VALUES ('last_id:workouts', '9'), ('last_id:discrete_samples', '7');
            INSERT INTO deleted_samples (run_id, reason, row_table, row_id) VALUES (1, 'deleted', 'state_of_mind', 30),
                (1, 'deleted', 'discrete_samples', 4);
            """)
        let ids = try LastRowIDs(store.connection)
        #expect(ids["discrete_samples"] == 12)  // its rows
        #expect(ids[.workouts] == 9)  // the setting: its last row was deleted
        #expect(ids["state_of_mind"] == 30)  // an archived row
        #expect(ids["cumulative_samples"] == 0)
        #expect(ids["not_a_table"] == 0)
    }
}
