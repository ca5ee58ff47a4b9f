import HealthSchema
import Testing

@testable import HealthModel
@testable import HealthStore

struct RunTallyTests {
    @Test func countsRowsDropsWarningsAndUnknownTypesUnderTheSummarysKeys() {
        let tally = RunTally()
        tally.count(.cumulativeSamples)
        tally.count(.cumulativeSamples)
        tally.count(.routePoints, 250)
        tally.count(.metadata, 3)
        tally.count(.metadata, -3)  // rows of this run taken out again
        tally.drop(.exactDuplicate)
        tally.drop(.exactDuplicate)
        tally.drop(.superseded)
        tally.warn(.documentNotStored("a.xml: too large"))
        tally.warn(.documentNotStored("a.xml: too large"), count: 2)
        tally.noteUnknownType("HKQuantityTypeIdentifierNew")
        tally.noteUnknownType("HKQuantityTypeIdentifierNew")

        #expect(tally.rows.byName == ["cumulative_samples": 2, "route_points": 250])
        #expect(tally.rows[.metadata] == 0)
        #expect(
            tally.drops.bySummaryKey == [
                "exact duplicate records": 2, "records superseded by a higher sync version": 1,
            ])
        #expect(tally.drops[.replaced] == 0)
        #expect(tally.warnings == ["document not stored: a.xml: too large": 3])
        #expect(tally.unknownTypes == ["HKQuantityTypeIdentifierNew": 2])
    }

    /// Every table a run counts is a public table of the schema, so the summary names tables users can query.
    @Test func everyCountedTableIsAPublicTable() {
        let names = Set(Schema.publicTables.map(\.name))
        for table in WrittenTable.allCases { #expect(names.contains(table.name), "\(table.name)") }
    }
}
