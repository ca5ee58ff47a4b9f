/// Kinds of workout the simulated person does; each maps to an `HKWorkoutActivityType…` name and decides which
/// statistics, events and routes the workout gets.
enum WorkoutKind: Sendable {
    case running, walking, cycling, strength, swimming, swimBikeRun

    var activityType: String {
        switch self {
        case .running: return "HKWorkoutActivityTypeRunning"
        case .walking: return "HKWorkoutActivityTypeWalking"
        case .cycling: return "HKWorkoutActivityTypeCycling"
        case .strength: return "HKWorkoutActivityTypeTraditionalStrengthTraining"
        case .swimming: return "HKWorkoutActivityTypeSwimming"
        case .swimBikeRun: return "HKWorkoutActivityTypeSwimBikeRun"
        }
    }

    var hasRoute: Bool { self == .running || self == .walking || self == .cycling }
    var isIndoor: Bool { self == .strength }
}

/// One workout's skeleton. The details (distances, statistics, route points) come from the workout's own random
/// stream when it is written, so that the XML pass and the GPX pass that follows it agree without storing them.
struct WorkoutPlan: Sendable {
    let kind: WorkoutKind
    let start: Int64
    let end: Int64
    /// Paused intervals (pause time, resume time).
    let pauses: [(Int64, Int64)]
    /// Strava also saved this session: a probable duplicate workout.
    let stravaCopy: Bool
    /// Index among the export's workouts with a route (decides the one route whose GPX file is missing).
    let day: Int
    let slot: Int

    var pausedSeconds: Int64 { pauses.reduce(0) { $0 + ($1.1 - $1.0) } }
}

/// What one local day looks like: sleep, when the watch is off its wrist, workouts. Every section asks for the
/// plan of the day it writes, so heart rate, steps, workouts and summaries agree with each other.
struct DayPlan: Sendable {
    let index: Int
    /// Local midnight in the home zone, as Unix seconds; `end` is the next local midnight.
    let start: Int64
    let end: Int64
    /// The home zone's UTC offset that day (DST-aware), in seconds.
    let localOffset: Int
    /// Last night's bedtime (previous evening) and this morning's wake-up.
    let sleepStart: Int64
    let wake: Int64
    /// Tonight's bedtime: the awake part of the day is `wake..<bedtime`.
    let bedtime: Int64
    let watchOff: [Range<Int64>]
    let workouts: [WorkoutPlan]

    init(seed: UInt64, firstDayNumber: Int, index: Int, zone: HomeZone, modern: Bool, workoutLengthFactor: Int = 1) {
        self.index = index
        let midnightGuess = Int64(firstDayNumber + index) * 86_400
        localOffset = zone.offset(at: midnightGuess + 43_200)
        start = midnightGuess - Int64(zone.offset(at: midnightGuess))
        let nextGuess = midnightGuess + 86_400
        end = nextGuess - Int64(zone.offset(at: nextGuess))
        var random = SeededRandom(seed: seed, stream: "day-plan", day: index)
        sleepStart = start - Int64(random.int(20...100)) * 60
        wake = start + Int64(random.int(390...470)) * 60
        var next = SeededRandom(seed: seed, stream: "day-plan", day: index + 1)
        bedtime = end - Int64(next.int(20...100)) * 60

        var workouts: [WorkoutPlan] = []
        // The first days show every workout shape (route, multisport, the route without a GPX file), so even
        // a four-day test export has them all.
        let showcase: [WorkoutKind] = [.running, modern ? .swimBikeRun : .cycling, .walking]
        if random.chance(0.62) || index < showcase.count {
            let roll = random.unit()
            let kind: WorkoutKind
            switch index < showcase.count ? -1 : roll {
            case -1: kind = showcase[index]
            case ..<0.36: kind = .running
            case ..<0.55: kind = .walking
            case ..<0.74: kind = .cycling
            case ..<0.88: kind = .strength
            case ..<0.95: kind = .swimming
            default: kind = modern ? .swimBikeRun : .running
            }
            var minutes: Int
            switch kind {
            case .running: minutes = random.int(24...62)
            case .walking: minutes = random.int(20...70)
            case .cycling: minutes = random.int(35...95)
            case .strength: minutes = random.int(25...55)
            case .swimming: minutes = random.int(25...45)
            case .swimBikeRun: minutes = random.int(75...110)
            }
            // Lengthened after the draw, so the day's random stream (and everything else) stays the same.
            minutes *= workoutLengthFactor
            let begin = start + Int64(random.int((17 * 60)...(19 * 60 + 30))) * 60 + Int64(random.int(0...59))
            var pauses: [(Int64, Int64)] = []
            if kind != .swimBikeRun, random.chance(0.4) {
                let pauseAt = begin + Int64(minutes) * 30 + Int64(random.int(-300...300))
                pauses.append((pauseAt, pauseAt + Int64(random.int(40...240))))
            }
            let finish =
                begin + Int64(minutes) * 60 + Int64(random.int(0...59))
                + pauses.reduce(0) { $0 + ($1.1 - $1.0) }
            workouts.append(
                WorkoutPlan(
                    kind: kind, start: begin, end: finish, pauses: pauses,
                    stravaCopy: kind == .running && random.chance(0.35), day: index, slot: 0))
        }
        if random.chance(0.08) {
            let begin = wake + Int64(random.int(15...40)) * 60
            workouts.append(
                WorkoutPlan(
                    kind: .walking, start: begin, end: begin + Int64(random.int(900...1800)), pauses: [],
                    stravaCopy: false, day: index, slot: 1))
        }
        let sorted = workouts.sorted { $0.start < $1.start }
        self.workouts = sorted

        var off: [Range<Int64>] = []
        let charge = wake + Int64(random.int(10...40)) * 60
        off.append(charge..<(charge + Int64(random.int(35...80)) * 60))
        if random.chance(0.18) {
            let from = start + Int64(random.int((9 * 60)...(12 * 60))) * 60
            off.append(from..<(from + Int64(random.int(150...300)) * 60))
        }
        if !modern {
            off.append(bedtime..<end)
            off.append(start..<wake)
        }
        watchOff = off.filter { range in
            !sorted.contains { $0.start < range.upperBound && range.lowerBound < $0.end }
        }
    }

    func watchWorn(at time: Int64) -> Bool {
        !watchOff.contains { $0.contains(time) }
    }

    func workout(at time: Int64) -> WorkoutPlan? {
        workouts.first { $0.start <= time && time < $0.end }
    }

    /// Seconds after local midnight → instant.
    func at(_ secondsOfDay: Int) -> Int64 {
        start + Int64(secondsOfDay)
    }
}
