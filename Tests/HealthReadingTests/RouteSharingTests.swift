import Foundation
import HealthTestSupport
import Synchronization
import Testing

@testable import HealthModel
@testable import HealthReading

/// A workout whose GPX files the reader leaves to whoever takes it (`ExportReader.leavesRoutes`): it weighs what
/// its points will (so the queue's bound counts them), the taker's `RouteResolver` reads each file once, and the
/// points, problems and warnings come out as when the reader reads every file itself.
struct RouteSharingTests {
    /// Each route of each workout: its file, its points and its problem, as compared text.
    static func routes(_ workouts: [Workout]) throws -> [String] {
        try workouts.flatMap { workout in
            try workout.routes.map { route in
                var points: [RoutePoint] = []
                try route.points.forEachChunk { points.append(contentsOf: $0) }
                return "\(route.filePath ?? "-") \(points) \(route.problem ?? "-")"
            }
        }
    }

    static func workouts(of reader: ExportReader) throws -> [Workout] {
        var workouts: [Workout] = []
        while let item = try reader.next() {
            if case .workout(let workout) = item { workouts.append(workout) }
        }
        return workouts
    }

    @Test func aWorkoutLeftToTheTakerEndsAsTheReaderWouldHaveReadIt() throws {
        let export = try GeneratedExport.days(6, seed: 5)
        let container = try ExportContainer(path: export.path)
        let whole = try ExportReader(container: container)
        let expected = try Self.workouts(of: whole)
        #expect(expected.contains { $0.hasUnreadRouteFile == false && !$0.routes.isEmpty })

        // Every other workout with a GPX file is left to the taker.
        let asked = Atomic<Int>(0)
        let shared = try ExportReader(container: container)
        shared.leavesRoutes = { asked.add(1, ordering: .relaxed).newValue % 2 == 1 }
        var taker = RouteResolver(container: container)
        var left = 0
        var workouts: [Workout] = []
        for var workout in try Self.workouts(of: shared) {
            if workout.hasUnreadRouteFile {
                left += 1
                let unread = workout.routes.filter { $0.filePath != nil }
                #expect(unread.allSatisfy { $0.unreadPoints > 0 && $0.points.isEmpty })
                #expect(ExportItem.workout(workout).weight >= unread.reduce(0) { $0 + $1.unreadPoints })
                taker.resolve(&workout)
                #expect(!workout.hasUnreadRouteFile)
                #expect(workout.routes.allSatisfy { $0.unreadPoints == 0 })
            }
            // A route read already (by either side) is left as it is: its file is not opened again (one renamed
            // to a missing file would be reported missing if it were).
            var again = workout
            for index in again.routes.indices where again.routes[index].filePath != nil {
                again.routes[index].filePath = "/workout-routes/missing.gpx"
            }
            let before = try Self.routes([again])
            taker.resolve(&again)
            #expect(try Self.routes([again]) == before)
            workouts.append(workout)
        }
        #expect(left > 0)
        #expect(left < workouts.filter { $0.routes.contains { $0.filePath != nil } }.count)
        #expect(try Self.routes(workouts) == Self.routes(expected))
        #expect(shared.warnings.merging(taker.warnings, uniquingKeysWith: +) == whole.warnings)
    }
}
