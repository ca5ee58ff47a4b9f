import HealthModel
import HealthSQLite

/// Reads workouts from a healthetl database: which ones the options select, and each one's header, totals,
/// laps and pauses (`ExportedWorkout`). Its points are `WorkoutTrack`'s.
final class WorkoutReader {
    let connection: SQLiteConnection
    private let header: SQLiteStatement
    private let statistics: SQLiteStatement
    private let elevation: SQLiteStatement
    private let strokes: SQLiteStatement
    private let events: SQLiteStatement
    private let routes: SQLiteStatement
    private let pointsWithin: SQLiteStatement

    /// Route points this far outside the workout's span are not its (a route file of another day): 60 s.
    static let routeMargin: Int64 = 60 * 100

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        header = try connection.prepare(
            """
            SELECT activity_type, source_id, start_date, end_date, local_start, duration, duration_unit,
                   total_distance, total_distance_unit, total_energy_burned, total_energy_burned_unit
            FROM workouts WHERE id = ?1
            """)
        statistics = try connection.prepare(
            """
            SELECT average, maximum FROM workout_statistics
            WHERE workout_id = ?1 AND activity_id IS NULL AND type = 'HKQuantityTypeIdentifierHeartRate'
              AND unit = 'count/min'
            """)
        elevation = try connection.prepare(
            """
            SELECT max(number) FROM metadata WHERE parent_table = 'workouts' AND parent_id = ?1
              AND key = 'HKElevationAscended' AND number_unit = 'm'
            """)
        // A swim's strokes: the workout's statistic, else its activities' (iOS 16+ writes them per activity).
        strokes = try connection.prepare(
            """
            SELECT coalesce(
                (SELECT sum FROM workout_statistics WHERE workout_id = ?1 AND activity_id IS NULL
                   AND type = 'HKQuantityTypeIdentifierSwimmingStrokeCount'),
                (SELECT sum(sum) FROM workout_statistics WHERE workout_id = ?1 AND activity_id IS NOT NULL
                   AND type = 'HKQuantityTypeIdentifierSwimmingStrokeCount'))
            """)
        events = try connection.prepare(
            """
            SELECT type, date, duration, duration_unit FROM workout_events
            WHERE workout_id = ?1 AND activity_id IS NULL AND date IS NOT NULL ORDER BY date, id
            """)
        routes = try connection.prepare(
            "SELECT id, point_count, problem FROM workout_routes WHERE workout_id = ?1 ORDER BY point_count DESC, id")
        pointsWithin = try connection.prepare(
            "SELECT count(*) FROM route_point_rows WHERE route_id = ?1 AND time_centis BETWEEN ?2 AND ?3")
    }

    /// The ids of the workouts the options select, oldest first (a workout without a start cannot be placed).
    func selectedWorkouts(_ options: WorkoutFileOptions) throws -> [Int64] {
        var ids: [Int64] = []
        let query = try connection.prepare(
            """
            SELECT id, activity_type FROM workouts
            WHERE start_date IS NOT NULL AND end_date IS NOT NULL
              AND (?1 IS NULL OR local_date >= ?1) AND (?2 IS NULL OR local_date <= ?2)
            ORDER BY start_date, id
            """)
        query.bind(1, options.firstDay)
        query.bind(2, options.lastDay)
        try query.forEachRow { row in
            if let activity = options.activity {
                guard let type = row.text(1), WorkoutSport.matches(activity, type) else { return }
            }
            ids.append(row.integer(0))
        }
        return ids
    }

    /// The workout with everything but its points; nil when it has no usable dates.
    func workout(_ id: Int64) throws -> ExportedWorkout? {
        header.bind(1, id)
        var found: ExportedWorkout?
        try header.forEachRow { row in
            guard let start = row.utcSeconds(2), let end = row.utcSeconds(3), end >= start else { return }
            let duration = Self.seconds(row.isNull(5) ? nil : row.double(5), unit: row.text(6))
            found = ExportedWorkout(
                id: id, activityType: row.text(0) ?? "", sourceID: row.integer(1), start: start, end: end,
                localStart: row.text(4), timerSeconds: duration ?? Double(end - start),
                distance: Self.metres(row.isNull(7) ? nil : row.double(7), unit: row.text(8)),
                energy: Self.kilocalories(row.isNull(9) ? nil : row.double(9), unit: row.text(10)))
        }
        guard var workout = found else { return nil }
        statistics.bind(1, id)
        try statistics.forEachRow { row in
            if !row.isNull(0) { workout.averageHeartRate = row.double(0) }
            if !row.isNull(1) { workout.maximumHeartRate = row.double(1) }
        }
        elevation.bind(1, id)
        try elevation.forEachRow { row in
            if !row.isNull(0) { workout.elevationGain = row.double(0) }
        }
        strokes.bind(1, id)
        try strokes.forEachRow { row in
            if !row.isNull(0) { workout.strokes = row.double(0) }
        }
        try readEvents(into: &workout)
        routes.bind(1, id)
        var candidates: [(id: Int64, points: Int64, problem: String?)] = []
        try routes.forEachRow { row in candidates.append((row.integer(0), row.integer(1), row.text(2))) }
        var problems: [String] = []
        for route in candidates where workout.routeID == nil {
            if let problem = route.problem {
                problems.append(problem)
            } else if route.points < 2 {
                problems.append(route.points == 1 ? "a route of one point" : "a route without points")
            } else if try pointsDuring(route.id, workout) < 2 {
                problems.append("fewer than two of its route's points are within the workout's time")
            } else {
                workout.routeID = route.id
            }
        }
        if workout.routeID == nil, let problem = problems.first { workout.routeProblem = problem }
        return workout
    }

    /// The route's points within the workout's span (and the margin).
    private func pointsDuring(_ routeID: Int64, _ workout: ExportedWorkout) throws -> Int64 {
        pointsWithin.bind(1, routeID)
        pointsWithin.bind(2, workout.start * 100 - Self.routeMargin)
        pointsWithin.bind(3, workout.end * 100 + Self.routeMargin)
        return try pointsWithin.firstInteger() ?? 0
    }

    /// Laps from the workout's own Lap events, else its Segment events; pauses from Pause/Resume (and the
    /// Watch's motion pauses) paired in time order. Events of a workout's activities (iOS 16 multisport) are
    /// left to the workout-level ones, which the Watch writes as well.
    private func readEvents(into workout: inout ExportedWorkout) throws {
        var lapStarts: [Int64] = []
        var segmentStarts: [Int64] = []
        var pausedAt: Int64?
        let startCentis = workout.start * 100
        let endCentis = workout.end * 100
        events.bind(1, workout.id)
        try events.forEachRow { row in
            guard let type = row.text(0), let date = row.utcSeconds(1) else { return }
            let time = min(max(date * 100, startCentis), endCentis)
            switch type {
            case "HKWorkoutEventTypeLap": lapStarts.append(time)
            case "HKWorkoutEventTypeSegment": segmentStarts.append(time)
            case "HKWorkoutEventTypePause", "HKWorkoutEventTypeMotionPaused":
                if pausedAt == nil { pausedAt = time }
            case "HKWorkoutEventTypeResume", "HKWorkoutEventTypeMotionResumed":
                if let start = pausedAt, time > start { workout.pauses.append(PauseSpan(start: start, end: time)) }
                pausedAt = nil
            default: break
            }
        }
        if let start = pausedAt, endCentis > start { workout.pauses.append(PauseSpan(start: start, end: endCentis)) }
        let starts: [Int64]
        if !lapStarts.isEmpty {
            (starts, workout.lapOrigin) = (lapStarts, .lapEvents)
        } else if !segmentStarts.isEmpty {
            (starts, workout.lapOrigin) = (segmentStarts, .segmentEvents)
        } else {
            (starts, workout.lapOrigin) = ([startCentis], .whole)
        }
        workout.laps = Self.contiguous(starts, end: endCentis)
    }

    /// Laps from their starts: each to the next one's start, the last to `end`; two events at one instant are
    /// one lap.
    static func contiguous(_ starts: [Int64], end: Int64) -> [LapSpan] {
        var unique: [Int64] = []
        for start in starts.sorted() where unique.last != start { unique.append(start) }
        return unique.enumerated().map { index, start in
            LapSpan(start: start, end: index + 1 < unique.count ? unique[index + 1] : max(end, start))
        }
    }

    static func seconds(_ value: Double?, unit: String?) -> Double? {
        guard let value else { return nil }
        switch unit {
        case "s": return value
        case "min": return value * 60
        case "hr", "h": return value * 3600
        case "ms": return value / 1000
        default: return nil
        }
    }

    static func metres(_ value: Double?, unit: String?) -> Double? {
        guard let value else { return nil }
        switch unit {
        case "m": return value
        case "km": return value * 1000
        case "mi": return value * 1609.344
        case "yd": return value * 0.9144
        case "ft": return value * 0.3048
        case "cm": return value / 100
        default: return nil
        }
    }

    static func kilocalories(_ value: Double?, unit: String?) -> Double? {
        guard let value else { return nil }
        switch unit {
        case "kcal", "Cal": return value
        case "kJ": return value / 4.184
        case "cal": return value / 1000
        default: return nil
        }
    }
}
