import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite

/// Routes longer than the spill threshold (`ImportJob.routeSpillThreshold`, set low here) give the same rows
/// as routes kept in memory: inline iOS 12 locations and GPX files, several routes in one workout, in a first
/// import (the decoding thread reads the GPX files) and in a re-import (the writing thread does).
struct RouteSpillTests {
    static let start = 1_706_770_800  // 2024-02-01 08:00:00 +0100

    static func time(_ offset: Int) -> String {
        TimestampFormatting.utcString(Int64(start + offset)).replacingOccurrences(of: "T", with: " ")
            .replacingOccurrences(of: "Z", with: " +0000")
    }

    /// A workout with one route of `inline` inline Locations and, from `gpxFiles`, routes read from GPX files.
    static func workout(day: Int, inline: Int, gpxFiles: [String]) -> String {
        let base = day * 86_400
        var lines = [
            #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" startDate="\#(time(base))" endDate="\#(time(base + 7200))">"#
        ]
        if inline > 0 {
            lines.append(
                #"  <WorkoutRoute sourceName="Phone" startDate="\#(time(base))" endDate="\#(time(base + 7200))">"#)
            for index in 0..<inline {
                let ele = index % 4 == 0 ? "" : #" altitude="\#(20 + index % 50).5""#
                lines.append(
                    #"   <Location date="\#(time(base + index))" latitude="\#(37.7 + Double(index) * 1e-6)" longitude="-122.4"\#(ele) horizontalAccuracy="4.2" verticalAccuracy="3.1" course="\#(index % 360)" speed="2.8"/>"#
                )
            }
            lines.append("  </WorkoutRoute>")
        }
        for file in gpxFiles {
            lines.append(
                #"  <WorkoutRoute sourceName="Watch" startDate="\#(time(base))" endDate="\#(time(base + 7200))"><FileReference path="/workout-routes/\#(file)"/></WorkoutRoute>"#
            )
        }
        lines.append(" </Workout>")
        return lines.joined(separator: "\n")
    }

    static func gpx(points: Int, day: Int) -> String {
        let rows = (0..<points).map { index in
            let instant = TimestampFormatting.utcString(Int64(start + day * 86_400 + index))
            let speed = index % 3 == 0 ? "-1" : "2.5"
            return
                #"<trkpt lon="6.1357" lat="\#(48.65 + Double(index) * 1e-6)"><ele>361.9</ele><time>\#(instant)</time><extensions><speed>\#(speed)</speed><course>50.5</course><hAcc>6.6</hAcc><vAcc>6.4</vAcc></extensions></trkpt>"#
        }
        return
            #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + rows.joined(separator: "\n") + "</trkseg></trk></gpx>"
    }

    /// An export folder with the workouts of `days` (0: an inline route and two GPX routes; 1: one long GPX route).
    static func export(days: [Int], in directory: TemporaryDirectory, name: String) throws -> String {
        let folder = directory.file(name) + "/apple_health_export"
        try FileManager.default.createDirectory(atPath: folder + "/workout-routes", withIntermediateDirectories: true)
        var body: [String] = []
        for day in days {
            let files = day == 0 ? ["route_a.gpx", "route_b.gpx"] : ["route_c.gpx"]
            body.append(workout(day: day, inline: day == 0 ? 1500 : 0, gpxFiles: files))
        }
        let files = ["route_a.gpx": (700, 0), "route_b.gpx": (90, 0), "route_c.gpx": (2100, 1)]
        for (file, (points, day)) in files {
            FileManager.default.createFile(
                atPath: folder + "/workout-routes/" + file, contents: Data(gpx(points: points, day: day).utf8))
        }
        FileManager.default.createFile(
            atPath: folder + "/export.xml", contents: Data(exportXML(body.joined(separator: "\n")).utf8))
        return folder
    }

    func importRows(_ inputs: [String], threshold: Int, into database: String) throws -> [String: [[SQLiteValue]]] {
        for input in inputs {
            var job = ImportJob(
                inputPath: input, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
            job.routeSpillThreshold = threshold
            _ = try job.run()
        }
        return try dataContent(of: database)
    }

    @Test("Spilled routes give the same rows, first import and re-import", arguments: [0, 100])
    func spilledRoutesGiveTheSameRows(threshold: Int) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try Self.export(days: [0], in: directory, name: "first")
        let next = try Self.export(days: [0, 1], in: directory, name: "next")

        let inMemory = try importRows(
            [first, next], threshold: RoutePointBuffer.defaultSpillThreshold, into: directory.file("memory.sqlite"))
        let spilled = try importRows([first, next], threshold: threshold, into: directory.file("spilled.sqlite"))
        #expect(spilled == inMemory)
        // 1500 inline + 700 + 90 (day 0) + 2100 (day 1, written by the re-import), every point in order.
        let points = try #require(inMemory["route_point_rows"])
        #expect(points.count == 1500 + 700 + 90 + 2100)
        let db = try SQLiteConnection(path: directory.file("spilled.sqlite"), create: false)
        #expect(try db.scalar("SELECT count(*) FROM workout_routes WHERE point_count > 0") == .integer(4))
        #expect(
            try db.scalar(
                "SELECT count(*) FROM route_points p JOIN route_points q ON q.route_id = p.route_id AND q.seq = p.seq + 1 "
                    + "WHERE q.time <= p.time") == .integer(0), "seq follows the points' order")
    }
}
