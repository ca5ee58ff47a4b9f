import Foundation
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `WorkoutTotals` on its own: NULL totals filled from the statistics (the workout's own before its
/// activities', the activity's distance type before the others, summed only when the units agree; totals
/// already there kept), and the local start in the workout's zone, else the database's.
struct WorkoutTotalsFillTests {
    @Test func missingTotalsComeFromTheStatistics() throws {
        let rig = try WriterRig()
        try rig.connection.execute(
            """
            INSERT INTO workouts (id, activity_type, source_id, source_name, total_distance, total_distance_unit) VALUES
                (1, 'HKWorkoutActivityTypeRunning', 1, 'Watch', NULL, NULL),
                (2, 'HKWorkoutActivityTypeCycling', 1, 'Watch', 40, 'km'),
                (3, 'HKWorkoutActivityTypeSwimming', 1, 'Watch', NULL, NULL),
                (4, 'HKWorkoutActivityTypeOther', 1, 'Watch', NULL, NULL);
            INSERT INTO workout_statistics (id, workout_id, activity_id, type, sum, unit) VALUES
                (1, 1, NULL, 'HKQuantityTypeIdentifierDistanceWalkingRunning', 5, 'km'),
                (2, 1, NULL, 'HKQuantityTypeIdentifierDistanceCycling', 2, 'km'),
                (3, 1, 7, 'HKQuantityTypeIdentifierDistanceWalkingRunning', 9, 'km'),
                (4, 1, NULL, 'HKQuantityTypeIdentifierActiveEnergyBurned', 300, 'kcal'),
                (5, 2, NULL, 'HKQuantityTypeIdentifierDistanceCycling', 10, 'km'),
                (6, 3, 8, 'HKQuantityTypeIdentifierDistanceSwimming', 400, 'm'),
                (7, 3, 9, 'HKQuantityTypeIdentifierDistanceSwimming', 600, 'm'),
                (8, 4, NULL, 'HKQuantityTypeIdentifierDistanceWalkingRunning', 1, 'km'),
                (9, 4, NULL, 'HKQuantityTypeIdentifierDistanceCycling', 1, 'mi');
            """)
        #expect(try WorkoutTotals.fill(rig.connection) == 3)
        #expect(
            try rig.rows(
                "SELECT id, total_distance, total_distance_unit, total_energy_burned, total_energy_burned_unit "
                    + "FROM workouts ORDER BY id")
                == [
                    ["1", "5.0", "km", "300.0", "kcal"], ["2", "40.0", "km", "nil", "nil"],
                    ["3", "1000.0", "m", "nil", "nil"], ["4", "nil", "nil", "nil", "nil"],
                ])
        #expect(try WorkoutTotals.fill(rig.connection) == 0)
    }

    @Test func theLocalStartIsInTheWorkoutsOwnZoneFirst() throws {
        let rig = try WriterRig()
        try rig.connection.execute(
            """
            INSERT INTO workouts (id, activity_type, source_id, source_name, start_date) VALUES
                (1, 'HKWorkoutActivityTypeRunning', 1, 'Watch', '2024-03-05T06:12:00Z'),
                (2, 'HKWorkoutActivityTypeRunning', 1, 'Watch', '2024-03-05T06:12:00Z'),
                (3, 'HKWorkoutActivityTypeRunning', 1, 'Watch', NULL)
            """)
        try rig.common.writeMetadata(
            [MetadataEntry(key: "HKTimeZone", value: "America/New_York")], parent: .workouts, id: 2, into: &rig.report)
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(try WorkoutTotals.updateLocalStarts(rig.connection, timeZone: berlin, onlyMissing: true) == 2)
        #expect(
            try rig.rows("SELECT local_start FROM workouts ORDER BY id") == [
                ["2024-03-05T07:12:00+01:00"], ["2024-03-05T01:12:00-05:00"], ["nil"],
            ])
        #expect(try WorkoutTotals.updateLocalStarts(rig.connection, timeZone: berlin, onlyMissing: true) == 0)
        // Another zone for the database: only the workout without its own zone changes.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try WorkoutTotals.updateLocalStarts(rig.connection, timeZone: tokyo, onlyMissing: false) == 1)
        #expect(try rig.text("SELECT local_start FROM workouts WHERE id = 1") == "2024-03-05T15:12:00+09:00")
    }
}
