import Foundation
import HealthJSON

/// A workout's route reduced to what a person asks about: distance, elevation gain, bounding box, duration, and
/// on request a downsampled line of points. Pure: the points come from `route_points`.
package struct RouteSummary {
    package struct Point: Equatable {
        package var time: String?
        package var latitude: Double
        package var longitude: Double
        package var elevation: Double?

        package init(time: String?, latitude: Double, longitude: Double, elevation: Double?) {
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
        }
    }

    package var points = 0
    package var distanceMeters = 0.0
    package var elevationGainMeters = 0.0
    package var minimumLatitude = Double.infinity, maximumLatitude = -Double.infinity
    package var minimumLongitude = Double.infinity, maximumLongitude = -Double.infinity
    package var firstTime: String?
    package var lastTime: String?
    private var previous: Point?
    /// The elevation the gain is counted from: GPS elevation jitters by metres, so a climb counts only once it
    /// exceeds `elevationThreshold` above the last low point (a hysteresis, as watches count it).
    private var elevationBase: Double?
    static let elevationThreshold = 3.0

    package init() {}

    package mutating func add(_ point: Point) {
        points += 1
        if let previous { distanceMeters += Self.haversine(previous, point) }
        minimumLatitude = min(minimumLatitude, point.latitude)
        maximumLatitude = max(maximumLatitude, point.latitude)
        minimumLongitude = min(minimumLongitude, point.longitude)
        maximumLongitude = max(maximumLongitude, point.longitude)
        if firstTime == nil { firstTime = point.time }
        if point.time != nil { lastTime = point.time }
        if let elevation = point.elevation {
            if let base = elevationBase {
                if elevation < base {
                    elevationBase = elevation
                } else if elevation - base >= Self.elevationThreshold {
                    elevationGainMeters += elevation - base
                    elevationBase = elevation
                }
            } else {
                elevationBase = elevation
            }
        }
        previous = point
    }

    /// Great-circle distance in metres (mean Earth radius).
    package static func haversine(_ a: Point, _ b: Point) -> Double {
        let radius = 6_371_008.8
        let toRadians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * toRadians
        let dLongitude = (b.longitude - a.longitude) * toRadians
        let h =
            sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(a.latitude * toRadians) * cos(b.latitude * toRadians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    /// Which of `count` points to keep for a line of at most `maximum`: evenly spaced, first and last included.
    package static func sampledIndexes(count: Int, maximum: Int) -> [Int] {
        guard count > maximum, maximum >= 2 else { return Array(0..<count) }
        return (0..<maximum).map { Int((Double($0) * Double(count - 1) / Double(maximum - 1)).rounded()) }
    }

    var json: JSON {
        guard points > 0 else { return .null }
        return .object([
            ("points", .integer(Int64(points))), ("distance_km", .real(distanceMeters / 1_000)),
            ("elevation_gain_m", .real(elevationGainMeters)),
            (
                "bounding_box",
                .object([
                    ("min_latitude", .real(minimumLatitude)), ("min_longitude", .real(minimumLongitude)),
                    ("max_latitude", .real(maximumLatitude)), ("max_longitude", .real(maximumLongitude)),
                ])
            ),
            ("first_time", .text(firstTime)), ("last_time", .text(lastTime)),
        ])
    }
}
