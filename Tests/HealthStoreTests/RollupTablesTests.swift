import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthRollups
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// The `rollups` table built at the end of an import, against numbers computed by hand.
struct RollupTablesTests {
    static let body = """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 09:00:00 +0100" value="600"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" device="&lt;&lt;HKDevice: 0x2&gt;, name:iPhone, model:iPhone&gt;" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 10:00:00 +0100" value="1000"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Health" unit="count" startDate="2024-02-01 12:00:00 +0100" endDate="2024-02-01 13:00:00 +0100" value="5000">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Watch" unit="count/min" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="60"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Watch" unit="count/min" startDate="2024-02-01 09:00:00 +0100" endDate="2024-02-01 09:00:00 +0100" value="90"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s Watch" device="&lt;&lt;HKDevice: 0x3&gt;, name:Apple Watch, model:Watch&gt;" startDate="2024-02-01 23:00:00 +0100" endDate="2024-02-02 05:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
        """

    @Test func dailyRollupsResolveSourcesAndAggregateByKind() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", exportXML(Self.body))
        let database = directory.file("health.sqlite")
        let summary = try ImportJob(
            inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")
        )
        .run()
        #expect((summary.rows["rollups"] ?? 0) > 0)
        let db = try SQLiteConnection(path: database, create: false)
        func daily(_ column: String, _ date: String = "2024-02-01") throws -> SQLiteValue {
            try db.scalar(
                "SELECT value FROM daily_rollups WHERE column_name = ?1 AND date = ?2", [.text(column), .text(date)])
        }
        // 08–09 both: the Watch's 600; 09–10 only the iPhone: half of its 1000; 12–13 the manual 5000.
        #expect(try daily("StepCount") == .real(600 + 500 + 5000))
        #expect(try daily("HeartRate_avg") == .real(75))
        #expect(try daily("HeartRate_min") == .real(60))
        #expect(try daily("HeartRate_max") == .real(90))
        #expect(try daily("HeartRate_count") == .real(2))
        // The night belongs to the day it ends.
        #expect(try daily("SleepAnalysis_AsleepCore_hours", "2024-02-02") == .real(6))
        #expect(try daily("SleepAnalysis_AsleepCore_hours", "2024-02-01") == .null)
        #expect(
            try db.scalar("SELECT sources FROM daily_rollups WHERE column_name = 'StepCount'")
                == .text("Anna’s Watch; Anna’s iPhone; Health"))
        #expect(try db.scalar("SELECT unit FROM daily_rollups WHERE column_name = 'StepCount'") == .text("count"))
        #expect(try db.scalar("SELECT unit FROM daily_rollups WHERE column_name LIKE 'Sleep%'") == .text("hr"))
        // Weekly and monthly rows exist; hourly ones only when asked for.
        #expect(
            try db.scalar("SELECT value FROM rollups WHERE period = 'month' AND column_name = 'StepCount'")
                == .real(6100))
        #expect(try db.scalar("SELECT count(*) FROM rollups WHERE period = 'hour'") == .integer(0))

        // A different time zone later: the sleep still ends on the 2nd in Berlin, but 23:00–05:00 +0100 is
        // 12:00–18:00 in Honolulu, a sleep that ends on the 1st just before the evening (from 18:00 on, a
        // night counts for the next day: in New York, 17:00–23:00, it would still be the 2nd's).
        _ = try SQLiteSink.changeTimeZone(
            databasePath: database, to: TimeZone(identifier: "Pacific/Honolulu")!, lockTimeoutSeconds: 1)
        #expect(try daily("SleepAnalysis_AsleepCore_hours", "2024-02-01") == .real(6))
        _ = try SQLiteSink.changeTimeZone(
            databasePath: database, to: TimeZone(identifier: "America/New_York")!, lockTimeoutSeconds: 1)
        #expect(try daily("SleepAnalysis_AsleepCore_hours", "2024-02-02") == .real(6))
        #expect(try daily("SleepAnalysis_AsleepCore_hours", "2024-02-01") == .null)
    }

    /// A new database's pass is read by two read-only connections while the importing one inserts, in a file
    /// switched to WAL for the time; `set-timezone` to the same zone builds the rollups again on one
    /// connection. Same rows, and the file is whole once the log is folded back in.
    @Test func aNewDatabaseReadByTwoConnectionsGetsTheRowsOfOne() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 11, days: 40, profile: .ios18)
        options.scale = 0.3
        let export = directory.file("export.zip")
        _ = try GeneratedExport.zip(options).copy(to: export)
        let database = directory.file("health.sqlite")
        let zone = TimeZone(identifier: "Europe/Berlin")!
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: zone).run()
        #expect(!FileManager.default.fileExists(atPath: database + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))

        let rows = """
            SELECT period, label, period_start, type, statistic, column_name, value, unit, sources FROM rollups
            ORDER BY period, label, type, statistic
            """
        func snapshot() throws -> [[SQLiteValue]] { try SQLiteConnection(path: database, create: false).query(rows) }
        let parallel = try snapshot()
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(parallel.count > 1000)
        #expect((try db.scalar("SELECT count(DISTINCT type) FROM rollups").integer ?? 0) > 10)

        _ = try SQLiteSink.changeTimeZone(databasePath: database, to: zone, lockTimeoutSeconds: 1)
        #expect(try snapshot() == parallel)
    }

    /// A worker whose rows wait to be taken (`outboxRowLimit`, as in a parallel pass) stalls instead of
    /// piling them up, and still delivers every row: the ones taken while it runs and the rest at `finish`.
    @Test(arguments: [nil, 1, 7, 500])
    func aWorkerHeldByItsOutboxLimitLosesNoRow(limit: Int?) throws {
        let worker = RollupWorker(
            periods: [.day, .week, .month], timeZone: TimeZone(identifier: "UTC")!, outboxRowLimit: limit)
        let days = 120
        let sent = DispatchGroup()
        sent.enter()
        let sender = Thread {
            worker.begin(type: "HKQuantityTypeIdentifierHeartRate", kind: .discrete, unit: "count/min", keepFrom: .min)
            for day in 0..<days {
                worker.add(
                    (0..<24).map { hour in
                        let instant = Int64(1_704_067_200 + day * 86_400 + hour * 3_600)
                        return RollupSample(
                            start: instant, end: instant, value: Double(hour), sourceName: "Watch", sourceClass: 0)
                    })
            }
            worker.end()
            sent.leave()
        }
        sender.start()
        var rows: [RollupRow] = []
        while sent.wait(timeout: .now() + .milliseconds(2)) == .timedOut {
            rows += worker.takeOutput().flatMap(\.rows)
        }
        rows += try worker.finish().flatMap(\.rows)
        // 120 days from a Monday: 120 days, 18 ISO weeks (the last one partial), 4 months; four statistics each.
        let expected = (120 + 18 + 4) * 4
        #expect(rows.count == expected)
        let dailyAverages = rows.filter { $0.period == .day && $0.statistic == "avg" }.map(\.value)
        #expect(dailyAverages == Array(repeating: 11.5, count: days))
    }
}
