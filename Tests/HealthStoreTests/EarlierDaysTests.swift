import HealthSchema
import Testing

@testable import HealthStore

/// `EarlierDays`: the days a re-import keeps of the earlier rows, read once each and dropped when rows were
/// removed.
struct EarlierDaysTests {
    /// A reader that serves each day's pairs from a table and counts its reads.
    final class Reads {
        var pairs: [Int64: [(Int64, Int64)]] = [:]
        var count = 0
        func read(_ seconds: Range<Int64>, _ into: inout [(Int64, Int64)]) {
            count += 1
            into.removeAll()
            into.append(contentsOf: pairs[seconds.lowerBound / 86_400] ?? [])
        }
    }

    static func key(_ day: Int64, type: Int64 = 1) -> EarlierDays.Key {
        EarlierDays.Key(table: .discrete, typeID: type, day: day)
    }

    @Test func daysAreUTCDaysOfStartsWithFourDigitYears() {
        #expect(EarlierDays.day(ofStart: 0) == 0)
        #expect(EarlierDays.day(ofStart: 86_399) == 0)
        #expect(EarlierDays.day(ofStart: 86_400) == 1)
        #expect(EarlierDays.day(ofStart: -1) == -1)
        #expect(EarlierDays.day(ofStart: -86_400) == -1)
        #expect(EarlierDays.day(ofStart: -86_401) == -2)
        #expect(EarlierDays.day(ofStart: 253_402_214_399) != nil)  // 9999-12-30
        #expect(EarlierDays.day(ofStart: 253_402_214_400) == nil)  // 9999-12-31: its range would end in 10000
        #expect(EarlierDays.day(ofStart: -30_610_224_001) == nil)  // before the year 1000
    }

    @Test func aDayIsReadOnceAndItsIdentitiesFound() {
        let reads = Reads()
        reads.pairs[5] = [(30, 3), (10, 1), (20, 2)]
        var days = EarlierDays()
        #expect(days.id(of: 20, Self.key(5), removals: 0, read: reads.read) == 2)
        #expect(days.id(of: 10, Self.key(5), removals: 0, read: reads.read) == 1)
        #expect(days.id(of: 30, Self.key(5), removals: 0, read: reads.read) == 3)
        #expect(days.id(of: 40, Self.key(5), removals: 0, read: reads.read) == nil)
        #expect(reads.count == 1)
        // Another type's day is another key.
        #expect(days.id(of: 20, Self.key(5, type: 2), removals: 0, read: reads.read) == 2)
        #expect(reads.count == 2)
    }

    /// Two rows of a day with one identity: only a look-up by start can tell them apart.
    @Test func repeatedIdentitiesAreLeftToTheLookUps() {
        let reads = Reads()
        reads.pairs[1] = [(7, 1), (8, 2), (7, 3), (9, 4)]
        var days = EarlierDays()
        #expect(days.id(of: 7, Self.key(1), removals: 0, read: reads.read) == nil)
        #expect(days.id(of: 8, Self.key(1), removals: 0, read: reads.read) == 2)
        #expect(days.id(of: 9, Self.key(1), removals: 0, read: reads.read) == 4)
    }

    @Test func everyDayIsReadAgainAfterARemoval() {
        let reads = Reads()
        reads.pairs[1] = [(7, 1), (8, 2)]
        var days = EarlierDays()
        #expect(days.id(of: 7, Self.key(1), removals: 0, read: reads.read) == 1)
        reads.pairs[1] = [(8, 2)]  // row 1 was taken out
        #expect(days.id(of: 7, Self.key(1), removals: 1, read: reads.read) == nil)
        #expect(reads.count == 2)
    }

    @Test func theLeastRecentlyUsedDayGoesFirst() {
        let reads = Reads()
        for day in 0..<Int64(EarlierDays.capacity + 1) { reads.pairs[day] = [(day, day + 100)] }
        var days = EarlierDays()
        for day in 0..<Int64(EarlierDays.capacity) {
            #expect(days.id(of: day, Self.key(day), removals: 0, read: reads.read) == day + 100)
        }
        // Day 0 used again: day 1 is now the least recent, and goes when one more day comes.
        _ = days.id(of: 0, Self.key(0), removals: 0, read: reads.read)
        let capacity = Int64(EarlierDays.capacity)
        _ = days.id(of: capacity, Self.key(capacity), removals: 0, read: reads.read)
        #expect(reads.count == EarlierDays.capacity + 1)
        _ = days.id(of: 0, Self.key(0), removals: 0, read: reads.read)
        #expect(reads.count == EarlierDays.capacity + 1)
        _ = days.id(of: 1, Self.key(1), removals: 0, read: reads.read)
        #expect(reads.count == EarlierDays.capacity + 2)
    }
}
