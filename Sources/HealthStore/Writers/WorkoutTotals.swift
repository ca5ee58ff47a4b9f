import Foundation
import HealthModel
import HealthSQLite

/// Completes `workouts` after the rows are written: totals from the workout statistics of iOS 16+ exports
/// (which no longer write the `totalDistance`/`totalEnergyBurned` attributes) and the local start time.
/// Both only fill what is NULL, so a run costs one pass over `workout_statistics`, and a database of an
/// earlier version is completed by its next import without touching rows that already have values.
enum WorkoutTotals {
    /// The distance statistic that belongs to an activity; activities not listed (swim-bike-run, other)
    /// add up all their distance statistics.
    static let distanceTypeByActivity: [String: String] = {
        let walkingRunning = "HKQuantityTypeIdentifierDistanceWalkingRunning"
        var table: [String: String] = [:]
        for activity in ["Running", "Walking", "Hiking", "TrackAndField", "StairClimbing", "Stairs"] {
            table["HKWorkoutActivityType" + activity] = walkingRunning
        }
        for (activity, distance) in [
            ("Cycling", "DistanceCycling"), ("HandCycling", "DistanceCycling"), ("Swimming", "DistanceSwimming"),
            ("WheelchairWalkPace", "DistanceWheelchair"), ("WheelchairRunPace", "DistanceWheelchair"),
            ("DownhillSkiing", "DistanceDownhillSnowSports"), ("Snowboarding", "DistanceDownhillSnowSports"),
            ("SnowSports", "DistanceDownhillSnowSports"), ("CrossCountrySkiing", "DistanceCrossCountrySkiing"),
            ("Rowing", "DistanceRowing"), ("PaddleSports", "DistancePaddleSports"),
            ("SkatingSports", "DistanceSkatingSports"),
        ] {
            table["HKWorkoutActivityType" + activity] = "HKQuantityTypeIdentifier" + distance
        }
        return table
    }()

    static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"

    /// Fills NULL totals from the statistics; returns the number of workouts changed.
    @discardableResult
    static func fill(_ connection: SQLiteConnection) throws -> Int {
        let cases = distanceTypeByActivity.sorted { $0.key < $1.key }
            .map { "WHEN '\($0.key)' THEN '\($0.value)'" }.joined(separator: " ")
        var changed = 0
        try connection.execute(
            update(
                column: "total_distance", typeCondition: "s.type LIKE 'HKQuantityTypeIdentifierDistance%'",
                preferredType: "CASE w.activity_type \(cases) END"))
        changed += connection.changes
        try connection.execute(
            update(
                column: "total_energy_burned", typeCondition: "s.type = '\(activeEnergy)'",
                preferredType: "'\(activeEnergy)'"))
        changed += connection.changes
        return changed
    }

    /// The statistics of the workout itself win over those of its activities; among them, the preferred
    /// type wins over the others; what is left is added up, when its units agree.
    static func update(column: String, typeCondition: String, preferredType: String) -> String {
        """
        WITH candidate AS (
            SELECT s.workout_id, s.activity_id IS NULL AS own, coalesce(s.type = \(preferredType), 0) AS preferred,
                   s.sum, s.unit
            FROM workout_statistics s JOIN workouts w ON w.id = s.workout_id
            WHERE w.\(column) IS NULL AND \(typeCondition) AND s.sum IS NOT NULL
        ),
        level AS (SELECT workout_id, max(own) AS own FROM candidate GROUP BY workout_id),
        choice AS (
            SELECT c.workout_id, c.own, max(c.preferred) AS preferred
            FROM candidate c JOIN level l ON l.workout_id = c.workout_id AND l.own = c.own GROUP BY c.workout_id
        ),
        total AS (
            SELECT c.workout_id, sum(c.sum) AS value, min(c.unit) AS unit
            FROM candidate c JOIN choice h
                ON h.workout_id = c.workout_id AND h.own = c.own AND h.preferred = c.preferred
            GROUP BY c.workout_id HAVING count(DISTINCT coalesce(c.unit, '')) = 1
        )
        UPDATE workouts SET \(column) = total.value, \(column)_unit = total.unit
        FROM total WHERE workouts.id = total.workout_id
        """
    }

    /// Registers `healthetl_local_start(start_date, zone)`: `2024-03-05T07:12:00+01:00`, the start in the
    /// zone `zone` (a workout's `HKTimeZone`), else in `timeZone`.
    static func registerLocalStart(_ connection: SQLiteConnection, timeZone: TimeZone) throws {
        var resolver = LocalDateResolver(timeZone: timeZone)
        try connection.registerTextFunction("healthetl_local_start", argumentCount: 2) { arguments in
            guard let text = arguments[0], let seconds = StoredInstant.seconds(text) else {
                return nil
            }
            let offset = resolver.offsetSeconds(
                of: Timestamp(seconds: seconds, offsetSeconds: 0), zoneName: arguments[1])
            let local = TimestampFormatting.utcString(seconds + Int64(offset))
            return local.dropLast() + TimestampFormatting.offsetString(offset)
        }
    }

    /// Sets `local_start` where it is missing (`onlyMissing`) or differs from the start in `timeZone`.
    @discardableResult
    static func updateLocalStarts(_ connection: SQLiteConnection, timeZone: TimeZone, onlyMissing: Bool) throws -> Int {
        try registerLocalStart(connection, timeZone: timeZone)
        let zone =
            "(SELECT value FROM metadata WHERE parent_table = 'workouts' AND parent_id = w.id AND key = 'HKTimeZone')"
        let value = "healthetl_local_start(start_date, \(zone))"
        let condition = onlyMissing ? "local_start IS NULL AND start_date IS NOT NULL" : "local_start IS NOT \(value)"
        try connection.execute("UPDATE workouts AS w SET local_start = \(value) WHERE \(condition)")
        return connection.changes
    }
}
