import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import SampleExports

/// Generated exports imported end to end, with every count compared against the generator's own tally.
struct EndToEndTests {
    /// The realistic export of `profile` (generated once per test process, shared with other suites).
    static func generate(_ profile: ExportProfile, xmlName: String = "export.xml") throws
        -> (path: String, tally: ExportTally)
    {
        let export = try GeneratedExport.realistic(profile, xmlFileName: xmlName)
        return (export.path, export.tally)
    }

    func count(_ db: SQLiteConnection, _ sql: String) throws -> Int {
        guard case .integer(let value) = try db.scalar(sql) else { return -1 }
        return Int(value)
    }

    /// With dedup switched off every element of the export must be in the database.
    @Test(arguments: [ExportProfile.ios12, .ios16, .ios18])
    func importMatchesTheGeneratorsTally(profile: ExportProfile) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (export, tally) = try Self.generate(profile, xmlName: "导出.xml")
        let database = directory.file("health.sqlite")
        var job = ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        job.storeOptions.dropExactDuplicates = false
        job.storeOptions.keepHighestSyncVersion = false
        let summary = try job.run()
        let db = try SQLiteConnection(path: database, create: false)

        // Every top-level record lands in exactly one sample table.
        let samples = try count(
            db,
            "SELECT (SELECT count(*) FROM cumulative_samples) + (SELECT count(*) FROM discrete_samples) + (SELECT count(*) FROM category_samples)"
        )
        #expect(samples == tally.records)
        #expect(summary.items["records"] == tally.records)
        var byType: [String: Int] = [:]
        for table in ["cumulative_samples", "discrete_samples", "category_samples"] {
            for row in try db.query("SELECT type, count(*) FROM \(table) GROUP BY type") {
                if case .text(let type) = row[0], case .integer(let n) = row[1] { byType[type, default: 0] += Int(n) }
            }
        }
        #expect(byType == tally.recordsByType)
        #expect(try count(db, "SELECT count(*) FROM category_samples") == tally.categoryRecords)
        // Cumulative/discrete split follows the catalog.
        #expect(
            try count(db, "SELECT count(*) FROM cumulative_samples WHERE type = 'HKQuantityTypeIdentifierHeartRate'")
                == 0)
        #expect(
            try count(db, "SELECT count(*) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierStepCount'") == 0
        )

        #expect(try count(db, "SELECT count(*) FROM correlations") == tally.correlations)
        // Children are linked to their top-level copies, never stored a second time.
        #expect(try count(db, "SELECT count(*) FROM correlation_samples") == tally.correlationChildRecords)
        #expect(try count(db, "SELECT count(*) FROM workouts") == tally.workouts)
        // Probable duplicates (the same session from another app) are linked, and the windowed query finds what
        // a plain all-pairs comparison finds.
        #expect(try count(db, "SELECT count(*) FROM workout_duplicates") == tally.probableDuplicateWorkouts)
        #expect(
            summary.stages["dedup"]?["workouts linked as probable duplicates (kept)"] == tally.probableDuplicateWorkouts
        )
        #expect(
            try count(db, "SELECT count(*) FROM workout_duplicates")
                == (try count(
                    db,
                    """
                    SELECT count(*) FROM workouts a JOIN workouts b ON b.id < a.id AND b.source_name <> a.source_name
                    AND b.start_date < a.end_date AND b.end_date > a.start_date
                    AND (min(julianday(a.end_date), julianday(b.end_date)) - max(julianday(a.start_date), julianday(b.start_date)))
                        >= 0.5 * min(julianday(a.end_date) - julianday(a.start_date), julianday(b.end_date) - julianday(b.start_date))
                    """)))
        #expect(try count(db, "SELECT count(*) FROM workout_events") == tally.workoutEvents)
        #expect(try count(db, "SELECT count(*) FROM workout_activities") == tally.workoutActivities)
        #expect(try count(db, "SELECT count(*) FROM workout_statistics") == tally.workoutStatistics)
        #expect(try count(db, "SELECT count(*) FROM workout_routes") == tally.workoutRoutes)
        #expect(try count(db, "SELECT count(*) FROM route_points") == tally.routePoints)
        #expect(
            try count(db, "SELECT count(*) FROM workout_routes WHERE problem IS NOT NULL") == tally.missingRouteFiles)
        #expect(try count(db, "SELECT count(*) FROM activity_summaries") == tally.activitySummaries)
        #expect(try count(db, "SELECT count(*) FROM hrv_beats") == tally.hrvBeats)
        #expect(try count(db, "SELECT count(DISTINCT sample_id) FROM hrv_beats") == tally.hrvRecordsWithBeats)
        #expect(try count(db, "SELECT count(*) FROM hrv_beats WHERE time IS NULL") == 0)
        #expect(try count(db, "SELECT count(*) FROM ecg_recordings") == tally.ecgRecordings)
        #expect(try count(db, "SELECT coalesce(sum(sample_count), 0) FROM ecg_recordings") == tally.ecgSamples)
        #expect(try count(db, "SELECT coalesce(sum(length(samples)), 0) FROM ecg_recordings") == tally.ecgSamples * 4)
        #expect(
            try count(db, "SELECT count(*) FROM clinical_records WHERE resource_json IS NOT NULL")
                == tally.clinicalRecords)
        #expect(try count(db, "SELECT count(*) FROM audiograms") == tally.audiograms)
        #expect(try count(db, "SELECT count(*) FROM audiogram_points") == tally.sensitivityPoints)
        #expect(try count(db, "SELECT count(*) FROM vision_prescriptions") == tally.visionPrescriptions)
        #expect(summary.removedControlCharacters == tally.controlCharacters)
        #expect(summary.xmlBytes == UInt64(tally.xmlBytes))
        // Metadata of correlation children is stored once, with their top-level copies.
        let childMetadata = try correlationChildMetadata(export)
        #expect(try count(db, "SELECT count(*) FROM metadata") == tally.metadataEntries - childMetadata)
        // export_cda.xml, kept as a document although it is not well formed.
        #expect(try count(db, "SELECT count(*) FROM documents") == 1)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    /// With dedup on, exactly the generator's duplicates and superseded versions are not stored.
    @Test(arguments: [ExportProfile.ios12, .ios18])
    func dedupDropsExactlyTheDuplicatesAndOldVersions(profile: ExportProfile) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (export, tally) = try Self.generate(profile)
        let database = directory.file("health.sqlite")
        let summary = try ImportJob(
            inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")!
        ).run()
        let db = try SQLiteConnection(path: database, create: false)
        let samples = try count(
            db,
            "SELECT (SELECT count(*) FROM cumulative_samples) + (SELECT count(*) FROM discrete_samples) + (SELECT count(*) FROM category_samples)"
        )
        #expect(tally.exactDuplicateRecords > 0)
        #expect(samples == tally.records - tally.exactDuplicateRecords - tally.syncSuperseded)
        #expect(summary.dropped["exact duplicate records"] == tally.exactDuplicateRecords)
        let superseded =
            (summary.dropped["records superseded by a higher sync version"] ?? 0)
            + (summary.dropped["records replaced by a higher sync version"] ?? 0)
        #expect(superseded == tally.syncSuperseded)
        // What is left is unique by identity, and every kept sync identifier has one row.
        #expect(
            try count(
                db,
                "SELECT count(*) FROM (SELECT type, start_date, identity FROM cumulative_samples GROUP BY 1, 2, 3 HAVING count(*) > 1)"
            ) == 0)
        #expect(
            try count(
                db,
                "SELECT count(*) FROM metadata WHERE key = 'HKMetadataKeySyncIdentifier' AND parent_table LIKE '%samples'"
            ) == (try count(db, "SELECT count(*) FROM sync_identifiers WHERE row_table LIKE '%samples'")))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    /// Step sums per local day and source, computed by the generator, match the database's.
    @Test func stepTotalsMatchTheGenerator() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 5, days: 3, profile: .ios18)
        options.scale = 0.4
        let export = directory.file("export.zip")
        let tally = try ExportGenerator(options: options).write(to: .zip(export))
        let database = directory.file("health.sqlite")
        // The generator's days are in the export offset; a fixed zone with that offset gives the same days.
        let offset = try #require(Timestamp.parse("2024-01-01 00:00:00 " + options.exportOffset)).offsetSeconds
        _ = try ImportJob(
            inputPath: export, databasePath: database, timeZone: TimeZone(secondsFromGMT: Int(offset))!
        ).run()
        let db = try SQLiteConnection(path: database, create: false)
        // Duplicates and superseded versions are in the export; the database's plain sums must not see them.
        #expect(tally.exactDuplicateRecords + tally.syncSuperseded > 0)
        var totals: [String: [String: Int]] = [:]
        let rows = try db.query(
            """
            SELECT local_date, source_name, sum(value) FROM cumulative_samples
            WHERE type = 'HKQuantityTypeIdentifierStepCount' GROUP BY 1, 2
            """)
        for row in rows {
            guard case .text(let day) = row[0], case .text(let source) = row[1], case .real(let value) = row[2] else {
                continue
            }
            totals[day, default: [:]][source] = Int(value.rounded())
        }
        #expect(totals == tally.stepsBySourcePerDay)
    }

    /// MetadataEntry elements under Records inside Correlations, counted by Python from the zip.
    func correlationChildMetadata(_ zip: String) throws -> Int {
        let script = """
            import sys, re, zipfile, io, xml.etree.ElementTree as ET
            z = zipfile.ZipFile(sys.argv[1])
            name = [n for n in z.namelist() if n.count('/') == 1 and n.endswith('.xml') and not n.endswith('_cda.xml')][0]
            data = z.read(name)
            start = data.index(b'<!DOCTYPE'); end = data.index(b']>', start) + 2
            data = re.sub(rb'[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]', b'', data[:start] + data[end:])
            count = 0
            for correlation in ET.parse(io.BytesIO(data)).getroot().iter('Correlation'):
                for record in correlation.findall('Record'):
                    count += len(record.findall('MetadataEntry'))
            print(count)
            """
        let output = try ProcessRunner.run("python3", ["-c", script, zip]).output
        return try #require(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func theCommittedDemoExportImports() throws {
        let export = (Fixtures.repositoryRoot as NSString).appendingPathComponent("sample-exports/export.zip")
        let tallyPath = (Fixtures.repositoryRoot as NSString).appendingPathComponent("sample-exports/export.tally.json")
        let tally = try JSONDecoder().decode(ExportTally.self, from: Data(contentsOf: URL(fileURLWithPath: tallyPath)))
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let summary = try ImportJob(
            inputPath: export, databasePath: directory.file("demo.sqlite"), timeZone: TimeZone(identifier: "UTC")!
        ).run()
        #expect(summary.items["records"] == tally.records)
        #expect(summary.items["workouts"] == tally.workouts)
    }
}
