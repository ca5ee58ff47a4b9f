import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthStore

struct ChangeLedgerTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static func at(_ seconds: Int64) -> Timestamp { Timestamp(seconds: seconds, offsetSeconds: 3600) }

    @Test func countsEachKindOfChangePerType() {
        var ledger = ChangeLedger()
        ledger.countInserted(
            .cumulative, type: Self.steps, identity: 1, start: Self.at(1_000), end: Self.at(1_300), creation: nil,
            replacing: false)
        ledger.countInserted(
            .cumulative, type: Self.steps, identity: 2, start: Self.at(500), end: Self.at(600), creation: nil,
            replacing: true)
        ledger.countUnchanged(.cumulative, type: Self.steps, identity: 3, start: Self.at(10), end: nil, creation: nil)
        // Workouts count under the one workout type, whatever their activity.
        ledger.countInserted(
            .workouts, type: "HKWorkoutActivityTypeRunning", identity: 4, start: Self.at(0), end: Self.at(60),
            creation: nil, replacing: false)
        ledger.countDeleted(
            RemovedRow(type: Self.steps, identity: 9, wasPrevious: true, wasSeen: false, start: 200), table: .cumulative
        )
        ledger.flush()

        let steps = ledger.changes[Self.steps]
        #expect(steps?.table == "cumulative_samples")
        #expect(steps?.added == 1)
        #expect(steps?.replaced == 1)
        #expect(steps?.unchanged == 1)
        #expect(steps?.deleted == 1)
        // Rows kept after the run: the two inserted and the one met; the deleted one is gone.
        #expect(steps?.rows == 3)
        // The earliest change: the deleted row's start, before the inserted rows'; the unchanged row is no change.
        #expect(steps?.earliestChange == 200)
        #expect(steps?.longestSpan == 300)
        #expect(ledger.changes[TrackedTable.workoutType]?.added == 1)
        #expect(ledger.changes["HKWorkoutActivityTypeRunning"] == nil)
    }

    @Test func uncountingARowOfThisRunUndoesItsAddition() {
        var ledger = ChangeLedger()
        ledger.countInserted(
            .cumulative, type: Self.steps, identity: 1, start: Self.at(1_000), end: nil, creation: nil,
            replacing: false)
        ledger.flush()
        let before = ledger.changes[Self.steps]
        ledger.countInserted(
            .cumulative, type: Self.steps, identity: 2, start: Self.at(2_000), end: nil, creation: nil,
            replacing: false)
        ledger.uncount(
            RemovedRow(type: Self.steps, identity: 2, wasPrevious: false, wasSeen: false, start: 2_000),
            table: .cumulative)
        ledger.flush()
        #expect(ledger.changes[Self.steps]?.added == 1)
        #expect(ledger.changes[Self.steps]?.rows == 1)
        #expect(ledger.changes[Self.steps]?.fingerprint == before?.fingerprint)
    }

    /// The anchor's fingerprint does not depend on the order the export lists the rows in.
    @Test func theFingerprintIsOrderIndependent() {
        func fingerprint(_ identities: [Int64]) -> String? {
            var ledger = ChangeLedger()
            for identity in identities {
                ledger.countUnchanged(.discrete, type: "T", identity: identity, start: nil, end: nil, creation: nil)
            }
            ledger.flush()
            return ledger.changes["T"]?.fingerprint
        }
        #expect(fingerprint([1, 2, 3]) == fingerprint([3, 1, 2]))
        #expect(fingerprint([1, 2, 3]) != fingerprint([1, 2, 4]))
        #expect(fingerprint([1, 2]) != fingerprint([1, 2, 3]))
    }

    @Test func aFeedRowReplacedCountsAsReplacedWithItsStart() {
        var ledger = ChangeLedger()
        ledger.countFeedReplaced(type: Self.steps, table: .cumulative, count: 4, earliest: 7_000)
        ledger.countFeedReplaced(
            RemovedRow(type: Self.steps, identity: 5, wasPrevious: true, wasSeen: false, start: 6_000),
            table: .cumulative)
        ledger.flush()
        #expect(ledger.changes[Self.steps]?.replaced == 5)
        #expect(ledger.changes[Self.steps]?.earliestChange == 6_000)
        #expect(ledger.changes[Self.steps]?.rows == 0)
    }
}
