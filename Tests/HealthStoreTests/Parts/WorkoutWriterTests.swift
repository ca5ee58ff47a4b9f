import Foundation
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `WorkoutWriter`: a workout's row and what hangs off it (activities, events and statistics linked to their
/// activity, routes with their points, metadata), numbered on from the last ids, counted; a route of a lower
/// sync version than the one stored is dropped.
struct WorkoutWriterTests {
    static func writer(_ rig: WriterRig, lastIDs: LastRowIDs = LastRowIDs()) throws -> WorkoutWriter {
        try WorkoutWriter(
            rig.connection, statements: rig.statements, lastIDs: lastIDs, options: SQLiteSink.Options(),
            common: rig.common, session: rig.session, feed: rig.feed)
    }

    static func run(_ start: String = "2024-02-01 08:00:00 +0100") -> Workout {
        var workout = Workout(activityType: "HKWorkoutActivityTypeRunning", source: WriterRig.watch, line: 20)
        workout.startDate = WriterRig.instant(start)
        workout.endDate = workout.startDate.map {
            Timestamp(seconds: $0.seconds + 1800, offsetSeconds: $0.offsetSeconds)
        }
        workout.duration = 30
        workout.durationUnit = "min"
        return workout
    }

    @Test func aWorkoutIsWrittenWithEverythingNestedInIt() throws {
        let rig = try WriterRig()
        let writer = try Self.writer(rig)
        var workout = Self.run()
        workout.metadata = [MetadataEntry(key: "HKIndoorWorkout", value: "0")]
        workout.activities = [
            WorkoutActivity(uuid: "A", startDate: workout.startDate, duration: 10, durationUnit: "min"),
            WorkoutActivity(uuid: "B", startDate: workout.startDate, duration: 20, durationUnit: "min"),
        ]
        workout.events = [
            WorkoutEvent(type: "HKWorkoutEventTypePause", date: workout.startDate, activityIndex: 1),
            WorkoutEvent(type: "HKWorkoutEventTypeSegment"),
        ]
        workout.statistics = [
            WorkoutStatistic(
                type: "HKQuantityTypeIdentifierHeartRate", average: 150, unit: "count/min", activityIndex: 0)
        ]
        let points = (0..<3).map {
            RoutePoint(latitude: 52 + Double($0) / 100, longitude: 13, time: 1_706_770_800 + Double($0))
        }
        workout.routes = [
            WorkoutRoute(
                source: WriterRig.watch, filePath: "/workout-routes/r.gpx", points: try RoutePointBuffer(points))
        ]
        try writer.write(workout, into: &rig.report)

        #expect(
            try rig.rows(
                "SELECT id, activity_type, source_name, start_date, duration, xml_line, identity, origin FROM workouts")
                == [
                    [
                        "1", "HKWorkoutActivityTypeRunning", "Watch", "2024-02-01T07:00:00Z", "30.0", "20",
                        String(SampleIdentity.fingerprint(workout)), String(RowOrigin.export.rawValue),
                    ]
                ])
        #expect(
            try rig.rows("SELECT id, workout_id, uuid FROM workout_activities ORDER BY id") == [
                ["1", "1", "A"], ["2", "1", "B"],
            ])
        #expect(
            try rig.rows("SELECT id, workout_id, activity_id, type FROM workout_events ORDER BY id") == [
                ["1", "1", "2", "HKWorkoutEventTypePause"], ["2", "1", "nil", "HKWorkoutEventTypeSegment"],
            ])
        #expect(
            try rig.rows("SELECT workout_id, activity_id, average FROM workout_statistics") == [["1", "1", "150.0"]])
        #expect(
            try rig.rows("SELECT id, workout_id, point_count, file_path FROM workout_routes") == [
                ["1", "1", "3", "/workout-routes/r.gpx"]
            ])
        #expect(
            try rig.rows("SELECT route_id, seq, latitude, time FROM route_points ORDER BY seq") == [
                ["1", "0", "52.0", "2024-02-01T07:00:00Z"], ["1", "1", "52.01", "2024-02-01T07:00:01Z"],
                ["1", "2", "52.02", "2024-02-01T07:00:02Z"],
            ])
        #expect(
            try rig.rows("SELECT parent_table, parent_id, key FROM metadata") == [["workouts", "1", "HKIndoorWorkout"]])
        #expect(
            rig.tally.rows.byName == [
                "workouts": 1, "workout_activities": 2, "workout_events": 2, "workout_statistics": 1,
                "workout_routes": 1, "route_points": 3, "sources": 1, "metadata": 1,
            ])
        #expect(
            writer.lastIDs.map { "\($0.0) \($0.1)" } == [
                "workouts 1", "workout_events 2", "workout_activities 2", "workout_statistics 1", "workout_routes 1",
            ])
    }

    @Test func idsGoOnFromTheLastOnesGivenOut() throws {
        let rig = try WriterRig()
        try rig.connection.execute(
            "INSERT INTO settings (key, value) VALUES ('last_id:workouts', '40'), ('last_id:workout_events', '7')")
        let writer = try Self.writer(rig, lastIDs: try LastRowIDs(rig.connection))
        var workout = Self.run()
        workout.events = [WorkoutEvent(type: "HKWorkoutEventTypePause")]
        try writer.write(workout, into: &rig.report)
        #expect(try rig.rows("SELECT id FROM workouts") == [["41"]])
        #expect(try rig.rows("SELECT id, workout_id FROM workout_events") == [["8", "41"]])
    }

    @Test func aRouteOfALowerSyncVersionIsDropped() throws {
        let rig = try WriterRig()
        let writer = try Self.writer(rig)
        func route(_ version: String) -> WorkoutRoute {
            WorkoutRoute(
                source: WriterRig.watch,
                metadata: [
                    MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: "r1"),
                    MetadataEntry(key: "HKMetadataKeySyncVersion", value: version),
                ])
        }
        var first = Self.run()
        first.routes = [route("2")]
        var second = Self.run("2024-02-02 08:00:00 +0100")
        second.routes = [route("1")]
        try writer.write(first, into: &rig.report)
        try writer.write(second, into: &rig.report)
        #expect(try rig.rows("SELECT id, workout_id FROM workout_routes") == [["1", "1"]])
        #expect(rig.tally.drops.bySummaryKey == ["routes superseded by a higher sync version": 1])
        #expect(
            try rig.rows("SELECT version, row_table, row_id FROM sync_identifiers") == [["2", "workout_routes", "1"]])
    }
}
