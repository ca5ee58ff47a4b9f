import Foundation
import HealthTestSupport
import Testing

@testable import HTMLReport
@testable import HealthImport
@testable import HealthSQLite

/// `healthetl report` on a real import of the sample export: the page's numbers are the database's, the file
/// is private, and bad input gets one line and an exit code.
@Suite struct ReportDatabaseTests {
    static let sampleExport = Fixtures.repositoryRoot + "/sample-exports/export.zip"

    static func importSample(into directory: TemporaryDirectory) throws -> String {
        let database = directory.file("health.sqlite")
        _ = try ImportJob(
            inputPath: sampleExport, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")!
        ).run()
        return database
    }

    static func run(_ arguments: [String]) throws -> (code: Int32, out: String, err: String) {
        try HealthetlCommand.run(arguments)
    }

    static func rows(_ database: String, _ sql: String) throws -> [(String, Double)] {
        try SQLiteConnection(path: database, create: false).query(sql).compactMap { row in
            guard let label = row[0].text, let value = row[1].number else { return nil }
            return (label, value)
        }
    }

    static func series(_ html: String, _ key: String) -> [(String, Double)] {
        ReportRendererTests.values(html).filter { $0.series == key }.map { ($0.date, $0.value) }
    }

    @Test func theChartsShowTheDatabasesRollupsAndTheFileIsPrivate() throws {
        let directory = TemporaryDirectory("report")
        defer { directory.remove() }
        let database = try Self.importSample(into: directory)
        let page = directory.file("report.html")
        let result = try Self.run(["report", "--db", database, "--out", page])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.hasPrefix("\(page): 2024-03-2"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        var info = stat()
        #expect(stat(page, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(!FileManager.default.fileExists(atPath: page + ".tmp"))

        for (key, sql) in [
            ("StepCount", "SELECT date, value FROM daily_rollups WHERE column_name = 'StepCount' ORDER BY date"),
            (
                "RestingHeartRate_avg",
                "SELECT date, value FROM daily_rollups WHERE column_name = 'RestingHeartRate_avg' ORDER BY date"
            ),
            (
                "SleepAnalysis_AsleepCore_hours",
                "SELECT date, value FROM daily_rollups WHERE column_name = 'SleepAnalysis_AsleepCore_hours' ORDER BY date"
            ),
            (
                "activity_summaries.active_energy_burned",
                "SELECT date, active_energy_burned FROM activity_summaries WHERE active_energy_burned IS NOT NULL ORDER BY date"
            ),
        ] {
            let expected = try Self.rows(database, sql)
            let shown = Self.series(html, key)
            #expect(!expected.isEmpty, "\(key)")
            #expect(shown.map(\.0) == expected.map(\.0), "\(key)")
            #expect(shown.map(\.1) == expected.map(\.1), "\(key)")
        }
        // Each section whose data the database has is drawn.
        for section in ["header", "activity", "sleep", "heart", "workouts"] {
            #expect(html.contains("data-section=\"\(section)\""), "\(section)")
        }
        let withBody =
            try SQLiteConnection(path: database, create: false).scalar(
                "SELECT count(*) FROM daily_rollups WHERE column_name IN ('BodyMass_avg', 'BodyFatPercentage_avg')"
            ).integer ?? 0
        #expect(html.contains("data-section=\"body\"") == (withBody > 0))
    }

    @Test func workoutsCountOnceAndRoutesAreThinnedShapes() throws {
        let directory = TemporaryDirectory("report")
        defer { directory.remove() }
        let database = try Self.importSample(into: directory)
        let db = try SQLiteConnection(path: database, create: false)
        // Minutes per day and activity straight from SQL, probable duplicates left out.
        let expected = try db.query(
            """
            SELECT activity_type, local_date, sum(duration) FROM workouts
            WHERE id NOT IN (SELECT workout_id FROM workout_duplicates) GROUP BY 1, 2 ORDER BY 1, 2
            """
        ).map { "\(ReportReader.activityName($0[0].text ?? "")) \($0[1].text ?? "") \($0[2].number ?? -1)" }
        var options = ReportOptions()
        options.pointsPerRoute = 50
        let page = directory.file("r.html")
        _ = try HealthReport.write(databasePath: database, to: page, options: options)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let shown = ReportRendererTests.values(html).filter { $0.series.hasPrefix("workouts:") }
            .map { "\($0.series.dropFirst("workouts:".count)) \($0.date) \($0.value)" }.sorted()
        #expect(!expected.isEmpty)
        #expect(shown == expected.sorted())

        let routes =
            try db.scalar(
                "SELECT count(*) FROM workout_routes WHERE point_count > 1 AND workout_id NOT IN (SELECT workout_id FROM workout_duplicates)"
            ).integer ?? 0
        let figures = html.matches(
            of:
                #/<figure class="route" data-workout="\d+" data-points="(\d+)"><svg[^>]*><title>[^<]*</title><polyline points="([^"]*)"/#
        )
        #expect(routes > 0)
        #expect(figures.count == min(Int(routes), options.routeLimit))
        for figure in figures {
            let stored = Int(figure.1)!
            let drawn = figure.2.split(separator: " ").count
            #expect(
                drawn <= options.pointsPerRoute + 1 && drawn >= min(stored, options.pointsPerRoute / 2),
                "\(stored) → \(drawn)")
        }
    }

    @Test func rangesSectionsAndAnEmptyRange() throws {
        let directory = TemporaryDirectory("report")
        defer { directory.remove() }
        let database = try Self.importSample(into: directory)
        let page = directory.file("r.html")
        #expect(
            try Self.run([
                "report", "--db", database, "--out", page, "--from", "2024-03-26", "--to", "2024-03-29",
                "--sections", "activity,sleep",
            ]).code == 0)
        var html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(Self.series(html, "StepCount").map(\.0) == ["2024-03-26", "2024-03-27", "2024-03-28"])
        #expect(html.contains("data-section=\"sleep\""))
        #expect(!html.contains("data-section=\"heart\"") && !html.contains("data-section=\"workouts\""))

        #expect(try Self.run(["report", "--db", database, "--out", page, "--days", "2"]).code == 0)
        html = try String(contentsOfFile: page, encoding: .utf8)
        let last =
            try SQLiteConnection(path: database, create: false).scalar("SELECT max(date) FROM daily_rollups").text ?? ""
        #expect(html.contains("data-last-day=\"\(last)\""))
        #expect(Set(Self.series(html, "StepCount").map(\.0)).count <= 2)

        let empty = try Self.run(["report", "--db", database, "--out", page, "--from", "2030-01-01"])
        #expect(empty.code == 0)
        #expect(empty.err == "\(page): no data in the range: an empty report\n")
        html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("data-empty=\"true\"") && !html.contains("<svg"))
    }

    @Test func badInputIsOneLineWithAnExitCode() throws {
        let directory = TemporaryDirectory("report")
        defer { directory.remove() }
        let page = directory.file("r.html")
        let missing = try Self.run(["report", "--db", directory.file("none.sqlite"), "--out", page])
        #expect(missing.code == 64)
        #expect(missing.err.split(separator: "\n").count == 1 && missing.err.contains("none.sqlite"))

        let other = directory.file("other.sqlite")
        try SQLiteConnection(path: other).execute("CREATE TABLE notes (text TEXT)")
        let foreign = try Self.run(["report", "--db", other, "--out", page])
        #expect(foreign.code == 65)
        #expect(foreign.err.split(separator: "\n").count == 1)
        #expect(foreign.err.hasPrefix("healthetl: \(other): "))
        #expect(foreign.err.contains("not a healthetl database"))
        #expect(!FileManager.default.fileExists(atPath: page))

        #expect(
            try Self.run(["report", "--help"]).out.contains("USAGE: healthetl report --db <path> --out <file.html>"))
        let help = try Self.run(["--help"]).out
        #expect(help.contains("report  ") && help.contains("HTML page"))
        #expect(try Self.run(["report", "--db", other]).code == 64)
        #expect(try Self.run(["report", "--db", other, "--out", page, "--days", "0"]).code == 64)
        #expect(try Self.run(["report", "--db", other, "--out", page, "--from", "2024-02-30"]).code == 64)
        #expect(
            try Self.run(["report", "--db", other, "--out", page, "--from", "2024-03-02", "--to", "2024-03-01"]).code
                == 64)
        #expect(
            try Self.run(["report", "--db", other, "--out", page, "--sections", "activity,mood"]).err
                .contains("Unknown section 'mood'"))

        let database = try Self.importSample(into: directory)
        let zone = try Self.run(["report", "--db", database, "--out", page, "--timezone", "Asia/Tokyo"])
        #expect(zone.code == 64)
        #expect(zone.err.contains("the database's days are in Europe/Berlin, not Asia/Tokyo"))
        let folder = try Self.run(["report", "--db", database, "--out", directory.file("no/such/folder.html")])
        #expect(folder.code == 73)
        #expect(folder.err.split(separator: "\n").count == 1)
    }

    @Test func hostileSourceNamesInTheDatabaseAreEscaped() throws {
        let directory = TemporaryDirectory("report")
        defer { directory.remove() }
        let database = try Self.importSample(into: directory)
        let hostile = "<script>alert(1)</script>"
        let db = try SQLiteConnection(path: database, create: false)
        try db.execute(
            """
            UPDATE rollups SET sources = sources || '; \(hostile)' WHERE period = 'day';
            UPDATE sources SET name = '\(hostile)' WHERE id = (SELECT min(id) FROM sources);
            INSERT INTO import_warnings (run_id, message, count) VALUES ((SELECT max(id) FROM import_runs), '\(hostile)', 1);
            """)
        let page = directory.file("r.html")
        _ = try HealthReport.write(databasePath: database, to: page)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
}
