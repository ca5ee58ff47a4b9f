/// Time splits of a swim-bike-run session, shared by the workout writer and the cycling-distance records.
enum WorkoutGeometry {
    static func legs(_ workout: WorkoutPlan) -> [(Int64, Int64)] {
        let span = Double(workout.end - workout.start)
        func at(_ fraction: Double) -> Int64 { workout.start + Int64(span * fraction) }
        return [(workout.start, at(0.22)), (at(0.25), at(0.70)), (at(0.72), workout.end)]
    }

    static func bikeLeg(_ workout: WorkoutPlan) -> (Int64, Int64) {
        legs(workout)[1]
    }
}

/// A workout's numbers, drawn from the workout's own stream.
struct WorkoutNumbers {
    let activeSeconds: Double
    let meters: Double
    let kcal: Double
    let basalKcal: Double
    let heartRate: (average: Double, minimum: Double, maximum: Double)
    let steps: Double

    init(_ workout: WorkoutPlan, random: inout SeededRandom) {
        activeSeconds = Double(workout.end - workout.start - workout.pausedSeconds) + random.double(0.01, 0.99)
        let speed: Double
        let burn: Double
        switch workout.kind {
        case .running: (speed, burn) = (random.double(2.6, 3.4), random.double(0.17, 0.22))
        case .walking: (speed, burn) = (random.double(1.25, 1.6), random.double(0.07, 0.1))
        case .cycling: (speed, burn) = (random.double(5.5, 8.0), random.double(0.12, 0.18))
        case .strength: (speed, burn) = (0, random.double(0.08, 0.12))
        case .swimming: (speed, burn) = (random.double(0.5, 0.8), random.double(0.13, 0.17))
        case .swimBikeRun: (speed, burn) = (random.double(3.5, 4.5), random.double(0.16, 0.2))
        }
        meters = speed * activeSeconds
        kcal = burn * activeSeconds
        basalKcal = 0.0185 * activeSeconds
        let average = random.double(118, 158)
        heartRate = (average, average - random.double(25, 45), average + random.double(12, 28))
        steps = workout.kind == .running ? activeSeconds * 2.7 : (workout.kind == .walking ? activeSeconds * 1.8 : 0)
    }
}

/// `Workout` elements in both writer generations: iOS ≤ 15 total attributes, iOS 16+ statistics, nested
/// activities with their own events and statistics, and the workout metadata written twice.
struct WorkoutWriter {
    let context: ExportContext
    var writer: XMLWriter { context.writer }

    func write() throws {
        var routeIndex = 0
        var stravaCopies = 0
        for day in 0..<context.days {
            for workout in context.plan(day).workouts {
                try writeWorkout(workout, strava: false, routeIndex: &routeIndex)
                // The plan decides most Strava copies; the first outdoor session always gets one, so that even a
                // short export has a probable-duplicate pair.
                if workout.stravaCopy || (stravaCopies == 0 && workout.kind.hasRoute) {
                    stravaCopies += 1
                    try writeWorkout(workout, strava: true, routeIndex: &routeIndex)
                    context.tally.probableDuplicateWorkouts += 1
                }
            }
        }
    }

    private func writeWorkout(_ workout: WorkoutPlan, strava: Bool, routeIndex: inout Int) throws {
        var random = context.random("workout", day: workout.day * 4 + workout.slot)
        let numbers = WorkoutNumbers(workout, random: &random)
        let modern = context.profile.isModern
        let source = strava ? context.sources.strava : context.sources.watch
        let start = strava ? workout.start + 17 : workout.start
        let end = strava ? workout.end - 12 : workout.end
        try writer.raw(" <Workout workoutActivityType=\"")
        try writer.raw(workout.kind.activityType)
        try writer.byte(0x22)
        try writer.attrNumber("duration", numbers.activeSeconds / 60)
        try writer.raw(" durationUnit=\"min\"")
        if !modern {
            if numbers.meters > 0 {
                try writer.attrNumber("totalDistance", context.profile.walkingDistance(fromMeters: numbers.meters))
                try writer.attr("totalDistanceUnit", context.profile.walkingDistanceUnit)
            }
            try writer.attrNumber("totalEnergyBurned", numbers.kcal)
            try writer.raw(" totalEnergyBurnedUnit=\"kcal\"")
        }
        try context.writeSource(source)
        try writer.attrDate("creationDate", end + Int64(random.int(20...90)))
        try writer.attrDate("startDate", start)
        try writer.attrDate("endDate", end)
        try writer.raw(">\n")
        context.tally.workouts += 1

        let metadata = strava ? [] : workoutMetadata(workout, random: &random)
        try context.writeMetadata(metadata, depth: 2)
        if !strava {
            try writeEvents(events(workout, numbers: numbers), depth: 2)
            if modern {
                try writeActivities(workout, random: &random)
                try writeStatistics(workout.kind, from: start, to: end, numbers: numbers, depth: 2)
            }
            if workout.kind.hasRoute {
                try RouteWriter(context: context).writeRoute(for: workout, index: routeIndex)
                routeIndex += 1
            }
            if modern { try context.writeMetadata(metadata, depth: 2) }
        }
        try writer.raw(" </Workout>\n")
    }

    private func workoutMetadata(_ workout: WorkoutPlan, random: inout SeededRandom) -> Metadata {
        var metadata: Metadata = [
            ("HKIndoorWorkout", workout.kind.isIndoor ? "1" : "0"), ("HKTimeZone", context.zoneName),
        ]
        if !workout.kind.isIndoor && workout.kind != .swimming {
            let humidity = random.int(15...96)
            metadata.append(("HKWeatherTemperature", NumberText.g(random.double(39, 78)) + " degF"))
            metadata.append(("HKWeatherHumidity", context.profile.isModern ? "\(humidity * 100) %" : "\(humidity) %"))
            metadata.append(("HKElevationAscended", "\(random.int(40...1_200)) cm"))
        }
        if workout.kind == .swimming {
            metadata.append(("HKSwimmingLocationType", "1"))
            metadata.append(("HKLapLength", "25 m"))
        }
        if context.profile.isModern {
            metadata.append(("HKAverageMETs", NumberText.g(random.double(3.2, 11.5)) + " kcal/hr·kg"))
        }
        return metadata
    }

    typealias Event = (date: Int64, type: String, minutes: Double?, metadata: Metadata)

    private func events(_ workout: WorkoutPlan, numbers: WorkoutNumbers) -> [Event] {
        var events: [Event] = []
        for (pause, resume) in workout.pauses {
            events.append((pause, "HKWorkoutEventTypePause", nil, []))
            events.append((resume, "HKWorkoutEventTypeResume", nil, []))
        }
        switch workout.kind {
        case .running, .walking, .cycling:
            let splits = max(1, Int(numbers.meters / (workout.kind == .cycling ? 5_000 : 1_000)))
            let span = Double(workout.end - workout.start) / Double(splits)
            for split in 0..<splits {
                let date = workout.start + Int64(span * Double(split))
                events.append((date, "HKWorkoutEventTypeSegment", span / 60 + 0.000_123 * Double(split), []))
            }
        case .swimming:
            let laps = max(2, Int(numbers.meters / 100))
            let span = Double(workout.end - workout.start) / Double(laps)
            for lap in 0..<laps {
                let stroke: Metadata = context.profile.isModern ? [("HKSwimmingStrokeStyle", "2")] : []
                events.append((workout.start + Int64(span * Double(lap)), "HKWorkoutEventTypeLap", span / 60, stroke))
            }
        case .strength:
            events.append((workout.start + 600, "HKWorkoutEventTypeMarker", nil, []))
        case .swimBikeRun:
            for (from, to) in WorkoutGeometry.legs(workout) {
                events.append((from, "HKWorkoutEventTypeSegment", Double(to - from) / 60, []))
            }
        }
        return events.sorted { $0.date < $1.date }
    }

    private func writeEvents(_ events: [Event], depth: Int) throws {
        let modern = context.profile.isModern
        for event in events {
            try context.indent(depth)
            try writer.raw("<WorkoutEvent type=\"")
            try writer.raw(event.type)
            try writer.byte(0x22)
            try writer.attrDate("date", event.date)
            if let minutes = event.minutes {
                try writer.attrNumber("duration", minutes)
                try writer.raw(" durationUnit=\"min\"")
            }
            if modern && !event.metadata.isEmpty {
                try writer.raw(">\n")
                try context.writeMetadata(event.metadata, depth: depth + 1)
                try context.indent(depth)
                try writer.raw("</WorkoutEvent>\n")
            } else {
                try writer.raw("/>\n")
            }
            context.tally.workoutEvents += 1
        }
    }

    /// Swim-bike-run legs, or the warm-up/work/cool-down steps of a custom interval run (iOS 18).
    private func writeActivities(_ workout: WorkoutPlan, random: inout SeededRandom) throws {
        var parts: [(Int64, Int64, WorkoutKind, Metadata)] = []
        if workout.kind == .swimBikeRun {
            let kinds: [WorkoutKind] = [.swimming, .cycling, .running]
            for (index, leg) in WorkoutGeometry.legs(workout).enumerated() {
                let metadata: Metadata =
                    index == 0
                    ? [("HKSwimmingLocationType", "2"), ("HKIndoorWorkout", "0")]
                    : [("HKIndoorWorkout", "0"), ("HKElevationAscended", "\(random.int(100...900)) cm")]
                parts.append((leg.0, leg.1, kinds[index], metadata))
            }
        } else if workout.kind == .running && context.profile == .ios18 && workout.day % 3 == 0 {
            let span = (workout.end - workout.start) / 3
            for step in 0..<3 {
                let from = workout.start + span * Int64(step)
                parts.append(
                    (
                        from, step == 2 ? workout.end : from + span, .running,
                        [("WOIntervalStepKeyPath", "0.\(step).0"), ("WOIntervalStepSuccessful", "1")]
                    ))
            }
        }
        for (from, to, kind, metadata) in parts {
            let leg = WorkoutPlan(
                kind: kind, start: from, end: to, pauses: [], stravaCopy: false, day: workout.day, slot: workout.slot)
            let legNumbers = WorkoutNumbers(leg, random: &random)
            try writer.raw("  <WorkoutActivity")
            try writer.attr("uuid", random.uuid())
            try writer.attrDate("startDate", from)
            try writer.attrDate("endDate", to)
            try writer.attrNumber("duration", Double(to - from) / 60 + random.double(0.0001, 0.0099))
            try writer.raw(" durationUnit=\"min\">\n")
            try writeEvents([(from, "HKWorkoutEventTypeSegment", Double(to - from) / 60, [])], depth: 3)
            try writeStatistics(kind, from: from, to: to, numbers: legNumbers, depth: 3)
            try context.writeMetadata(metadata, depth: 3)
            try writer.raw("  </WorkoutActivity>\n")
            context.tally.workoutActivities += 1
        }
    }

    /// Cumulative types get `sum`; discrete types `average`/`minimum`/`maximum`; all carry `unit`.
    private func writeStatistics(
        _ kind: WorkoutKind, from: Int64, to: Int64, numbers: WorkoutNumbers, depth: Int
    ) throws {
        let profile = context.profile
        var sums: [(String, Double, String)] = [
            (
                "HKQuantityTypeIdentifierActiveEnergyBurned", profile.activeEnergy(fromKcal: numbers.kcal),
                profile.activeEnergyUnit
            ),
            ("HKQuantityTypeIdentifierBasalEnergyBurned", numbers.basalKcal, "kcal"),
        ]
        switch kind {
        case .running, .walking:
            sums.append(
                (
                    "HKQuantityTypeIdentifierDistanceWalkingRunning",
                    profile.walkingDistance(fromMeters: numbers.meters), profile.walkingDistanceUnit
                ))
            sums.append(("HKQuantityTypeIdentifierStepCount", numbers.steps, "count"))
        case .cycling:
            sums.append(("HKQuantityTypeIdentifierDistanceCycling", numbers.meters / 1_000, "km"))
        case .swimming:
            sums.append(("HKQuantityTypeIdentifierDistanceSwimming", numbers.meters, "m"))
            sums.append(("HKQuantityTypeIdentifierSwimmingStrokeCount", numbers.meters / 1.6, "count"))
        case .strength, .swimBikeRun:
            break
        }
        for (type, sum, unit) in sums {
            try statistic(type, from: from, to: to, depth: depth, unit: unit) { try writer.attrG("sum", sum) }
        }
        let heart = numbers.heartRate
        try statistic("HKQuantityTypeIdentifierHeartRate", from: from, to: to, depth: depth, unit: "count/min") {
            try writer.attrG("average", heart.average)
            try writer.attrG("minimum", heart.minimum)
            try writer.attrG("maximum", heart.maximum)
        }
        if kind == .running && profile == .ios18 {
            let speed = numbers.meters / numbers.activeSeconds * 3.6
            try statistic("HKQuantityTypeIdentifierRunningSpeed", from: from, to: to, depth: depth, unit: "km/hr") {
                try writer.attrG("average", speed)
                try writer.attrG("minimum", speed * 0.62)
                try writer.attrG("maximum", speed * 1.31)
            }
        }
    }

    private func statistic(
        _ type: String, from: Int64, to: Int64, depth: Int, unit: String, values: () throws -> Void
    ) throws {
        try context.indent(depth)
        try writer.raw("<WorkoutStatistics type=\"")
        try writer.raw(type)
        try writer.byte(0x22)
        try writer.attrDate("startDate", from)
        try writer.attrDate("endDate", to)
        try values()
        try writer.attr("unit", unit)
        try writer.raw("/>\n")
        context.tally.workoutStatistics += 1
    }
}
