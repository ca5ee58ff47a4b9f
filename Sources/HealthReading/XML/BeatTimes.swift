import HealthModel

/// Anchors HRV beat times to their record.
///
/// The export writes each beat's time as a localised time of day with no date and no offset
/// (`6:14:48.94 PM`, `20:14:07.68`, `00:20:37,80`), in the device's DST-aware zone, while the record's
/// dates use the export's fixed offset; the two can disagree by whole hours. So only the *relative* times
/// are trusted. Zone offsets are whole quarter hours, so the first beat's distance from the record's start
/// is its time of day minus the start's time of day, modulo 15 minutes (beats come within seconds of the
/// start); each later beat follows by the difference of the times of day, with midnight rollover.
enum BeatTimes {
    /// Seconds since midnight of a localised time of day (`6:14:48.94 PM`, `20:14:07.68`, `00:20:37,80`,
    /// `3:10:02,11\u{202F}AM`), or nil. Parsed from bytes: an export holds about a million beats.
    static func secondsOfDay(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        func skipSpaces() {
            while index < count {
                if bytes[index] == 0x20 || bytes[index] == 0x09 {
                    index += 1
                } else if bytes[index] == 0xE2, index + 2 < count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xAF || bytes[index + 2] == 0xAA
                {
                    index += 3  // narrow no-break space (iOS 17+ before AM/PM)
                } else if bytes[index] == 0xC2, index + 1 < count, bytes[index + 1] == 0xA0 {
                    index += 2  // no-break space
                } else {
                    return
                }
            }
        }
        func integer(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while index < count, digits < maxDigits, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            return digits == 0 ? nil : value
        }
        skipSpaces()
        guard let hours = integer(maxDigits: 2), index < count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let minutes = integer(maxDigits: 2) else { return nil }
        var seconds = 0.0
        if index < count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            guard let whole = integer(maxDigits: 2) else { return nil }
            seconds = Double(whole)
            if index < count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                var scale = 0.1
                while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    seconds += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
            }
        }
        skipSpaces()
        var hour = hours
        if index < count {
            // AM/PM, in the spellings the en locales use: "AM", "am", "a.m.".
            let letters = bytes[index...].filter { $0 != UInt8(ascii: ".") }.map { $0 | 0x20 }
            guard letters == Array("am".utf8) || letters == Array("pm".utf8) else { return nil }
            guard (1...12).contains(hours) else { return nil }
            hour = hours % 12 + (letters == Array("pm".utf8) ? 12 : 0)
        }
        guard hour < 24, minutes < 60, seconds < 61 else { return nil }
        return Double(hour * 3600 + minutes * 60) + seconds
    }

    static func secondsOfDay(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { secondsOfDay($0) }
    }

    static func anchor(_ beats: inout [HeartbeatReading], to start: Timestamp?) {
        var seconds: [(Int, Double)] = []
        anchor(beats.indices, to: start, secondOfDay: { beats[$0].secondOfDay }, set: { seconds.append(($0, $1)) })
        for (index, value) in seconds { beats[index].seconds = value }
    }

    /// Anchors the open record's beats in the batch's beat columns.
    static func anchorOpenRow(_ batch: inout SampleBatch, to start: Timestamp?) {
        let beats = batch.openBeats
        guard !beats.isEmpty else { return }
        var seconds: [(Int, Double)] = []
        anchor(beats, to: start, secondOfDay: { batch.beatSecondOfDay($0) }, set: { seconds.append(($0, $1)) })
        for (index, value) in seconds { batch.setBeatSeconds(index, value) }
    }

    /// Gives `set` the absolute time of each beat among `indices` that has a time of day.
    private static func anchor(
        _ indices: Range<Int>, to start: Timestamp?, secondOfDay: (Int) -> Double?, set: (Int, Double) -> Void
    ) {
        guard let start else { return }
        var first: Double?
        var previous: Double?
        var dayShift = 0.0
        for index in indices {
            guard let time = secondOfDay(index) else { continue }
            if let previous, time + dayShift < previous - 43_200 { dayShift += 86_400 }
            let absolute = time + dayShift
            if first == nil { first = absolute }
            previous = absolute
            // swift-format-ignore: NeverForceUnwrap
            set(index, Double(start.seconds) + firstBeatDelay(first!, start) + (absolute - first!))
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
