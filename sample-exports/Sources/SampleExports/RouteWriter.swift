import Foundation

/// A GPX file to write after export.xml is closed (zip entries are sequential, and the main XML is streamed).
struct RouteFile: Sendable {
    /// Inside `apple_health_export/`, e.g. `workout-routes/route_2019-06-11_3.00pm.gpx`.
    let relativePath: String
    /// `Route 2019-06-11 3:00pm`.
    let trackName: String
    let workout: WorkoutPlan
}

struct RoutePoint {
    let time: Int64
    let latitude: Double
    let longitude: Double
    let altitude: Double
    let speed: Double
    let course: Double
    let horizontalAccuracy: Double
    let verticalAccuracy: Double
}

/// A deterministic GPS track for one workout: a wandering walk/run/ride from a point near home, one fix every
/// few seconds, skipping paused time. Invalid fixes get speed and course -1, as CoreLocation reports them.
struct RouteTrack: Sequence, IteratorProtocol {
    private var random: SeededRandom
    private var time: Int64
    private let end: Int64
    private let interval: Int64
    private let pauses: [(Int64, Int64)]
    private let speed: Double
    private var latitude: Double
    private var longitude: Double
    private var altitude: Double
    private var heading: Double
    private var first = true

    init(workout: WorkoutPlan, seed: UInt64, scale: Double, zone: HomeZone, intervalSeconds: Int? = nil) {
        random = SeededRandom(seed: seed, stream: "route", day: workout.day * 4 + workout.slot)
        let (start, finish) = RouteTrack.span(workout)
        time = start
        end = finish
        interval = Int64(intervalSeconds ?? Int(Swift.max(1, (4 / scale).rounded())))
        pauses = workout.pauses
        switch workout.kind {
        case .cycling: speed = random.double(5.5, 8)
        case .walking: speed = random.double(1.2, 1.6)
        default: speed = random.double(2.6, 3.4)
        }
        let home = zone == .americaNewYork ? (40.7812, -73.9665) : (52.5145, 13.3501)
        latitude = home.0 + random.double(-0.01, 0.01)
        longitude = home.1 + random.double(-0.01, 0.01)
        altitude = random.double(30, 60)
        heading = random.double(0, 360)
    }

    static func span(_ workout: WorkoutPlan) -> (Int64, Int64) {
        (workout.start + 3, workout.end - 2)
    }

    mutating func next() -> RoutePoint? {
        while pauses.contains(where: { $0.0 <= time && time < $0.1 }) { time += interval }
        guard time <= end else { return nil }
        heading = (heading + random.double(-12, 12) + 360).truncatingRemainder(dividingBy: 360)
        let pace = speed * random.double(0.85, 1.15)
        let meters = pace * Double(interval)
        latitude += meters * cos(heading * .pi / 180) / 111_320
        longitude += meters * sin(heading * .pi / 180) / (111_320 * cos(latitude * .pi / 180))
        altitude += random.double(-0.4, 0.4)
        let invalid = first || random.chance(0.01)
        first = false
        let point = RoutePoint(
            time: time, latitude: latitude, longitude: longitude, altitude: altitude, speed: invalid ? -1 : pace,
            course: invalid ? -1 : heading, horizontalAccuracy: random.double(2, 12),
            verticalAccuracy: random.double(1.5, 8))
        time += interval
        return point
    }
}

/// `WorkoutRoute` elements (inline `Location`s for iOS 12, `FileReference` + GPX file later) and the GPX files.
struct RouteWriter {
    let context: ExportContext
    var writer: XMLWriter { context.writer }

    func writeRoute(for workout: WorkoutPlan, index: Int) throws {
        var random = context.random("route-element", day: workout.day * 4 + workout.slot)
        let modern = context.profile.isModern
        let (start, end) = RouteTrack.span(workout)
        try writer.raw("  <WorkoutRoute")
        try context.writeSource(modern ? context.sources.watch : context.sources.iPhone)
        try writer.attrDate("creationDate", workout.end + Int64(random.int(25...120)))
        try writer.attrDate("startDate", start)
        try writer.attrDate("endDate", end)
        try writer.raw(">\n")
        context.tally.workoutRoutes += 1
        if modern {
            try context.writeMetadata(
                [("HKMetadataKeySyncIdentifier", random.uuid()), ("HKMetadataKeySyncVersion", "2")], depth: 3)
            let (path, name) = fileName(end: end)
            try writer.raw("   <FileReference")
            try writer.attr("path", "/" + path)
            try writer.raw("/>\n")
            if index == 1 {
                // The exporter writes the reference before asking for locations; an empty route never gets a file.
                context.tally.missingRouteFiles += 1
            } else {
                context.routeFiles.append(RouteFile(relativePath: path, trackName: name, workout: workout))
            }
        } else {
            let track = RouteTrack(
                workout: workout, seed: context.seed, scale: context.scale, zone: context.options.homeZone,
                intervalSeconds: context.options.routeIntervalSeconds)
            for point in track {
                try writer.raw("   <Location")
                try writer.attrDate("date", point.time)
                try writer.attrG("latitude", point.latitude)
                try writer.attrG("longitude", point.longitude)
                try writer.attrG("altitude", point.altitude)
                try writer.attrG("horizontalAccuracy", point.horizontalAccuracy)
                try writer.attrG("verticalAccuracy", point.verticalAccuracy)
                try writer.attrG("course", point.course)
                try writer.attrG("speed", point.speed)
                try writer.raw("/>\n")
                context.tally.inlineLocations += 1
                context.tally.routePoints += 1
            }
        }
        try writer.raw("  </WorkoutRoute>\n")
    }

    /// `route_2019-06-11_3.00pm.gpx` from the route's end in the device's (DST-aware) zone, 12-hour clock.
    func fileName(end: Int64) -> (path: String, trackName: String) {
        let local = end + Int64(context.options.homeZone.offset(at: end))
        let days = CivilDate.floorDiv(local, 86_400)
        let seconds = Int(local - days * 86_400)
        let hour24 = seconds / 3_600
        let hour = hour24 % 12 == 0 ? 12 : hour24 % 12
        let minute = NumberText.twoDigits(seconds / 60 % 60)
        let suffix = hour24 < 12 ? "am" : "pm"
        let date = CivilDate.dayText(Int(days))
        let clock = "\(hour).\(minute)\(suffix)"
        return ("workout-routes/route_\(date)_\(clock).gpx", "Route \(date) \(hour):\(minute)\(suffix)")
    }

    /// The GPX exactly as `HKGPXExporter` lays it out (§8.2): two-space indentation, one `trkseg`, `%f` numbers,
    /// extensions without a namespace prefix, no newline after `</gpx>`.
    static func writeGPX(_ route: RouteFile, to gpx: XMLWriter, context: ExportContext) throws -> Int {
        try gpx.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        try gpx.raw(
            "<gpx version=\"1.1\" creator=\"Apple Health Export\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
                + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\""
                + "http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n")
        try gpx.raw("  <metadata>\n    <time>\(ExportClock.iso8601(context.exportTime))</time>\n  </metadata>\n")
        try gpx.raw("  <trk>\n    <name>\(route.trackName)</name>\n    <trkseg>\n")
        var points = 0
        let track = RouteTrack(
            workout: route.workout, seed: context.seed, scale: context.scale, zone: context.options.homeZone,
            intervalSeconds: context.options.routeIntervalSeconds)
        for point in track {
            try gpx.raw("      <trkpt lon=\"")
            try gpx.f(point.longitude)
            try gpx.raw("\" lat=\"")
            try gpx.f(point.latitude)
            try gpx.raw("\"><ele>")
            try gpx.f(point.altitude)
            try gpx.raw("</ele><time>")
            try gpx.raw(ExportClock.iso8601(point.time))
            try gpx.raw("</time><extensions><speed>")
            try gpx.f(point.speed)
            try gpx.raw("</speed><course>")
            try gpx.f(point.course)
            try gpx.raw("</course><hAcc>")
            try gpx.f(point.horizontalAccuracy)
            try gpx.raw("</hAcc><vAcc>")
            try gpx.f(point.verticalAccuracy)
            try gpx.raw("</vAcc></extensions></trkpt>\n")
            points += 1
        }
        try gpx.raw("    </trkseg>\n  </trk>\n</gpx>")
        return points
    }
}
