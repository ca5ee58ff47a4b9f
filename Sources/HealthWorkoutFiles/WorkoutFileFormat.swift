import HealthModel

/// The three kinds of file training apps (Strava, Garmin Connect, intervals.icu, Golden Cheetah, Runalyze) read.
public enum WorkoutFileFormat: String, Sendable, CaseIterable, Equatable {
    /// Garmin's binary FIT activity file: laps, pauses, totals and every point (docs/workouts.md).
    case fit
    /// Garmin's TrainingCenterDatabase v2: laps with their totals and every point.
    case tcx
    /// GPX 1.1 with Garmin's TrackPointExtension v1 (heart rate, cadence): only workouts with a route.
    case gpx

    /// The name ending of its files.
    public var fileExtension: String { rawValue }
}

/// Which workouts to write, and how.
public struct WorkoutFileOptions: Sendable, Equatable {
    public var format: WorkoutFileFormat = .fit
    /// The first local day (`YYYY-MM-DD`, inclusive); nil: from the first workout.
    public var firstDay: String?
    /// The last local day (inclusive); nil: to the last workout.
    public var lastDay: String?
    /// Only this activity: its HealthKit identifier, its name without the prefix (`Running`) or the word of the
    /// file names (`running`), compared without case.
    public var activity: String?
    /// Leaves coordinates out (a file to share without places); GPX, which is nothing but places, is then skipped.
    public var includePosition = true

    public init() {}
}

extension WorkoutFileOptions {
    /// The options from their text (the command line's and a pipeline's values): refused values name the option.
    public static func parse(format: String?, start: String?, end: String?, activity: String?, position: Bool)
        throws(OptionValueError) -> WorkoutFileOptions
    {
        var options = WorkoutFileOptions()
        if let format {
            guard let known = WorkoutFileFormat(rawValue: format.lowercased()) else {
                throw OptionValueError(
                    message: "The value '\(format)' is invalid for '--format <fit|tcx|gpx>' with '--workouts'")
            }
            options.format = known
        }
        for (name, day) in [("--start", start), ("--end", end)] {
            if let day, day.count != 10 || Timestamp.dayNumber(ofDate: day) == nil {
                throw OptionValueError(message: "The value '\(day)' is invalid for '\(name) <YYYY-MM-DD>'")
            }
        }
        if let start, let end, start > end {
            throw OptionValueError(message: "'--start \(start)' is after '--end \(end)'")
        }
        options.firstDay = start
        options.lastDay = end
        if let activity, activity.isEmpty {
            throw OptionValueError(message: "'--activity' needs an activity (running, cycling, …)")
        }
        options.activity = activity
        options.includePosition = position
        return options
    }
}
