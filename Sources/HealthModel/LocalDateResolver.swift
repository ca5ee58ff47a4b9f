import Foundation

/// Decides which calendar day a sample belongs to.
///
/// The export's dates all carry the offset of the moment of export, which is wrong for half the year, so the
/// day comes from a real time zone: the sample's own `HKTimeZone` metadata when it has one, else the zone the
/// user chose (`--timezone`, default the machine's). Offsets are cached per UTC day (recomputed exactly on
/// the rare day that holds a DST transition), because Foundation's zone lookups are too slow to run for each
/// of millions of samples.
public struct LocalDateResolver {
    public let timeZone: TimeZone
    private var zones: [String: TimeZone?] = [:]
    private var dayOffsets: [String: [Int64: Int32?]] = [:]
    /// The last UTC day looked up in the import's zone, and its offset when constant all day.
    private var lastDefaultDay: (day: Int64, offset: Int32?) = (Int64.min, nil)

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// Days since 1970-01-01 of the local calendar day of `instant`.
    public mutating func day(of instant: Timestamp, zoneName: String? = nil) -> Int32 {
        // Fast path: the import's own zone on a UTC day already seen without a DST change.
        if zoneName == nil {
            let utcDay = instant.seconds >= 0 ? instant.seconds / 86_400 : (instant.seconds - 86_399) / 86_400
            if utcDay == lastDefaultDay.day, let offset = lastDefaultDay.offset {
                let local = instant.seconds + Int64(offset)
                return Int32(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
            }
        }
        let zone = self.zone(named: zoneName)
        let offset = offset(in: zone, at: instant.seconds)
        if zoneName == nil {
            let utcDay = instant.seconds >= 0 ? instant.seconds / 86_400 : (instant.seconds - 86_399) / 86_400
            lastDefaultDay = (utcDay, dayOffsets[zone.identifier]?[utcDay] ?? nil)
        }
        let local = instant.seconds + Int64(offset)
        return Int32(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// The offset from UTC, in seconds, of `instant` in the zone `zoneName` (else the resolver's zone): for
    /// the local clock time of a workout's start.
    public mutating func offsetSeconds(of instant: Timestamp, zoneName: String? = nil) -> Int32 {
        let zone = self.zone(named: zoneName)
        return offset(in: zone, at: instant.seconds)
    }

    /// The zone a sample's `HKTimeZone` names (looked up once per name), else the resolver's zone.
    private mutating func zone(named zoneName: String?) -> TimeZone {
        guard let zoneName else { return timeZone }
        if let cached = zones[zoneName] { return cached ?? timeZone }
        let found = TimeZone(identifier: zoneName)
        zones[zoneName] = found
        return found ?? timeZone
    }

    private mutating func offset(in zone: TimeZone, at seconds: Int64) -> Int32 {
        let utcDay = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        if let cached = dayOffsets[zone.identifier]?[utcDay] {
            if let constant = cached { return constant }
            return Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        let dayStart = Date(timeIntervalSince1970: TimeInterval(utcDay * 86_400))
        let dayEnd = dayStart.addingTimeInterval(86_400)
        let offsetAtStart = Int32(zone.secondsFromGMT(for: dayStart))
        let transition = zone.nextDaylightSavingTimeTransition(after: dayStart)
        let constant: Int32? = transition.map { $0 < dayEnd } == true ? nil : offsetAtStart
        dayOffsets[zone.identifier, default: [:]][utcDay] = .some(constant)
        return constant ?? Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }
}
