import Foundation

/// The statistics gathered for one bucket of one period while it is open.
struct RollupBucket {
    let start: Int64
    let end: Int64
    /// Cumulative sum, or the sum of discrete values for the average; compensated so that millions of small
    /// step counts add up to the same total as the samples' plain sum.
    var sum = CompensatedSum()
    var count = 0
    var minimum = Double.infinity
    var maximum = -Double.infinity
    /// Category seconds by value id. Whole seconds: the export has no fractions, so durations add exactly.
    var seconds: [Int64] = []
    /// Source ids that contributed; a handful at most, so a list beats a set.
    var sources: [Int32] = []
    /// Category only: the source ids of each value's seconds, so each row names its own sources.
    var valueSources: [[Int32]] = []

    init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    @inline(__always)
    mutating func noteSource(_ source: Int32) {
        if !sources.contains(source) { sources.append(source) }
    }

    mutating func addSeconds(_ duration: Int64, value: Int32, source: Int32) {
        let index = Int(value)
        if seconds.count <= index {
            seconds.append(contentsOf: repeatElement(0, count: index + 1 - seconds.count))
            valueSources.append(contentsOf: repeatElement([], count: index + 1 - valueSources.count))
        }
        seconds[index] += duration
        if !valueSources[index].contains(source) { valueSources[index].append(source) }
    }
}

/// Neumaier's compensated summation.
struct CompensatedSum {
    private(set) var sum = 0.0
    private var compensation = 0.0

    @inline(__always)
    mutating func add(_ term: Double) {
        let total = sum + term
        if abs(sum) >= abs(term) {
            compensation += (sum - total) + term
        } else {
            compensation += (term - total) + sum
        }
        sum = total
    }

    var value: Double { sum + compensation }
}

/// The open buckets of one period, sorted by start.
///
/// Buckets are finalized once the sweep has passed their end. Time-split statistics keep one bucket open;
/// category durations filed under their sample's end may keep a few more, one per distinct end bucket of the
/// samples still active.
struct RollupBucketStore {
    /// Finds buckets for instants the sweep reaches, which only move forward.
    var clock: PeriodClock
    /// Finds buckets for sample ends, which jump around; a second cache keeps the sweep's warm.
    var endClock: PeriodClock
    /// For sleep (`filesByNight`): the local day of a sample's end, to tell whether it ends in the evening.
    private var nightClock: PeriodClock?
    private(set) var open: [RollupBucket] = []

    /// `filesByNight`: durations are filed under the day the night ends, not the day the sample ends (sleep:
    /// a night from 23:00 to 07:00 is a stretch of stage samples, and those ending before midnight belong to
    /// the morning after, as the Health app shows them).
    init(period: RollupPeriod, timeZone: TimeZone, filesByNight: Bool = false) {
        clock = PeriodClock(period: period, timeZone: timeZone)
        endClock = clock
        if filesByNight, period != .hour { nightClock = PeriodClock(period: .day, timeZone: timeZone) }
    }

    /// A night's samples that end in the evening, from 18:00 local time on, count for the next day: a night
    /// belongs to the day it ends, a nap to its own day. 18:00 is six hours before the local midnight that
    /// ends the day (no clock change happens between 18:00 and midnight).
    static let eveningBeforeMidnight: Int64 = 6 * 3600

    var period: RollupPeriod { clock.period }

    /// The index of the open bucket [start, end), opened if needed.
    @inline(__always)
    mutating func index(start: Int64, end: Int64) -> Int {
        var position = open.count
        while position > 0 {
            let candidate = open[position - 1].start
            if candidate == start { return position - 1 }
            if candidate < start { break }
            position -= 1
        }
        open.insert(RollupBucket(start: start, end: end), at: position)
        return position
    }

    /// Adds `rate` per second over [from, to), split across buckets in proportion to time.
    mutating func spread(rate: Double, from: Int64, to: Int64, source: Int32) {
        var cursor = from
        while cursor < to {
            let bucket = clock.bucket(containing: cursor)
            let pieceEnd = min(bucket.end, to)
            let index = index(start: bucket.start, end: bucket.end)
            open[index].sum.add(rate * Double(pieceEnd - cursor))
            open[index].noteSource(source)
            cursor = pieceEnd
        }
    }

    /// Adds the seconds of [from, to) to a category value, split across buckets by time.
    mutating func spreadSeconds(from: Int64, to: Int64, value: Int32, source: Int32) {
        var cursor = from
        while cursor < to {
            let bucket = clock.bucket(containing: cursor)
            let pieceEnd = min(bucket.end, to)
            open[index(start: bucket.start, end: bucket.end)].addSeconds(
                pieceEnd - cursor, value: value, source: source)
            cursor = pieceEnd
        }
    }

    /// Adds seconds to a category value in the bucket whose span holds the sample's end: the bucket with
    /// start < end <= bucket end, so a sample ending exactly at midnight belongs to the day before.
    mutating func fileSeconds(_ duration: Int64, sampleEnd: Int64, value: Int32, source: Int32) {
        var instant = sampleEnd - 1
        if nightClock != nil, let day = nightClock?.bucket(containing: instant),
            day.end - instant <= Self.eveningBeforeMidnight
        {
            instant = day.end
        }
        let bucket = endClock.bucket(containing: instant)
        open[index(start: bucket.start, end: bucket.end)].addSeconds(duration, value: value, source: source)
    }

    /// The bucket holding an instant, for instantaneous and discrete samples.
    @inline(__always)
    mutating func indexHolding(_ instant: Int64) -> Int {
        let bucket = clock.bucket(containing: instant)
        return index(start: bucket.start, end: bucket.end)
    }

    mutating func add(_ amount: Double, at instant: Int64, source: Int32) {
        let index = indexHolding(instant)
        open[index].sum.add(amount)
        open[index].noteSource(source)
    }

    mutating func addReading(_ value: Double, at instant: Int64, source: Int32) {
        let index = indexHolding(instant)
        open[index].sum.add(value)
        open[index].count += 1
        open[index].minimum = min(open[index].minimum, value)
        open[index].maximum = max(open[index].maximum, value)
        open[index].noteSource(source)
    }

    /// Hands over, oldest first, the buckets that end at or before `instant`: nothing can reach them any more.
    @inline(__always)
    mutating func finalize(endingBy instant: Int64, _ body: (RollupBucket) -> Void) {
        guard let first = open.first, first.end <= instant else { return }
        var done = 0
        while done < open.count, open[done].end <= instant {
            body(open[done])
            done += 1
        }
        open.removeFirst(done)
    }
}
