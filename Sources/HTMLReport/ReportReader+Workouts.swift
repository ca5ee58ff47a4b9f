import Foundation

/// Workouts: minutes per activity and bucket, the longest and fastest, and the latest routes as shapes.
/// A workout that `workout_duplicates` links to an earlier one (the same session from a second app) is left
/// out, so a run recorded by the Watch and by Strava counts once.
extension ReportReader {
    struct WorkoutRow {
        var id: Int64
        var activity: String
        var day: String
        var minutes: Double
        /// Metres; nil when the workout has no distance in metres.
        var distance: Double?
    }

    /// The distance is `workouts.total_distance` (iOS ≤ 15), else the workout-level distance statistics
    /// (iOS 16+), in metres only: a database imported with `--raw-units` may hold miles, left out rather than mixed.
    /// The statistics are summed once per workout in a join (workout_statistics has no index on workout_id,
    /// so a subquery per workout would scan the table once per workout).
    static let workoutQuery = """
        SELECT w.id, w.activity_type, w.local_date, w.duration, w.duration_unit,
               CASE WHEN w.total_distance_unit = 'm' THEN w.total_distance END, d.distance
        FROM workouts w
        LEFT JOIN (SELECT workout_id, sum(sum) AS distance FROM workout_statistics
                   WHERE activity_id IS NULL AND type LIKE 'HKQuantityTypeIdentifierDistance%' AND unit = 'm'
                   GROUP BY workout_id) d ON d.workout_id = w.id
        WHERE w.local_date >= ?1 AND w.local_date <= ?2
          AND w.id NOT IN (SELECT workout_id FROM workout_duplicates)
        ORDER BY w.start_date
        """

    func workouts(first: String, last: String) throws -> ReportSectionContent {
        var content = ReportSectionContent(section: .workouts)
        let rows = try connection.query(Self.workoutQuery, [.text(first), .text(last)]).compactMap {
            row -> WorkoutRow? in
            guard let id = row[0].integer, let day = row[2].text,
                let minutes = Self.minutes(row[3].number, unit: row[4].text)
            else { return nil }
            let distance = row[5].number ?? row[6].number
            return WorkoutRow(
                id: id, activity: Self.activityName(row[1].text ?? ""), day: day, minutes: minutes,
                distance: distance.flatMap { $0 > 0 ? $0 : nil })
        }
        guard !rows.isEmpty else { return content }
        content.charts.append(minutesChart(rows))
        content.tables.append(summaryTable(rows))
        content.tables.append(recordsTable(rows))
        content.routes = try routes(first: first, last: last)
        return content
    }

    /// Minutes per bucket, one stacked series per activity (most minutes first).
    private func minutesChart(_ rows: [WorkoutRow]) -> ReportChart {
        var perActivity: [String: [(day: String, value: Double)]] = [:]
        for row in rows { perActivity[row.activity, default: []].append((row.day, row.minutes)) }
        let activities = perActivity.keys.sorted {
            let (a, b) = (perActivity[$0]!.reduce(0) { $0 + $1.value }, perActivity[$1]!.reduce(0) { $0 + $1.value })
            return a != b ? a > b : $0 < $1
        }
        let series = activities.map { activity in
            ReportSeries(key: "workouts:" + activity, name: activity, points: sumPerBucket(perActivity[activity]!))
        }
        return ReportChart(
            id: "workout-minutes", title: "Workout time by activity", unit: "min",
            note:
                "Minutes \(axis.resolution.perText) (workouts.duration, pauses excluded), by the day each workout started.",
            style: .stacked, series: series)
    }

    private func sumPerBucket(_ values: [(day: String, value: Double)]) -> [ReportPoint] {
        var sums: [String: Double] = [:]
        for (day, value) in values {
            guard let label = ReportCalendar.label(ofDay: day, axis.resolution) else { continue }
            sums[label, default: 0] += value
        }
        return sums.keys.sorted().map { ReportPoint($0, sums[$0]!) }
    }

    private func summaryTable(_ rows: [WorkoutRow]) -> ReportTable {
        var totals: [String: (count: Int, minutes: Double, distance: Double)] = [:]
        for row in rows {
            let total = totals[row.activity] ?? (0, 0, 0)
            totals[row.activity] = (total.count + 1, total.minutes + row.minutes, total.distance + (row.distance ?? 0))
        }
        let ordered = totals.sorted {
            $0.value.minutes != $1.value.minutes ? $0.value.minutes > $1.value.minutes : $0.key < $1.key
        }
        return ReportTable(
            id: "workout-totals", caption: "Workouts of the period by activity",
            header: ["activity", "workouts", "time", "distance"],
            rows: ordered.map { activity, total in
                [
                    activity, String(total.count), ReportFormat.duration(minutes: total.minutes),
                    total.distance > 0 ? ReportFormat.kilometres(total.distance) : "–",
                ]
            })
    }

    /// Per activity: the longest (by time) and, among those with at least a kilometre, the fastest on average.
    private func recordsTable(_ rows: [WorkoutRow]) -> ReportTable {
        var longest: [String: WorkoutRow] = [:]
        var fastest: [String: (row: WorkoutRow, speed: Double)] = [:]
        for row in rows {
            if row.minutes > (longest[row.activity]?.minutes ?? -1) { longest[row.activity] = row }
            if let distance = row.distance, distance >= 1_000, row.minutes > 0 {
                let speed = distance / (row.minutes * 60)
                if speed > (fastest[row.activity]?.speed ?? 0) { fastest[row.activity] = (row, speed) }
            }
        }
        return ReportTable(
            id: "workout-records", caption: "Longest and fastest workout per activity",
            header: ["activity", "longest", "fastest (≥ 1 km)"],
            rows: longest.keys.sorted().map { activity in
                let long = longest[activity]!
                var longText = "\(ReportFormat.duration(minutes: long.minutes)) on \(long.day)"
                if let distance = long.distance { longText += ", \(ReportFormat.kilometres(distance))" }
                let fast =
                    fastest[activity].map {
                        "\(ReportFormat.pace(metresPerSecond: $0.speed)) over \(ReportFormat.kilometres($0.row.distance ?? 0)) on \($0.row.day)"
                    } ?? "–"
                return [activity, longText, fast]
            })
    }

    /// The latest routes of the range as shapes: each route's points are read in order, one at a time,
    /// keeping every k-th (and the last), so even a long GPS recording costs only its few hundred points.
    func routes(first: String, last: String) throws -> [ReportRoute] {
        let routes = try connection.query(
            """
            SELECT r.id, r.workout_id, r.point_count, w.activity_type, w.local_date FROM workout_routes r
            JOIN workouts w ON w.id = r.workout_id
            WHERE w.local_date >= ?1 AND w.local_date <= ?2 AND r.point_count > 1
              AND w.id NOT IN (SELECT workout_id FROM workout_duplicates)
            ORDER BY w.start_date DESC, r.id LIMIT ?3
            """, [.text(first), .text(last), .integer(Int64(options.routeLimit))])
        let points = try connection.prepare(
            "SELECT latitude, longitude FROM route_points WHERE route_id = ?1 ORDER BY seq")
        var result: [ReportRoute] = []
        for route in routes {
            guard let routeID = route[0].integer, let workoutID = route[1].integer, let count = route[2].integer else {
                continue
            }
            let step = max(1, Int((count + Int64(options.pointsPerRoute) - 1) / Int64(options.pointsPerRoute)))
            var kept: [(latitude: Double, longitude: Double)] = []
            var lastPoint: (latitude: Double, longitude: Double)?
            var index = 0
            points.bind(1, routeID)
            try points.forEachRow { row in
                let point = (latitude: row.double(0), longitude: row.double(1))
                if index % step == 0 { kept.append(point) }
                lastPoint = point
                index += 1
            }
            if let lastPoint, (index - 1) % step != 0 { kept.append(lastPoint) }
            guard kept.count > 1 else { continue }
            let title = "\(Self.activityName(route[3].text ?? "")), \(route[4].text ?? "")"
            result.append(
                ReportRoute(workoutID: workoutID, title: title, points: Self.project(kept), storedPoints: index))
        }
        return result
    }

    /// Equirectangular projection around the route's mean latitude, scaled into the unit box keeping its
    /// proportions (north up), centred. Good enough for the few kilometres of a workout.
    static func project(_ points: [(latitude: Double, longitude: Double)]) -> [(x: Double, y: Double)] {
        let meanLatitude = points.reduce(0) { $0 + $1.latitude } / Double(points.count)
        let squeeze = cos(meanLatitude * .pi / 180)
        let flat = points.map { (x: $0.longitude * squeeze, y: -$0.latitude) }
        let (minX, maxX) = (flat.map(\.x).min()!, flat.map(\.x).max()!)
        let (minY, maxY) = (flat.map(\.y).min()!, flat.map(\.y).max()!)
        let size = max(maxX - minX, maxY - minY, 1e-9)
        let (offsetX, offsetY) = ((1 - (maxX - minX) / size) / 2, (1 - (maxY - minY) / size) / 2)
        return flat.map { (x: ($0.x - minX) / size + offsetX, y: ($0.y - minY) / size + offsetY) }
    }

    static func minutes(_ duration: Double?, unit: String?) -> Double? {
        guard let duration, duration.isFinite, duration >= 0 else { return nil }
        switch unit ?? "min" {
        case "s": return duration / 60
        case "hr", "h": return duration * 60
        case "min": return duration
        default: return nil
        }
    }

    /// `HKWorkoutActivityTypeTraditionalStrengthTraining` → `Traditional Strength Training`.
    static func activityName(_ type: String) -> String {
        let bare =
            type.hasPrefix("HKWorkoutActivityType") ? String(type.dropFirst("HKWorkoutActivityType".count)) : type
        var words = ""
        for character in bare {
            if character.isUppercase, let previous = words.last, previous.isLowercase { words.append(" ") }
            words.append(character)
        }
        return words.isEmpty ? "Other" : words
    }
}
