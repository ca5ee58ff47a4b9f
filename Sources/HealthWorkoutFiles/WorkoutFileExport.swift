import Glibc
import HealthModel
import HealthSQLite
import HealthSchema

/// What writing a folder of workout files did.
public struct WorkoutFileReport: Sendable, Encodable, Equatable {
    public var folder: String
    public var format: String
    /// The files written (new or changed), by name.
    public var written: [String] = []
    /// Files already there with exactly the bytes they would get: left as they are.
    public var unchanged = 0
    /// One line per workout not written, or written without its route, saying why.
    public var notes: [String] = []
}

/// `healthetl export --workouts <folder>`: one file per workout of a database (docs/workouts.md), named by its
/// local start and activity, written owner-only and atomically; a file whose bytes would not change is not
/// rewritten, so a nightly run touches only new and changed workouts.
public enum WorkoutFileExport {
    public static func write(databasePath: String, to folder: String, options: WorkoutFileOptions) throws
        -> WorkoutFileReport
    {
        let connection = try StoredDatabase.openForReading(
            databasePath, requiring: ["workouts", "workout_events", "route_point_rows"], readOnly: true)
        try prepareFolder(folder)
        var report = WorkoutFileReport(folder: folder, format: options.format.rawValue)
        try StoredDatabase.read(databasePath) {
            // One snapshot: an import committing meanwhile changes no file half-way.
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            let reader = try WorkoutReader(connection: connection)
            var usedNames: Set<String> = []
            for id in try reader.selectedWorkouts(options) {
                guard let workout = try reader.workout(id) else { continue }
                var name = workout.baseName
                // Two workouts of one minute and activity (the Watch's and another app's copy): the later one
                // gets a number, in start order.
                var copy = 2
                while usedNames.contains(name) {
                    name = workout.baseName + "_\(copy)"
                    copy += 1
                }
                usedNames.insert(name)
                let fileName = name + "." + options.format.fileExtension
                if options.format == .gpx && (workout.routeID == nil || !options.includePosition) {
                    let reason =
                        workout.routeProblem.map { "its route is unusable: \($0)" }
                        ?? (workout.routeID == nil ? "the workout has no route" : "--no-position leaves no points")
                    report.notes.append("\(fileName): skipped (\(reason); GPX is a route: use TCX or FIT)")
                    continue
                }
                if let problem = workout.routeProblem {
                    report.notes.append("\(fileName): written without its route (\(problem))")
                }
                let track = try WorkoutTrack(workout, connection: connection, includePosition: options.includePosition)
                let path = folder + "/" + fileName
                if try write(track, format: options.format, to: path) {
                    report.written.append(fileName)
                } else {
                    report.unchanged += 1
                }
            }
        }
        return report
    }

    /// Renders the file; writes it unless `path` already holds exactly its bytes. True when written.
    static func write(_ track: WorkoutTrack, format: WorkoutFileFormat, to path: String) throws -> Bool {
        switch format {
        case .fit, .tcx:
            try track.splitAtKilometres()
            let summary = try TrackSummary(track)
            if format == .fit { return try writeIfChanged(FITWorkoutWriter(track: track, summary: summary), to: path) }
            return try writeIfChanged(TCXWorkoutWriter(track: track, summary: summary), to: path)
        case .gpx:
            return try writeIfChanged(GPXWorkoutWriter(track: track), to: path)
        }
    }

    private static func writeIfChanged<Writer: WorkoutFileWriter>(_ writer: Writer, to path: String) throws -> Bool {
        if var comparing = ComparingSink(path: path) {
            try writer.write(into: &comparing)
            if comparing.finishIsSame() { return false }
        }
        let file = try AtomicFile(path: path)
        var sink = AtomicFileSink(file: file)
        try writer.write(into: &sink)
        try file.close()
        try file.moveIntoPlace()
        return true
    }

    /// The output folder, made owner-only when new.
    static func prepareFolder(_ folder: String) throws {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw ImportError(.output, "not a folder", file: folder) }
        } else if mkdir(folder, 0o700) != 0 {
            throw ImportError(.output, "cannot create the folder: \(SystemError.last)", file: folder)
        }
    }
}
