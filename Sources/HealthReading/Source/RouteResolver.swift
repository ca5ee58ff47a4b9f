import Foundation
import HealthModel

/// Reads the GPX files a workout's routes refer to and fills in their points.
///
/// Its own value, with its own warnings, so that either thread of an import can run it: the decoding side
/// does, or leaves a workout to the thread that takes it when that one has time to spare
/// (`ExportReader.leavesRoutes`). The container reads side files with `pread`, so two threads can read entries
/// of one zip at once.
public struct RouteResolver {
    public let container: ExportContainer
    /// Counted warnings, merged into the run's summary.
    public private(set) var warnings: [String: Int] = [:]
    /// Route points a workout keeps in memory, all its routes together; past it, a route's points go to a
    /// temporary file (`RoutePointBuffer`).
    public var spillThreshold = RoutePointBuffer.defaultSpillThreshold

    public init(container: ExportContainer) { self.container = container }

    /// Hands the workout on with its GPX files unread, each route weighing the points its file will hold (a
    /// track point takes ~ 250 bytes of GPX; a route past the spill threshold keeps only that many in memory).
    public func leaveUnread(_ workout: inout Workout) {
        for index in workout.routes.indices where !workout.routes[index].fileRead {
            guard let path = workout.routes[index].filePath else { continue }
            let bytes = container.sideFileSize(path) ?? 0
            workout.routes[index].unreadPoints = min(bytes / 250, spillThreshold)
        }
    }

    /// A missing or unreadable file leaves the route without points, with `problem` saying why, and a
    /// counted warning: never a failed import. A route whose file was read already is left as it is.
    public mutating func resolve(_ workout: inout Workout) {
        for index in workout.routes.indices where !workout.routes[index].fileRead {
            guard let path = workout.routes[index].filePath else { continue }
            workout.routes[index].fileRead = true
            workout.routes[index].unreadPoints = 0
            do {
                guard let stream = try container.openSideFile(path) else {
                    workout.routes[index].problem = "route file \(path) is not in the export"
                    warnings[
                        "route file referenced but missing (the exporter writes none for an empty route)", default: 0] +=
                        1
                    continue
                }
                let threshold = spillThreshold - workout.residentRoutePoints
                let result = try GPXReader.readRoute(stream, spillThreshold: threshold)
                workout.routes[index].points = result.points
                if result.skippedPoints > 0 {
                    warnings["route points without a valid latitude/longitude (skipped)", default: 0] +=
                        result.skippedPoints
                }
            } catch let error as ImportError {
                let located = error.located(file: container.path, entry: container.sideFileLabel(path))
                workout.routes[index].problem = located.description
                warnings["route file unreadable: \(located.description)", default: 0] += 1
            } catch {
                workout.routes[index].problem = "\(error)"
                warnings["route file unreadable: \(error)", default: 0] += 1
            }
        }
    }
}
