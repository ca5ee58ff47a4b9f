import Foundation
import Testing

@testable import HealthSQLite
@testable import HealthStore

/// `SQLiteSink.recomputeLocalDates`: every stored `local_date` computed again in another zone, a sample's own
/// `HKTimeZone` still first; only rows whose day changes are written, and counted.
struct LocalDateRecomputeTests {
    @Test func daysAreRecomputedInTheNewZoneExceptWhereASampleHasItsOwn() throws {
        let store = try StoreFixture(
            importing: """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:30:00 +0000" endDate="2024-02-01 23:35:00 +0000" value="5"/>
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:40:00 +0000" endDate="2024-02-01 23:45:00 +0000" value="6">
                  <MetadataEntry key="HKTimeZone" value="America/New_York"/>
                 </Record>
                """)
        let days = "SELECT value, local_date FROM cumulative_samples ORDER BY value"
        // Built in Berlin: 23:30 UTC is already the next day there, not in New York.
        #expect(
            try store.connection.query(days) == [[.real(5), .text("2024-02-02")], [.real(6), .text("2024-02-01")]])
        let changed = try SQLiteSink.recomputeLocalDates(store.connection, timeZone: TimeZone(identifier: "UTC")!)
        #expect(changed == 1)
        #expect(
            try store.connection.query(days) == [[.real(5), .text("2024-02-01")], [.real(6), .text("2024-02-01")]])
        #expect(try SQLiteSink.recomputeLocalDates(store.connection, timeZone: TimeZone(identifier: "UTC")!) == 0)
    }
}
