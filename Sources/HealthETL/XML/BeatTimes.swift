import Foundation

/// Anchors HRV beat times to their record.
///
/// The export writes each beat's time as a localised time of day with no date and no offset
/// (`6:14:48.94 PM`, `20:14:07.68`, `00:20:37,80`), in the device's DST-aware zone, while the record's
/// dates use the export's fixed offset; the two can disagree by whole hours. So only the *relative* times
/// are trusted. Zone offsets are whole quarter hours, so the first beat's distance from the record's start
/// is its time of day minus the start's time of day, modulo 15 minutes (beats come within seconds of the
/// start); each later beat follows by the difference of the times of day, with midnight rollover.
enum BeatTimes {
    /// Seconds since midnight of a localised time of day, or nil.
    static func secondsOfDay(_ text: String) -> Double? {
        var clock = text.trimmingCharacters(in: .whitespaces)
        var pm: Bool?
        let upper = clock.uppercased()
        if upper.hasSuffix("PM") || upper.hasSuffix("AM") {
            pm = upper.hasSuffix("PM")
            clock = String(clock.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]) else {
            return nil
        }
        var seconds = 0.0
        if parts.count == 3 {
            guard let parsed = NumberParsing.parseLocalizedDouble(parts[2]) else { return nil }
            seconds = parsed
        }
        var hour = hours
        if let pm {
            guard (1...12).contains(hours) else { return nil }
            hour = hours % 12 + (pm ? 12 : 0)
        }
        guard hour < 24, minutes < 60, seconds < 61 else { return nil }
        return Double(hour * 3600 + minutes * 60) + seconds
    }

    static func anchor(_ beats: inout [HeartbeatReading], to start: Timestamp?) {
        guard let start else { return }
        var first: Double?
        var previous: Double?
        var dayShift = 0.0
        for index in beats.indices {
            guard let time = secondsOfDay(beats[index].rawTime) else { continue }
            if let previous, time + dayShift < previous - 43_200 { dayShift += 86_400 }
            let absolute = time + dayShift
            if first == nil { first = absolute }
            previous = absolute
            // swift-format-ignore: NeverForceUnwrap
            beats[index].seconds = Double(start.seconds) + firstBeatDelay(first!, start) + (absolute - first!)
        }
    }

    /// How long after the record's start the first beat came, from the times of day alone.
    static func firstBeatDelay(_ beatSecondOfDay: Double, _ start: Timestamp) -> Double {
        let startLocal = start.seconds + Int64(start.offsetSeconds)
        let startSecondOfDay = Double(((startLocal % 86_400) + 86_400) % 86_400)
        let quarter = 900.0
        var delay = (beatSecondOfDay - startSecondOfDay).truncatingRemainder(dividingBy: quarter)
        if delay < -quarter / 2 { delay += quarter }
        if delay >= quarter / 2 { delay -= quarter }
        return delay
    }
}
