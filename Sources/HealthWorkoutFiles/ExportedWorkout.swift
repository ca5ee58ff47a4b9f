import HealthModel

/// One workout as a file holds it: when, what, the totals the workout itself states (`workouts` and its
/// `workout_statistics`), its laps and pauses from `workout_events`, and the route its points come from.
/// Instants are UTC seconds since 1970; times inside the file are centiseconds.
struct ExportedWorkout: Sendable {
    var id: Int64
    /// `HKWorkoutActivityTypeRunning`, …
    var activityType: String
    var sourceID: Int64
    var start: Int64
    var end: Int64
    /// `2024-03-05T07:12:00+01:00`: the workout's local start with its offset, when the database has it.
    var localStart: String?
    /// Seconds the timer ran: the workout's duration, which excludes pauses.
    var timerSeconds: Double
    /// The totals, in metres, kilocalories, count/min and metres; nil when the workout does not state them.
    var distance: Double?
    var energy: Double?
    var averageHeartRate: Double?
    var maximumHeartRate: Double?
    var elevationGain: Double?
    /// A swim's strokes (`SwimmingStrokeCount`): a swimming session's `total_cycles` in FIT.
    var strokes: Double?
    /// The route whose points the file carries (the one with most points), nil without a usable route.
    var routeID: Int64?
    /// Why the workout's route could not be used (a GPX file missing from the export, a single point).
    var routeProblem: String?
    var laps: [LapSpan] = []
    var lapOrigin = LapOrigin.whole
    var pauses: [PauseSpan] = []

    var elapsedSeconds: Double { Double(end - start) }

    /// Offset of the local start from UTC, in seconds (0 when unknown).
    var utcOffsetSeconds: Int64 {
        guard let text = localStart, text.count >= 25 else { return 0 }
        let tail = Array(text.utf8.suffix(6))
        guard tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-"), tail[3] == UInt8(ascii: ":") else {
            return 0
        }
        func digit(_ index: Int) -> Int64 { Int64(tail[index]) - 48 }
        let seconds = (digit(1) * 10 + digit(2)) * 3600 + (digit(4) * 10 + digit(5)) * 60
        return tail[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}

/// A lap as the file shows it: from its start to the next lap's (the last to the workout's end), so laps cover
/// the workout without gaps.
struct LapSpan: Sendable, Equatable {
    /// Centiseconds.
    var start: Int64
    var end: Int64
}

/// Where the laps came from.
enum LapOrigin: Sendable {
    /// `HKWorkoutEventTypeLap` events (laps the athlete marked, a pool's lengths).
    case lapEvents
    /// `HKWorkoutEventTypeSegment` events (the splits the Watch records).
    case segmentEvents
    /// Whole kilometres along the route, as the Health app splits a workout without events.
    case kilometres
    /// One lap: the whole workout.
    case whole
}

/// A stopped timer: a pause (or a motion pause) to its resume, in centiseconds.
struct PauseSpan: Sendable, Equatable {
    var start: Int64
    var end: Int64
}

extension ExportedWorkout {
    /// Seconds of `start..<end` (centiseconds) the timer was stopped.
    func pausedSeconds(from start: Int64, to end: Int64) -> Double {
        var paused: Int64 = 0
        for pause in pauses {
            let overlap = min(end, pause.end) - max(start, pause.start)
            if overlap > 0 { paused += overlap }
        }
        return Double(paused) / 100
    }

    /// The index of the lap holding `time` (centiseconds): the last that starts at or before it, else the first.
    func lapIndex(at time: Int64, from hint: Int) -> Int {
        var index = min(hint, max(laps.count - 1, 0))
        if index > 0 && laps[index].start > time { index = 0 }
        while index + 1 < laps.count && laps[index + 1].start <= time { index += 1 }
        return index
    }

    /// The file's name: local start and activity (`2025-09-16_1815_running`), without its extension.
    var baseName: String {
        var stamp = localStart ?? TimestampFormatting.utcString(start)
        // 2024-03-05T07:12… → 2024-03-05_0712
        let characters = Array(stamp)
        if characters.count >= 16 {
            stamp = String(characters[0..<10]) + "_" + String(characters[11..<13]) + String(characters[14..<16])
        }
        return stamp + "_" + WorkoutSport.fileWord(activityType)
    }
}
