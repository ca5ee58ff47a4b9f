import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// Re-imports into an existing database: only the difference is applied, deletions are recorded, and
/// nothing is lost or counted twice.
struct IncrementalTests {
    static let steps = """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:10:00 +0100" value="100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" device="&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2024-02-01 09:00:00 +0100" endDate="2024-02-01 09:10:00 +0100" value="200"/>
        """
    static let weight = """
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-02-01 07:00:00 +0100" endDate="2024-02-01 07:00:00 +0100" value="70">
          <MetadataEntry key="HKMetadataKeySyncIdentifier" value="w-1"/>
          <MetadataEntry key="HKMetadataKeySyncVersion" value="1"/>
         </Record>
        """
    static let workout = """
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-02-01 18:00:00 +0100" endDate="2024-02-01 18:30:00 +0100">
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-02-01 18:10:00 +0100"/>
         </Workout>
        """

    func importXML(
        _ body: String, exportDate: String = "2024-03-01 10:00:00 +0100", into database: String,
        configure: (inout ImportJob) -> Void = { _ in }
    ) throws -> ImportSummary {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let xml = exportXML(body).replacingOccurrences(of: "2024-03-01 10:00:00 +0100", with: exportDate)
        let export = directory.write("export.xml", xml)
        var job = ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
        configure(&job)
        return try job.run()
    }

    @Test func theSameExportInAnotherOffsetChangesNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let body = Self.steps + Self.weight + Self.workout
        let first = try importXML(body, into: database)
        #expect(first.changeTotals.added == 4)
        let before = try dataContent(of: database)
        // The same file again (read again: a bare XML has no table of contents to compare).
        let second = try importXML(body, into: database)
        #expect(second.changeTotals.added == 0)
        #expect(second.changeTotals.deleted == 0)
        #expect(second.changeTotals.replaced == 0)
        #expect(second.changeTotals.unchanged == 4)
        #expect(try dataContent(of: database) == before)
        // Re-exported in summer: every date written in +0200, other device addresses (reference §6.1). The
        // UTC instants are the same, so nothing changes.
        let offset = body.replacingOccurrences(of: "08:00:00 +0100", with: "09:00:00 +0200")
            .replacingOccurrences(of: "08:10:00 +0100", with: "09:10:00 +0200")
            .replacingOccurrences(of: "09:00:00 +0100", with: "10:00:00 +0200")
            .replacingOccurrences(of: "09:10:00 +0100", with: "10:10:00 +0200")
            .replacingOccurrences(of: "0x1", with: "0x77")
        let third = try importXML(offset, exportDate: "2024-06-01 10:00:00 +0200", into: database)
        #expect(third.changeTotals.added == 0, "\(third.changes)")
        #expect(third.changeTotals.unchanged == 4)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM deleted_samples") == .integer(0))
        #expect(try db.scalar("SELECT count(*) FROM import_runs WHERE outcome = 'ok'") == .integer(3))
    }

    @Test func additionsReplacementsAndDeletionsAreApplied() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importXML(Self.steps + Self.weight + Self.workout, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        let keptID = try db.scalar("SELECT id FROM cumulative_samples WHERE value = 100")

        // A month later: the 200-step sample was deleted on the phone, a new one came, the weight was edited
        // (sync version 2), and the workout is gone.
        let newer =
            Self.steps.components(separatedBy: "\n").filter { !$0.contains("value=\"200\"") }.joined(separator: "\n")
                + """

                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-03-10 08:00:00 +0100" endDate="2024-03-10 08:10:00 +0100" value="300"/>
                """
            + Self.weight.replacingOccurrences(of: "value=\"70\"", with: "value=\"71\"")
            .replacingOccurrences(of: "SyncVersion\" value=\"1\"", with: "SyncVersion\" value=\"2\"")
        let summary = try importXML(newer, exportDate: "2024-04-01 10:00:00 +0200", into: database)
        let steps = try #require(summary.changes["HKQuantityTypeIdentifierStepCount"])
        #expect((steps.added, steps.deleted, steps.unchanged, steps.replaced) == (1, 1, 1, 0))
        let mass = try #require(summary.changes["HKQuantityTypeIdentifierBodyMass"])
        #expect((mass.added, mass.replaced, mass.deleted) == (0, 1, 0))
        #expect(summary.changes[TrackedTable.workoutType]?.deleted == 1)

        // The unchanged sample keeps its row id; the database holds exactly the new export.
        #expect(try db.scalar("SELECT id FROM cumulative_samples WHERE value = 100") == keptID)
        #expect(
            try db.query("SELECT value FROM cumulative_samples ORDER BY start_date") == [[.real(100)], [.real(300)]])
        #expect(try db.query("SELECT value FROM discrete_samples") == [[.real(71)]])
        #expect(try db.scalar("SELECT count(*) FROM workouts") == .integer(0))
        #expect(try db.scalar("SELECT count(*) FROM workout_events") == .integer(0))
        #expect(try db.scalar("SELECT version FROM sync_identifiers WHERE sync_identifier = 'w-1'") == .integer(2))

        // Nothing lost silently: the deleted and replaced rows are in deleted_samples, with their metadata.
        let deleted = try db.query(
            "SELECT reason, row_table, json_extract(row_json, '$.value') FROM deleted_samples ORDER BY row_table")
        #expect(
            deleted == [
                [.text("deleted"), .text("cumulative_samples"), .real(200)],
                [.text("replaced"), .text("discrete_samples"), .real(70)],
                [.text("deleted"), .text("workouts"), .null],
            ])
        #expect(
            try db.scalar("SELECT metadata_json FROM deleted_samples WHERE reason = 'replaced'")
                == .text("[[\"HKMetadataKeySyncIdentifier\",\"w-1\"],[\"HKMetadataKeySyncVersion\",\"1\"]]"))
        #expect(try db.scalar("SELECT DISTINCT run_id FROM deleted_samples") == .integer(2))
        let runRow = try db.query("SELECT added, replaced, deleted, unchanged FROM import_runs WHERE id = 2")
        #expect(runRow == [[.integer(1), .integer(1), .integer(2), .integer(1)]])
        #expect(
            try db.scalar(
                "SELECT deleted FROM import_run_changes WHERE run_id = 2 AND type = 'HKQuantityTypeIdentifierStepCount'"
            )
                == .integer(1))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test func anchorsChangeOnlyForChangedTypes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importXML(Self.steps + Self.weight, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        let anchors = try db.query("SELECT type, row_count, fingerprint, run_id FROM anchors ORDER BY type")
        #expect(anchors.count == 2)
        #expect(anchors.map { $0[1] } == [.integer(1), .integer(2)])
        let extra = """

             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-03-10 08:00:00 +0100" endDate="2024-03-10 08:10:00 +0100" value="300"/>
            """
        _ = try importXML(Self.steps + extra + Self.weight, exportDate: "2024-04-01 10:00:00 +0100", into: database)
        let after = try db.query(
            "SELECT type, row_count, fingerprint, run_id, newest_end_date FROM anchors ORDER BY type")
        // Body mass untouched: same fingerprint, still the first run's anchor.
        #expect(after[0][2] == anchors[0][2])
        #expect(after[0][3] == .integer(1))
        // Steps: one more row, a new fingerprint, written by run 2, with the newest end date.
        #expect(after[1][1] == .integer(3))
        #expect(after[1][2] != anchors[1][2])
        #expect(after[1][3] == .integer(2))
        #expect(after[1][4] == .text("2024-03-10T07:10:00Z"))
    }

    @Test func anOlderExportIsRefusedUnlessForced() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importXML(Self.steps, exportDate: "2024-04-01 10:00:00 +0100", into: database)
        let before = try dataContent(of: database)
        let error = #expect(throws: ImportError.self) {
            _ = try importXML(Self.weight, exportDate: "2024-03-01 10:00:00 +0100", into: database)
        }
        #expect(error?.kind == .refused)
        #expect(error?.description.contains("older than") == true)
        #expect(error?.description.contains("--force") == true)
        #expect(try dataContent(of: database) == before)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT outcome FROM import_runs ORDER BY id DESC LIMIT 1") == .text("refused"))

        let forced = try importXML(Self.weight, exportDate: "2024-03-01 10:00:00 +0100", into: database) {
            $0.allowOlderExport = true
        }
        #expect(forced.changeTotals.deleted == 2)
        #expect(forced.changeTotals.added == 1)
    }

    @Test func changingTheTimeZoneRecomputesLocalDates() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        // 23:30 UTC: the 1st in London, the 2nd in Berlin. The second record carries its own zone.
        let body = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:30:00 +0000" endDate="2024-02-01 23:40:00 +0000" value="10"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:50:00 +0000" endDate="2024-02-01 23:55:00 +0000" value="20">
              <MetadataEntry key="HKTimeZone" value="America/New_York"/>
             </Record>
            """
        _ = try importXML(body, into: database) { $0.timeZone = TimeZone(identifier: "Europe/London") }
        let db = try SQLiteConnection(path: database, create: false)
        let query = "SELECT local_date FROM cumulative_samples ORDER BY value"
        #expect(try db.query(query) == [[.text("2024-02-01")], [.text("2024-02-01")]])
        let changed = try SQLiteSink.changeTimeZone(
            databasePath: database, to: TimeZone(identifier: "Europe/Berlin")!, lockTimeoutSeconds: 1)
        #expect(changed == 1)
        // HKTimeZone on the sample still wins.
        #expect(try db.query(query) == [[.text("2024-02-02")], [.text("2024-02-01")]])
        // Later runs keep the database's zone when none is given.
        let summary = try importXML(body, into: database) { $0.timeZone = nil }
        #expect(summary.timeZone == "Europe/Berlin")
        #expect(try db.query(query) == [[.text("2024-02-02")], [.text("2024-02-01")]])
    }

    /// The same export again in another zone: nothing new to read, but the rollups (and the baselines with
    /// them) are built again in the new zone.
    @Test func anUnchangedExportInAnotherZoneRebuildsTheRollups() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        // 23:30 UTC: the 1st in London, the 2nd in Berlin.
        let body = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-02-01 23:30:00 +0000" endDate="2024-02-01 23:40:00 +0000" value="10"/>
            """
        let export = directory.write("export.xml", exportXML(body))
        func run(_ zone: String?) throws -> ImportSummary {
            let timeZone = zone.flatMap { TimeZone(identifier: $0) }
            return try ImportJob(inputPath: export, databasePath: database, timeZone: timeZone).run()
        }
        _ = try run("Europe/London")
        let db = try SQLiteConnection(path: database, create: false)
        let days = "SELECT date FROM daily_rollups WHERE column_name = 'StepCount' UNION ALL SELECT date FROM baselines"
        #expect(try db.query(days) == [[.text("2024-02-01")], [.text("2024-02-01")]])
        let summary = try run("Europe/Berlin")
        #expect(summary.outcome == "unchanged")
        #expect(try db.query(days) == [[.text("2024-02-02")], [.text("2024-02-02")]])
        // And again without a zone: the database's, nothing to rebuild, the rows stay.
        let again = try run(nil)
        #expect(again.outcome == "unchanged" && again.timeZone == "Europe/Berlin")
        #expect(try db.query(days) == [[.text("2024-02-02")], [.text("2024-02-02")]])
    }

    @Test func aSecondRunWaitsThenNamesTheHolder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importXML(Self.steps, into: database)
        var held: DatabaseLock? = try DatabaseLock(databasePath: database, timeoutSeconds: 0)
        let error = #expect(throws: ImportError.self) {
            _ = try importXML(Self.steps, into: database) { $0.lockTimeoutSeconds = 0.2 }
        }
        #expect(error?.kind == .locked)
        #expect(error?.description.contains("locked by pid \(getpid())") == true)
        #expect(held != nil)
        held = nil
        _ = try importXML(Self.steps, into: database)  // released: runs again
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["health.sqlite"])
    }
}

extension IncrementalTests {
    /// A bare export.xml imported twice from the same file is recognised; touched, it is read again.
    @Test func theSameXMLFileTwiceIsRecognised() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", exportXML(Self.steps))
        let database = directory.file("health.sqlite")
        let job = ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
        #expect(try job.run().outcome == "ok")
        #expect(try job.run().outcome == "unchanged")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: export)
        let reread = try job.run()
        #expect(reread.outcome == "ok")
        #expect(reread.changeTotals.unchanged == 2)
    }

    /// `healthetl status`: the runs and anchors, as text and as JSON.
    @Test func statusShowsRunsAndAnchors() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importXML(Self.steps + Self.weight, into: database)
        let text = try HealthetlCommand.run(["status", "--db", database])
        #expect(text.code == 0)
        #expect(text.out.contains("#1 "))
        #expect(text.out.contains("ok, export of 2024-03-01T09:00:00Z: +3 added"))
        #expect(text.out.contains("HKQuantityTypeIdentifierStepCount: 2,"))
        let jsonRun = try HealthetlCommand.run(["status", "--db", database, "--json"])
        #expect(jsonRun.code == 0)
        let json = try jsonObject(jsonRun.out)
        #expect((json["anchors"] as? [[String: Any]])?.count == 2)
        #expect(try HealthetlCommand.run(["status", "--db", directory.file("missing.sqlite")]).code == 64)
    }
}

extension IncrementalTests {
    /// The id of a deleted row is never given to a new one, even when it was the table's highest.
    @Test func idsOfDeletedRowsAreNotReused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importXML(Self.steps, into: database)
        let db = try SQLiteConnection(path: database, create: false)
        let lastID = try db.scalar("SELECT max(id) FROM cumulative_samples")
        // The later sample (the highest id) is deleted on the phone.
        let first = Self.steps.components(separatedBy: "\n").filter { !$0.contains("value=\"200\"") }.joined(
            separator: "\n")
        _ = try importXML(first, exportDate: "2024-03-02 10:00:00 +0100", into: database)
        #expect(try db.scalar("SELECT row_id FROM deleted_samples") == lastID)
        let extra = """

             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-03-10 08:00:00 +0100" endDate="2024-03-10 08:10:00 +0100" value="300"/>
            """
        _ = try importXML(first + extra, exportDate: "2024-03-03 10:00:00 +0100", into: database)
        guard case .integer(let deleted) = lastID,
            case .integer(let added) = try db.scalar("SELECT id FROM cumulative_samples WHERE value = 300")
        else {
            Issue.record("ids missing")
            return
        }
        #expect(added > deleted)
    }
}
