import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `DataTypesTable.rebuild`: one row per type the database holds, with its kind, the unit its values are in
/// (the catalog's, else one of its rows') and its table; rebuilt from scratch each time.
struct DataTypesTableTests {
    @Test func eachStoredTypeIsListedWithItsKindUnitAndTable() throws {
        let rig = try WriterRig()
        _ = try rig.samples.write(
            StoreFixture.sample(start: "2024-02-01 08:00:00 +0100"), identity: 1, into: &rig.report)
        var heart = StoreFixture.sample(
            "HKQuantityTypeIdentifierHeartRate", start: "2024-02-01 08:00:00 +0100", value: 60)
        heart.unit = "count/min"
        _ = try rig.samples.write(heart, identity: 2, into: &rig.report)
        var sleep = StoreFixture.sample("HKCategoryTypeIdentifierSleepAnalysis", start: "2024-02-01 23:00:00 +0100")
        sleep.value = nil
        sleep.unit = nil
        sleep.textValue = "HKCategoryValueSleepAnalysisAsleepCore"
        _ = try rig.samples.write(sleep, identity: 3, into: &rig.report)
        try rig.connection.execute(
            """
            INSERT INTO data_types (type, display_name, kind, row_table) VALUES ('stale', 'Stale', 'workout', 'workouts');
            INSERT INTO correlations (id, type, source_id, source_name) VALUES (1, 'HKCorrelationTypeIdentifierBloodPressure', 1, 'Phone');
            INSERT INTO workouts (id, activity_type, source_id, source_name) VALUES (1, 'HKWorkoutActivityTypeRunning', 1, 'Watch');
            INSERT INTO workout_statistics (id, workout_id, type, unit) VALUES
                (1, 1, 'HKQuantityTypeIdentifierHeartRate', 'count/min'), (2, 1, 'HKQuantityTypeIdentifierBrandNew', NULL),
                (3, 1, 'HKQuantityTypeIdentifierBrandNew', 'zz');
            """)
        try DataTypesTable.rebuild(rig.connection)
        #expect(
            try rig.rows("SELECT type, kind, unit, row_table FROM data_types ORDER BY row_table, type") == [
                ["HKCategoryTypeIdentifierSleepAnalysis", "category", "nil", "category_samples"],
                ["HKCorrelationTypeIdentifierBloodPressure", "correlation", "nil", "correlations"],
                ["HKQuantityTypeIdentifierStepCount", "cumulative", "count", "cumulative_samples"],
                ["HKQuantityTypeIdentifierHeartRate", "discrete", "count/min", "discrete_samples"],
                ["HKQuantityTypeIdentifierBrandNew", "discrete", "zz", "workout_statistics"],
                ["HKQuantityTypeIdentifierHeartRate", "discrete", "count/min", "workout_statistics"],
                ["HKWorkoutActivityTypeRunning", "workout", "nil", "workouts"],
            ])
        #expect(
            try rig.rows(
                "SELECT display_name FROM data_types WHERE type IN ('HKQuantityTypeIdentifierStepCount', "
                    + "'HKCategoryTypeIdentifierSleepAnalysis', 'HKWorkoutActivityTypeRunning') ORDER BY rowid")
                == [["Step Count"], ["Sleep"], ["Running"]])
    }
}
