import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `StoreOpening`: the schema created in a new file, accepted when current, refused when newer or another
/// application's; the zone `local_date` is computed in; the unit setting checked.
struct StoreOpeningTests {
    @Test func aNewOrEmptyFileGetsTheSchemaAndACurrentOneIsKept() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("a.sqlite")
        let connection = try SQLiteConnection(path: path)
        let created = try StoreOpening.prepareSchema(connection, isNew: false, path: path)  // empty: as new
        #expect(created.hadData == false)
        #expect(created.upgraded == false)
        #expect(try "\(SchemaState(of: connection))" == "current")
        let again = try StoreOpening.prepareSchema(connection, isNew: false, path: path)
        #expect(again.hadData == true)
        #expect(again.upgraded == false)
    }

    @Test func newerAndForeignDatabasesAreRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let newer = try SQLiteConnection(path: directory.file("newer.sqlite"))
        try Schema.createTables(newer)
        try newer.execute("PRAGMA user_version = \(Schema.userVersion + 1)")
        #expect(throws: ImportError.self) { try StoreOpening.prepareSchema(newer, isNew: false, path: "newer.sqlite") }
        let foreign = try SQLiteConnection(path: directory.file("foreign.sqlite"))
        try foreign.execute("CREATE TABLE notes (text TEXT)")
        #expect(throws: ImportError.self) {
            try StoreOpening.prepareSchema(foreign, isNew: false, path: "foreign.sqlite")
        }
        #expect(try foreign.scalar("SELECT count(*) FROM sqlite_master") == .integer(1))  // untouched
    }

    @Test func theStoredZoneAndUnitSetting() throws {
        let store = try StoreFixture()
        #expect(try StoreOpening.storedTimeZone(store.connection) == nil)
        try store.connection.execute(
            "INSERT INTO settings (key, value) VALUES ('time_zone', 'Asia/Tokyo'), ('units', 'converted')")
        #expect(try StoreOpening.storedTimeZone(store.connection)?.identifier == "Asia/Tokyo")
        try StoreOpening.checkUnitSetting(store.connection, convertsUnits: true, path: "h.sqlite")
        #expect(throws: ImportError.self) {
            try StoreOpening.checkUnitSetting(store.connection, convertsUnits: false, path: "h.sqlite")
        }
    }

    /// A database built in Berlin opened for New York: every `local_date` is recomputed there.
    @Test func anotherZoneRecomputesTheStoredDays() throws {
        let store = try StoreFixture(
            importing: """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:30:00 +0000" endDate="2024-02-01 23:35:00 +0000" value="5"/>
                """)
        try store.connection.execute("ROLLBACK")
        #expect(try store.text("SELECT local_date FROM cumulative_samples") == "2024-02-02")
        let target = try SQLiteTarget(path: store.path, lockTimeoutMilliseconds: 0)
        defer { target.rollback() }
        let opening = try StoreOpening(target, timeZone: TimeZone(identifier: "America/New_York"), convertsUnits: true)
        #expect(opening.hadData)
        #expect(opening.upgradedSchema == false)
        #expect(opening.storedTimeZone == "Europe/Berlin")
        #expect(opening.timeZone.identifier == "America/New_York")
        #expect(try target.connection.scalar("SELECT local_date FROM cumulative_samples") == .text("2024-02-01"))
    }

    @Test func aNewDatabaseKeepsTheZoneAskedFor() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = try SQLiteTarget(path: directory.file("new.sqlite"), lockTimeoutMilliseconds: 0)
        defer { target.rollback() }
        let opening = try StoreOpening(target, timeZone: TimeZone(identifier: "Asia/Tokyo"), convertsUnits: false)
        #expect(opening.hadData == false)
        #expect(opening.storedTimeZone == nil)
        #expect(opening.timeZone.identifier == "Asia/Tokyo")
        #expect(try "\(SchemaState(of: target.connection))" == "current")
    }
}
