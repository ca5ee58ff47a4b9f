import HealthSchema
import Testing

@testable import HealthStore

/// `RowCounts`, `DropCounts` and `StoreWarning`: what a run counts, under the names the summary gives it.
struct RowCountsTests {
    @Test func rowsAreCountedPerTableAndListedWhenNotZero() {
        var rows = RowCounts()
        rows.add(.workouts)
        rows.add(.routePoints, 3)
        rows.add(.metadata, 2)
        rows.add(.metadata, -2)
        rows.add(.sources, -1)  // rows of this run taken out again
        #expect(rows[.workouts] == 1)
        #expect(rows[.routePoints] == 3)
        #expect(rows[.metadata] == 0)
        #expect(rows.byName == ["workouts": 1, "route_points": 3, "sources": -1])
        #expect(RowCounts().byName.isEmpty)
    }

    @Test func eachTrackedTableIsCountedUnderItsOwnName() {
        for table in TrackedTable.allCases { #expect(WrittenTable(table).name == table.name) }
        #expect(Set(WrittenTable.allCases.map(\.name)).count == WrittenTable.allCases.count)
    }

    @Test func dropsAreCountedPerReasonUnderTheSummarysKeys() {
        var drops = DropCounts()
        drops.add(.replaced)
        drops.add(.replaced)
        drops.add(.routeSuperseded)
        #expect(drops[.replaced] == 2)
        #expect(drops[.exactDuplicate] == 0)
        #expect(
            drops.bySummaryKey == [
                "records replaced by a higher sync version": 2, "routes superseded by a higher sync version": 1,
            ])
        #expect(Set(DropReason.allCases.map(\.summaryKey)).count == DropReason.allCases.count)
    }

    @Test func warningsSayWhatHappened() {
        #expect(
            StoreWarning.documentNotStored("a.xml: too large").summaryKey == "document not stored: a.xml: too large")
        #expect(StoreWarning.logNotEmptied(databaseName: "h.sqlite").summaryKey.contains("h.sqlite-wal"))
        #expect(StoreWarning.notCompacted("disk full").summaryKey.hasSuffix(": disk full"))
    }
}
