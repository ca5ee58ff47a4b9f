/// Display units differ per user; spreading them over the profiles means every unit family (mi/km, Cal/kcal/kJ)
/// shows up in the committed samples, and `BodyMass`/`BloodGlucose` mix units inside one export.
extension ExportProfile {
    var activeEnergyUnit: String {
        switch self {
        case .ios8, .ios12: return "kcal"
        case .ios16: return "kJ"
        case .ios18: return "Cal"
        }
    }

    var dietaryEnergyUnit: String { self == .ios16 ? "Cal" : (self == .ios12 ? "Cal" : "kJ") }
    var walkingDistanceUnit: String { self == .ios16 ? "km" : "mi" }

    /// Kilocalories → the profile's active-energy unit (Cal is kcal).
    func activeEnergy(fromKcal kcal: Double) -> Double {
        activeEnergyUnit == "kJ" ? kcal * 4.184 : kcal
    }

    func walkingDistance(fromMeters meters: Double) -> Double {
        walkingDistanceUnit == "mi" ? meters / 1_609.344 : meters / 1_000
    }
}

/// A step/distance sample as one device measured it. The iPhone and the Watch measure the same movement
/// separately, so their samples overlap in time: summing both over-counts, as in real exports.
struct MovementSample {
    let fromWatch: Bool
    let start: Int64
    let end: Int64
    let steps: Int
    let meters: Double
    let flights: Int
    let copies: Int
}

/// StepCount, DistanceWalkingRunning, ActiveEnergyBurned, BasalEnergyBurned, FlightsClimbed, AppleExerciseTime,
/// DistanceCycling: the bulk of a real export.
struct ActivityRecords {
    let context: ExportContext

    /// The day's movement as the two devices saw it, time-ordered. Deterministic per day, so steps, distance and
    /// flights (written in separate type groups) describe the same walks.
    func movement(day: Int) -> [MovementSample] {
        let plan = context.plan(day)
        var random = context.random("movement", day: day)
        var samples: [MovementSample] = []
        let awake = max(3_600, plan.bedtime - plan.wake)
        let bouts = max(4, Int((34 * context.scale).rounded()) + random.int(-6...6))
        for _ in 0..<bouts {
            let start = plan.wake + Int64(random.double(0, Double(awake - 900)))
            if plan.workout(at: start) != nil { continue }
            let duration = Int64(random.int(50...840))
            let steps = Double(duration) * random.double(0.5, 1.8)
            let stride = random.double(0.68, 0.8)
            let flights = random.chance(0.12) ? random.int(1...4) : 0
            if random.chance(0.78) {
                let jitter = Int64(random.int(-40...40))
                let phoneSteps = (steps * random.double(0.86, 1.0)).rounded()
                samples.append(
                    MovementSample(
                        fromWatch: false, start: start + jitter, end: start + jitter + duration,
                        steps: Int(phoneSteps), meters: phoneSteps * stride, flights: flights, copies: 1))
            }
            guard plan.watchWorn(at: start) else { continue }
            let parts = random.int(1...3)
            var cursor = start
            for part in 0..<parts {
                let length = part == parts - 1 ? start + duration - cursor : duration / Int64(parts)
                let share = (steps * Double(length) / Double(duration) * random.double(0.95, 1.06)).rounded()
                samples.append(
                    MovementSample(
                        fromWatch: true, start: cursor, end: cursor + length, steps: max(1, Int(share)),
                        meters: share * stride, flights: part == 0 ? flights : 0,
                        copies: context.copies(&random, probability: 0.012)))
                cursor += length
            }
        }
        for workout in plan.workouts where workout.kind == .running || workout.kind == .walking {
            let cadence = workout.kind == .running ? 2.7 : 1.8
            let stride = workout.kind == .running ? 1.05 : 0.74
            var cursor = workout.start
            while cursor < workout.end {
                let length = min(Int64(random.int(45...110)), workout.end - cursor)
                let steps = (Double(length) * cadence * random.double(0.9, 1.1)).rounded()
                samples.append(
                    MovementSample(
                        fromWatch: true, start: cursor, end: cursor + length, steps: Int(steps),
                        meters: steps * stride, flights: 0, copies: 1))
                cursor += length
            }
        }
        return samples.sorted { $0.start < $1.start }
    }

    func source(_ sample: MovementSample) -> Source {
        sample.fromWatch ? context.sources.watch : context.sources.iPhone
    }

    func writeSteps() throws {
        let type = "HKQuantityTypeIdentifierStepCount"
        for day in 0..<context.days {
            var random = context.random("steps-write", day: day)
            for sample in movement(day: day) {
                let source = source(sample)
                try context.writeRecord(
                    type: type, source: source, unit: "count",
                    created: context.creation(after: sample.end, random: &random), start: sample.start,
                    end: sample.end, value: .quantity(Double(sample.steps)), copies: sample.copies)
                context.tally.addSteps(
                    day: CivilDate.dayText(context.clock.localDay(sample.start)), source: source.name,
                    count: sample.steps)
            }
            if day % 9 == 4 {
                // A step count typed into the Health app: no device, HKWasUserEntered.
                let plan = context.plan(day)
                let start = plan.at(15 * 3_600)
                try context.writeRecord(
                    type: type, source: context.sources.health, unit: "count", created: plan.at(21 * 3_600),
                    start: start, end: start + 3_600, value: .quantity(1_200),
                    metadata: [("HKWasUserEntered", "1")])
                context.tally.addSteps(
                    day: CivilDate.dayText(context.clock.localDay(start)), source: "Health", count: 1_200)
            }
        }
    }

    func writeDistance() throws {
        let unit = context.profile.walkingDistanceUnit
        for day in 0..<context.days {
            var random = context.random("distance-write", day: day)
            for sample in movement(day: day) {
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierDistanceWalkingRunning", source: source(sample), unit: unit,
                    created: context.creation(after: sample.end, random: &random), start: sample.start,
                    end: sample.end, value: .quantity(context.profile.walkingDistance(fromMeters: sample.meters)),
                    copies: sample.copies)
            }
        }
    }

    func writeFlights() throws {
        for day in 0..<context.days {
            var random = context.random("flights-write", day: day)
            for sample in movement(day: day) where sample.flights > 0 {
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierFlightsClimbed", source: source(sample), unit: "count",
                    created: context.creation(after: sample.end, random: &random), start: sample.start,
                    end: sample.end, value: .quantity(Double(sample.flights)))
            }
        }
    }

    /// Watch energy every few minutes while worn (fast during workouts), plus the iPhone's per-walk estimates.
    func writeActiveEnergy() throws {
        let profile = context.profile
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("active-energy", day: day)
            let step = Int64(max(30, (170 / context.scale).rounded()))
            var cursor = plan.wake
            while cursor < plan.bedtime {
                let inWorkout = plan.workout(at: cursor) != nil
                let length = inWorkout ? Int64(random.int(50...70)) : step + Int64(random.int(-40...40))
                if plan.watchWorn(at: cursor) {
                    let rate = inWorkout ? random.double(0.12, 0.2) : random.double(0.004, 0.03)
                    try context.writeRecord(
                        type: "HKQuantityTypeIdentifierActiveEnergyBurned", source: context.sources.watch,
                        unit: profile.activeEnergyUnit,
                        created: context.creation(after: cursor + length, random: &random), start: cursor,
                        end: cursor + length,
                        value: .quantity(profile.activeEnergy(fromKcal: rate * Double(length))))
                }
                cursor += length
            }
            for sample in movement(day: day) where !sample.fromWatch {
                try context.writeRecord(
                    type: "HKQuantityTypeIdentifierActiveEnergyBurned", source: context.sources.iPhone,
                    unit: profile.activeEnergyUnit, created: context.creation(after: sample.end, random: &random),
                    start: sample.start, end: sample.end,
                    value: .quantity(profile.activeEnergy(fromKcal: Double(sample.steps) * 0.041)))
            }
        }
    }

    func writeBasalEnergy() throws {
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("basal-energy", day: day)
            let step = Int64(max(120, (900 / context.scale).rounded()))
            var cursor = plan.start
            while cursor < plan.end {
                let length = min(step + Int64(random.int(-60...60)), plan.end - cursor)
                if plan.watchWorn(at: cursor) {
                    try context.writeRecord(
                        type: "HKQuantityTypeIdentifierBasalEnergyBurned", source: context.sources.watch,
                        unit: "kcal", created: context.creation(after: cursor + length, random: &random),
                        start: cursor, end: cursor + length,
                        value: .quantity(random.double(0.0175, 0.0195) * Double(length)))
                }
                cursor += length
            }
        }
    }

    /// One-minute exercise samples during workouts, as the Watch writes them.
    func writeExerciseTime() throws {
        for day in 0..<context.days {
            var random = context.random("exercise-time", day: day)
            for workout in context.plan(day).workouts {
                var cursor = workout.start
                while cursor + 60 <= workout.end {
                    try context.writeRecord(
                        type: "HKQuantityTypeIdentifierAppleExerciseTime", source: context.sources.watch,
                        unit: "min", created: context.creation(after: cursor + 60, random: &random), start: cursor,
                        end: cursor + 60, value: .quantity(1))
                    cursor += 60
                }
            }
        }
    }

    /// Cycling distance in km from the Watch during rides, plus the iPhone's tiny misdetections, which `%g`
    /// prints in exponent form (`9.9854e-06`).
    func writeCyclingDistance() throws {
        let type = "HKQuantityTypeIdentifierDistanceCycling"
        for day in 0..<context.days {
            let plan = context.plan(day)
            var random = context.random("cycling-distance", day: day)
            for workout in plan.workouts where workout.kind == .cycling || workout.kind == .swimBikeRun {
                let (from, to) =
                    workout.kind == .cycling
                    ? (workout.start, workout.end) : WorkoutGeometry.bikeLeg(workout)
                var cursor = from
                while cursor < to {
                    let length = min(Int64(random.int(50...80)), to - cursor)
                    try context.writeRecord(
                        type: type, source: context.sources.watch, unit: "km",
                        created: context.creation(after: cursor + length, random: &random), start: cursor,
                        end: cursor + length, value: .quantity(Double(length) * random.double(0.0055, 0.0085)))
                    cursor += length
                }
            }
            for _ in 0..<2 {
                let start = plan.wake + Int64(random.int(3_600...36_000))
                try context.writeRecord(
                    type: type, source: context.sources.iPhone, unit: "km",
                    created: context.creation(after: start + 9, random: &random), start: start, end: start + 9,
                    value: .quantity(random.double(2e-6, 9.99e-5)))
            }
        }
    }
}
