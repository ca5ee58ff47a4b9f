import Foundation
import HealthTestSupport
import Testing

@testable import HTMLReport
@testable import HealthImport
@testable import HealthSQLite

/// The person's normal in the report: every daily chart's band is the stored normal (mean ± sd), the planted
/// illness's days are marked and no other, and "What changed" lists only trends whose interval excludes 0.
@Suite struct ReportBaselineTests {
    @Test func bandsMarksAndChangesComeFromTheBaselines() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try ImportJob(
            inputPath: try GeneratedExport.withIllness().path, databasePath: database,
            timeZone: TimeZone(identifier: "Europe/Berlin")!
        ).run()
        let model = try HealthReport.read(databasePath: database, options: ReportOptions(), now: Date())
        let db = try SQLiteConnection(path: database, create: false)
        let charts = model.sections.flatMap(\.charts)
        let banded = charts.filter { !$0.band.isEmpty }
        #expect(banded.count >= 5)
        for chart in banded {
            let key = try #require(chart.series.first?.key)
            let stored = try db.query(
                "SELECT date, mean - sd, mean + sd FROM baselines WHERE column_name = ? AND sd IS NOT NULL ORDER BY date",
                [.text(key)])
            #expect(chart.band.map(\.label) == stored.map { $0[0].text ?? "" }, "\(chart.id)")
            for (band, row) in zip(chart.band, stored) {
                #expect(band.low == row[1].number && band.high == row[2].number, "\(chart.id) \(band.label)")
            }
            #expect(chart.marks == ["2024-04-10", "2024-04-11", "2024-04-12", "2024-04-13"], "\(chart.id)")
        }
        #expect(charts.contains { $0.id == "resting-heart-rate" || $0.series.first?.key == "RestingHeartRate_avg" })
        #expect(banded.contains { $0.series.first?.key == "RestingHeartRate_avg" })

        let changes = try #require(model.sections.first { $0.section == .changes }?.tables.first)
        #expect(!changes.rows.isEmpty && changes.rows.count <= ReportReader.changeCount)
        for row in changes.rows {
            // "+0.04 to +0.45": both ends on one side of 0.
            let ends = row[3].components(separatedBy: " to ").map { $0.first }
            #expect(ends.count == 2 && ends[0] == ends[1], "\(row)")
        }
        let html = ReportRenderer.html(model)
        #expect(html.contains("class=\"band\"") && html.contains("data-unusual=\"2024-04-12\""))
        #expect(!html.contains("data-unusual=\"2024-04-09\"") && !html.contains("data-unusual=\"2024-04-14\""))
    }
}
