import Foundation
import HealthModel
import HealthRollups

/// The date of birth as its year; people older than 89 at the export as one group (`<=1934`), as HIPAA's Safe
/// Harbor does, since very old ages are rare enough to identify.
package enum BirthYear {
    /// `1984-06-16` (modern exports) or `19840616` (iOS 8/9) → `1984`. A value without a readable year → `""`.
    package static func generalised(_ value: String, exportYear: Int) -> String {
        guard value.count >= 4, let year = Int(value.prefix(4)) else { return "" }
        let oldest = exportYear - 90
        return year <= oldest ? "<=\(oldest)" : String(year)
    }
}

/// Dates inside free text (`2024-03-05`) moved like the columns, so a warning does not give the shift away.
package enum DateShift {
    package static func shiftDates(in text: String, days: Int) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        func digit(_ at: Int) -> Int? {
            at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 ? Int(bytes[at] - 0x30) : nil
        }
        while index + 10 <= bytes.count {
            let isDate =
                (0..<4).allSatisfy { digit(index + $0) != nil } && bytes[index + 4] == 0x2d
                && digit(index + 5) != nil && digit(index + 6) != nil && bytes[index + 7] == 0x2d
                && digit(index + 8) != nil && digit(index + 9) != nil
                && (index == 0 || digit(index - 1) == nil)
            if isDate, let shifted = shift(String(decoding: bytes[index..<index + 10], as: UTF8.self), days: days) {
                bytes.replaceSubrange(index..<index + 10, with: Array(shifted.utf8))
                index += 10
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `YYYY-MM-DD` moved by `days` (proleptic Gregorian, Howard Hinnant's civil-date algorithms).
    package static func shift(_ date: String, days: Int) -> String? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        let shifted = Timestamp.daysFromCivil(parts[0], parts[1], parts[2]) + days
        return TimestampFormatting.dayString(Int32(clamping: shifted))
    }
}

/// `--routes relative`: a route's shape in metres from its first point, turned by a keyed angle, written back as
/// degrees around 0,0 (where a degree is about as long in both directions, so the shape is not distorted).
package struct RelativeRoute: Sendable {
    /// On a sphere of the Earth's mean radius (6,371 km), the same both ways at the equator.
    static let metresPerDegree = 6_371_000 * Double.pi / 180

    let origin: (latitude: Double, longitude: Double)
    let angle: Double
    private let cosine: Double
    private let sine: Double
    private let longitudeScale: Double

    package init(origin: (Double, Double), angle: Double) {
        self.origin = (origin.0, origin.1)
        self.angle = angle
        cosine = cos(angle)
        sine = sin(angle)
        longitudeScale = cos(origin.0 * Double.pi / 180)
    }

    package func point(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
        let north = (latitude - origin.latitude) * Self.metresPerDegree
        let east = (longitude - origin.longitude) * Self.metresPerDegree * longitudeScale
        let turnedEast = east * cosine - north * sine
        let turnedNorth = east * sine + north * cosine
        return (turnedNorth / Self.metresPerDegree, turnedEast / Self.metresPerDegree)
    }

    /// A compass course (degrees clockwise from north) turned with the shape (counter-clockwise by `angle`).
    package func course(_ degrees: Double) -> Double {
        let turned = (degrees - angle * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
        return turned < 0 ? turned + 360 : turned
    }
}

extension SourcePriority {
    /// The same rules with `source:<name>` rules naming the copy's source names.
    init(renaming priority: SourcePriority, with rename: (String) -> String) {
        self.init(
            rules: priority.rules.map { rule in
                if case .source(let name) = rule { return .source(rename(name)) }
                return rule
            })
    }
}
