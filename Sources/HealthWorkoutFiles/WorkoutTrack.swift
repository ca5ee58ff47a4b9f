import Foundation
import HealthModel
import HealthSQLite

/// One point of a workout's file: where and when (from the route, or a sample's time without one), and what
/// was measured then (`SampleSeries`: the sample at that instant, or a line between two close ones).
struct TrackPoint {
    /// UTC centiseconds since 1970.
    var time: Int64
    var latitude: Double?
    var longitude: Double?
    /// Metres.
    var elevation: Double?
    /// Metres along the route from its first point; nil without a route.
    var distance: Double?
    /// count/min.
    var heartRate: Double?
    /// Revolutions (or steps) per minute.
    var cadence: Double?
    /// Watts.
    var power: Double?
    /// m/s: the route's GPS speed, else the workout's speed samples.
    var speed: Double?
    /// The number of pauses that ended at or before this point: a new track segment begins when it changes.
    var segment: Int
    /// The lap (`ExportedWorkout.laps`) holding it.
    var lap: Int
}

/// A workout's points, streamed: route points are read from the database one row at a time (a 10-hour route
/// is never held), each joined with the workout's samples; without a route, the samples' own times are the
/// points. Every writer makes one or more passes over `forEachPoint`.
final class WorkoutTrack {
    private(set) var workout: ExportedWorkout
    private let includePosition: Bool
    private var heartRate = SampleSeries()
    private var cadence = SampleSeries()
    private var power = SampleSeries()
    private var speed = SampleSeries()
    private let route: SQLiteStatement?

    static let heartRateType = "HKQuantityTypeIdentifierHeartRate"

    init(_ workout: ExportedWorkout, connection: SQLiteConnection, includePosition: Bool) throws {
        self.workout = workout
        self.includePosition = includePosition
        let samples = try connection.prepare(
            """
            SELECT start_date, value FROM discrete_samples
            WHERE type = ?1 AND unit = ?2 AND start_date >= ?3 AND start_date <= ?4 AND (?5 IS NULL OR source_id = ?5)
            ORDER BY start_date, id
            """)
        let cycling = WorkoutSport.fit(workout.activityType).sport == 2
        heartRate = try Self.series(samples, workout, [Self.heartRateType], unit: "count/min")
        cadence = try Self.series(samples, workout, ["HKQuantityTypeIdentifierCyclingCadence"], unit: "count/min")
        let powerTypes = ["HKQuantityTypeIdentifierCyclingPower", "HKQuantityTypeIdentifierRunningPower"]
        power = try Self.series(samples, workout, cycling ? powerTypes : powerTypes.reversed(), unit: "W")
        let speedTypes = ["HKQuantityTypeIdentifierCyclingSpeed", "HKQuantityTypeIdentifierRunningSpeed"]
        speed = try Self.series(samples, workout, cycling ? speedTypes : speedTypes.reversed(), unit: "m/s")
        if let routeID = workout.routeID {
            let statement = try connection.prepare(
                """
                SELECT time_centis, latitude, longitude, elevation, speed FROM route_point_rows
                WHERE route_id = ?1 AND time_centis BETWEEN ?2 AND ?3 ORDER BY seq
                """)
            statement.bind(1, routeID)
            statement.bind(2, workout.start * 100 - WorkoutReader.routeMargin)
            statement.bind(3, workout.end * 100 + WorkoutReader.routeMargin)
            route = statement
        } else {
            route = nil
        }
    }

    var hasRoute: Bool { route != nil }
    var hasHeartRate: Bool { !heartRate.isEmpty }
    var hasCadence: Bool { !cadence.isEmpty }
    var hasPower: Bool { !power.isEmpty }
    var hasPosition: Bool { route != nil && includePosition }

    /// The samples of the first of `types` that has any during the workout: the workout's own source's when it
    /// has some (the Watch that recorded it, not a phone's or a strap's copy), else every source's.
    private static func series(
        _ statement: SQLiteStatement, _ workout: ExportedWorkout, _ types: [String], unit: String
    ) throws -> SampleSeries {
        for type in types {
            for source in [workout.sourceID, nil] as [Int64?] {
                var series = SampleSeries()
                statement.bind(1, type)
                statement.bind(2, unit)
                statement.bind(3, TimestampFormatting.utcString(workout.start))
                statement.bind(4, TimestampFormatting.utcString(workout.end))
                if let source { statement.bind(5, source) } else { statement.bindNull(5) }
                try statement.forEachRow { row in
                    if let time = row.utcSeconds(0), !row.isNull(1) {
                        series.append(time: time * 100, value: row.double(1))
                    }
                }
                if !series.isEmpty { return series }
            }
        }
        return SampleSeries()
    }

    /// Every point in time order, with its lap and segment.
    func forEachPoint(_ body: (TrackPoint) throws -> Void) throws {
        heartRate.rewind()
        cadence.rewind()
        power.rewind()
        speed.rewind()
        var lap = 0
        var segment = 0
        var pauseIndex = 0
        let pauses = workout.pauses
        func point(at time: Int64) -> TrackPoint {
            lap = workout.lapIndex(at: time, from: lap)
            while pauseIndex < pauses.count && pauses[pauseIndex].end <= time {
                pauseIndex += 1
                segment += 1
            }
            return TrackPoint(
                time: time, heartRate: heartRate.value(at: time), cadence: cadence.value(at: time),
                power: power.value(at: time), speed: speed.value(at: time), segment: segment, lap: lap)
        }
        if let route {
            var distance = 0.0
            var previous: (latitude: Double, longitude: Double)?
            try route.forEachRow { row in
                var next = point(at: row.integer(0))
                let latitude = row.double(1)
                let longitude = row.double(2)
                if let previous {
                    distance += Self.metresBetween(previous.latitude, previous.longitude, latitude, longitude)
                }
                previous = (latitude, longitude)
                next.distance = distance
                if includePosition {
                    next.latitude = latitude
                    next.longitude = longitude
                }
                if !row.isNull(3) { next.elevation = row.double(3) }
                if !row.isNull(4) { next.speed = row.double(4) }
                try body(next)
            }
        } else {
            // The samples' instants, merged: each series is already in order.
            let all = [heartRate.times, cadence.times, power.times, speed.times]
            var cursors = [0, 0, 0, 0]
            while true {
                var earliest: Int64?
                for (index, times) in all.enumerated() where cursors[index] < times.count {
                    earliest = min(earliest ?? Int64.max, times[cursors[index]])
                }
                guard let time = earliest else { break }
                for (index, times) in all.enumerated()
                where cursors[index] < times.count && times[cursors[index]] == time {
                    cursors[index] += 1
                }
                try body(point(at: time))
            }
        }
    }

    /// Great-circle distance on the mean Earth radius (IUGG, 6,371,008.8 m), by the haversine formula: within
    /// a few metres per 10 km of the ellipsoid's, far below GPS noise.
    static func metresBetween(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
        -> Double
    {
        let radians = Double.pi / 180
        let dLatitude = (latitude2 - latitude1) * radians
        let dLongitude = (longitude2 - longitude1) * radians
        let a =
            sin(dLatitude / 2) * sin(dLatitude / 2) + cos(latitude1 * radians) * cos(latitude2 * radians)
            * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(a)))
    }

    /// Splits a workout without lap events at each whole kilometre along its route, as the Health app shows it.
    func splitAtKilometres() throws {
        guard workout.lapOrigin == .whole, route != nil else { return }
        var starts = [workout.start * 100]
        var next = 1000.0
        try forEachPoint { point in
            guard let distance = point.distance, distance >= next else { return }
            starts.append(point.time)
            next = (distance / 1000).rounded(.down) * 1000 + 1000
        }
        guard starts.count > 1 else { return }
        workout.laps = WorkoutReader.contiguous(starts, end: workout.end * 100)
        workout.lapOrigin = .kilometres
    }
}
