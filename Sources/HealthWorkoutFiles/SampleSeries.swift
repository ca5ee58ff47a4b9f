/// One measured quantity of a workout (heart rate, cadence, power, speed) as time-ordered samples, and its value
/// at any instant: the sample's own value at its time, a straight line between two samples at most
/// `interpolationLimit` apart, nothing across a longer gap (a sensor that stopped is not invented).
///
/// A workout's samples are held (16 bytes each: a 24-hour ultra at one per second is 1.4 MB); its route, which
/// is far larger, is streamed.
struct SampleSeries {
    /// Samples further apart than this (centiseconds) are not joined by a line: 30 s. Apple Watch writes heart
    /// rate every 5 s or so during a workout, and up to every 20-25 s when it is saving power.
    static let interpolationLimit: Int64 = 30 * 100

    private(set) var times: [Int64] = []
    private(set) var values: [Double] = []
    /// Where the last look-up ended: look-ups come in time order, so each is a step or two forward.
    private var cursor = 0

    init() {}

    /// Adds a sample; samples must come in time order. A second sample at the same instant is ignored (two
    /// sources measuring at once: the first, in the query's order, wins).
    mutating func append(time: Int64, value: Double) {
        if let last = times.last, time <= last { return }
        times.append(time)
        values.append(value)
    }

    var isEmpty: Bool { times.isEmpty }
    var count: Int { times.count }

    /// The value at `time` (centiseconds), nil outside the samples or across a gap longer than the limit.
    mutating func value(at time: Int64) -> Double? {
        guard !times.isEmpty else { return nil }
        if cursor >= times.count || times[cursor] > time { cursor = 0 }
        // The last sample at or before `time`.
        while cursor + 1 < times.count && times[cursor + 1] <= time { cursor += 1 }
        let before = cursor
        if times[before] == time { return values[before] }
        guard times[before] < time, before + 1 < times.count else { return nil }
        let after = before + 1
        let gap = times[after] - times[before]
        guard gap <= Self.interpolationLimit else { return nil }
        let fraction = Double(time - times[before]) / Double(gap)
        return values[before] + (values[after] - values[before]) * fraction
    }

    /// Rewinds the look-up (a second pass over the same points).
    mutating func rewind() { cursor = 0 }
}
