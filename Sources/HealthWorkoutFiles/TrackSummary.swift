/// What a pass over a workout's points adds up, per lap and in all: what the formats that put totals before
/// the points (TCX's laps) or after them (FIT's laps and session) need. The workout's own totals win where it
/// states them (`ExportedWorkout`); the points fill the rest.
struct TrackSummary {
    struct Lap {
        var span: LapSpan
        var elapsedSeconds: Double
        var timerSeconds: Double
        /// Metres: the route's share of the workout's distance (see `distanceShare`).
        var distance = 0.0
        var energy: Double?
        var averageHeartRate: Double?
        var maximumHeartRate: Double?
        var averageCadence: Double?
        var maximumCadence: Double?
        var averagePower: Double?
        var maximumPower: Double?
        var maximumSpeed: Double?
        var points = 0
        fileprivate var routeDistance = 0.0
        fileprivate var heartRate = Statistic()
        fileprivate var cadence = Statistic()
        fileprivate var power = Statistic()
    }

    fileprivate struct Statistic {
        var sum = 0.0
        var count = 0
        var maximum: Double?
        mutating func add(_ value: Double?) {
            guard let value else { return }
            sum += value
            count += 1
            maximum = max(maximum ?? value, value)
        }
        var average: Double? { count > 0 ? sum / Double(count) : nil }
    }

    var laps: [Lap]
    var points = 0
    /// Metres along the route, first point to last.
    var routeDistance = 0.0
    /// The workout's totals, or the points' where it states none.
    var distance: Double?
    var averageHeartRate: Double?
    var maximumHeartRate: Double?
    var averageCadence: Double?
    var maximumCadence: Double?
    var averagePower: Double?
    var maximumPower: Double?
    var maximumSpeed: Double?
    var firstPosition: (latitude: Double, longitude: Double)?
    var lastPosition: (latitude: Double, longitude: Double)?

    /// One pass over the points.
    init(_ track: WorkoutTrack) throws {
        let workout = track.workout
        laps = workout.laps.map { span in
            let elapsed = Double(span.end - span.start) / 100
            return Lap(
                span: span, elapsedSeconds: elapsed,
                timerSeconds: max(0, elapsed - workout.pausedSeconds(from: span.start, to: span.end)))
        }
        var heartRate = Statistic()
        var cadence = Statistic()
        var power = Statistic()
        var maximumSpeed: Double?
        var previousDistance = 0.0
        try track.forEachPoint { point in
            points += 1
            laps[point.lap].points += 1
            if let distance = point.distance {
                laps[point.lap].routeDistance += distance - previousDistance
                previousDistance = distance
                routeDistance = distance
            }
            laps[point.lap].heartRate.add(point.heartRate)
            laps[point.lap].cadence.add(point.cadence)
            laps[point.lap].power.add(point.power)
            heartRate.add(point.heartRate)
            cadence.add(point.cadence)
            power.add(point.power)
            if let speed = point.speed {
                maximumSpeed = max(maximumSpeed ?? speed, speed)
                laps[point.lap].maximumSpeed = max(laps[point.lap].maximumSpeed ?? speed, speed)
            }
            if let latitude = point.latitude, let longitude = point.longitude {
                if firstPosition == nil { firstPosition = (latitude, longitude) }
                lastPosition = (latitude, longitude)
            }
        }
        self.maximumSpeed = maximumSpeed
        distance = workout.distance ?? (track.hasRoute ? routeDistance : nil)
        averageHeartRate = workout.averageHeartRate ?? heartRate.average
        maximumHeartRate = workout.maximumHeartRate ?? heartRate.maximum
        averageCadence = cadence.average
        maximumCadence = cadence.maximum
        averagePower = power.average
        maximumPower = power.maximum
        // The laps' timers add up to the workout's duration: the Watch's own count of the time it ran, which
        // can differ from the span less the pauses by a few seconds (or more, in another app's copy).
        let spanTotal = laps.reduce(0) { $0 + $1.timerSeconds }
        if spanTotal > 0 {
            for index in laps.indices { laps[index].timerSeconds *= workout.timerSeconds / spanTotal }
        }
        let timerTotal = workout.timerSeconds
        for index in laps.indices {
            var lap = laps[index]
            lap.distance = Self.distanceShare(
                of: lap, total: distance, routeTotal: routeDistance, timerTotal: timerTotal)
            if let energy = workout.energy, timerTotal > 0 { lap.energy = energy * lap.timerSeconds / timerTotal }
            lap.averageHeartRate = lap.heartRate.average
            lap.maximumHeartRate = lap.heartRate.maximum
            lap.averageCadence = lap.cadence.average
            lap.maximumCadence = lap.cadence.maximum
            lap.averagePower = lap.power.average
            lap.maximumPower = lap.power.maximum
            laps[index] = lap
        }
    }

    /// A lap's distance: the workout's distance shared by the route's metres in the lap (the Watch measures
    /// distance with more than GPS, so its total, not the route's, is what the laps add up to); by the lap's
    /// time without a route; the route's own metres when the workout states no distance.
    private static func distanceShare(of lap: Lap, total: Double?, routeTotal: Double, timerTotal: Double) -> Double {
        guard let total else { return lap.routeDistance }
        if routeTotal > 0 { return total * lap.routeDistance / routeTotal }
        return timerTotal > 0 ? total * lap.timerSeconds / timerTotal : 0
    }
}
