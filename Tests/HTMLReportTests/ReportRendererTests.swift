import Foundation
import HealthTestSupport
import Testing

@testable import HTMLReport

/// The page from a model, without a database: escaping, self-containment, machine-readable values, and the
/// calendar of the chart axes checked against Foundation's ISO 8601 calendar.
@Suite struct ReportRendererTests {
    static func model(sourceName: String = "Anna’s Apple Watch") -> ReportModel {
        var header = ReportHeader(
            databaseName: "health.sqlite", timeZone: "Europe/Berlin", generatedAt: "2024-04-07T10:00:00Z")
        header.firstDay = "2024-03-24"
        header.lastDay = "2024-03-27"
        header.sources = [ReportSource(name: sourceName, kind: .watch, days: 4)]
        header.lastImport = ReportImport(
            finishedAt: "2024-04-07T09:00:00Z", exportDate: "2024-04-07T08:00:00Z", outcome: "ok",
            warnings: [.init(message: "flagged records from \(sourceName)", count: 3)])
        let axis = ReportAxis(
            resolution: .day, labels: ReportCalendar.labels(first: "2024-03-24", last: "2024-03-27", .day))
        var model = ReportModel(header: header, axis: axis)
        var activity = ReportSectionContent(section: .activity)
        let steps = ReportSeries(
            key: "StepCount", name: "Steps",
            points: [
                ReportPoint("2024-03-24", 1234.5), ReportPoint("2024-03-25", 0.1), ReportPoint("2024-03-27", 98765),
            ])
        activity.charts.append(
            ReportChart(
                id: "steps", title: "Steps", unit: "count", note: "n", style: .bars,
                series: [
                    steps,
                    ReportSeries(
                        key: "StepCount_7day_avg", name: "7-day average",
                        points: ReportReader.trailingMean(steps.points, days: 7)),
                ]))
        model.sections.append(activity)
        var sleep = ReportSectionContent(section: .sleep)
        sleep.charts.append(
            ReportChart(
                id: "sleep", title: "Sleep", unit: "hr", note: "n", style: .stacked,
                series: [
                    ReportSeries(
                        key: "SleepAnalysis_AsleepCore_hours", name: sourceName,
                        points: [ReportPoint("2024-03-25", 4.25)]),
                    ReportSeries(
                        key: "SleepAnalysis_AsleepDeep_hours", name: "Deep", points: [ReportPoint("2024-03-25", 1.5)]),
                ]))
        model.sections.append(sleep)
        var workouts = ReportSectionContent(section: .workouts)
        workouts.tables.append(ReportTable(id: "t", caption: "c", header: ["activity"], rows: [[sourceName]]))
        workouts.routes.append(
            ReportRoute(workoutID: 7, title: sourceName, points: [(0, 0), (1, 0.5)], storedPoints: 2))
        model.sections.append(workouts)
        return model
    }

    /// `(series, date, value)` of every element carrying them, read back from the page.
    static func values(_ html: String) -> [(series: String, date: String, value: Double)] {
        let pattern = #/data-series="([^"]*)" data-date="([^"]*)" data-value="([^"]*)"/#
        return html.matches(of: pattern).compactMap { match in
            Double(String(match.3)).map { (String(match.1), String(match.2), $0) }
        }
    }

    @Test func textFromTheDatabaseIsEscapedEverywhere() {
        let hostile = #"<script>alert("x")</script>'&<img src=x onerror=alert(1)>"#
        let html = ReportRenderer.html(Self.model(sourceName: hostile))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("onerror=alert(1)>"))
        #expect(
            html.contains(
                "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&lt;img src=x onerror=alert(1)&gt;"))
        // In the sources table, the warnings, a series name, a table cell and a route caption.
        #expect(html.components(separatedBy: "&lt;script&gt;").count - 1 >= 5)
    }

    @Test func thePageFetchesNothingAndRunsNothing() {
        let html = ReportRenderer.html(Self.model())
        for forbidden in ["http:", "https:", "//", "<script", "<link", "src=", "url(", "@import", "<iframe", "<object"]
        {
            // "//" would be a protocol-relative URL; the CSP's own text has none.
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""))
    }

    @Test func everyPointIsOnThePageWithItsExactValue() {
        let model = Self.model()
        let found = Self.values(ReportRenderer.html(model))
        let expected = model.sections.flatMap {
            $0.charts.flatMap { chart in
                chart.series.flatMap { series in series.points.map { (series.key, $0.label, $0.value) } }
            }
        }
        #expect(found.count == expected.count)
        for (got, want) in zip(
            found.sorted { ($0.series, $0.date) < ($1.series, $1.date) },
            expected.sorted { ($0.0, $0.1) < ($1.0, $1.1) })
        {
            #expect(got.series == want.0 && got.date == want.1 && got.value == want.2)
        }
    }

    @Test func anEmptyModelIsAnHonestEmptyPage() {
        let header = ReportHeader(databaseName: "h.sqlite", timeZone: "UTC", generatedAt: "2024-01-01T00:00:00Z")
        var model = ReportModel(header: header, axis: ReportAxis(resolution: .day, labels: []))
        model.header.requestedFrom = "2030-01-01"
        let html = ReportRenderer.html(model)
        #expect(html.contains("data-empty=\"true\""))
        #expect(html.contains("No data from 2030-01-01"))
        #expect(!html.contains("<section"))
        #expect(!html.contains("<svg"))
    }

    @Test func theTrailingMeanLeavesOutDaysWithoutValues() {
        let points = [
            ("2024-01-01", 10.0), ("2024-01-02", 20), ("2024-01-05", 30), ("2024-01-08", 40), ("2024-01-09", 50),
        ]
        .map { ReportPoint($0.0, $0.1) }
        let means = ReportReader.trailingMean(points, days: 7)
        // By hand: the window of 01-08 is 01-02 … 01-08 (20, 30, 40); of 01-09 it is 01-03 … 01-09 (30, 40, 50).
        #expect(means.map(\.value) == [10, 15, 20, 30, 40])
        #expect(means.map(\.label) == points.map(\.label))
    }

    @Test func axisLabelsMatchFoundationsISOCalendar() {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        var day = formatter.date(from: "2019-12-20")!
        var mondays: [String] = []
        var months: [String] = []
        while formatter.string(from: day) <= "2021-01-10" {
            let monday = calendar.dateInterval(of: .weekOfYear, for: day)!.start
            if mondays.last != formatter.string(from: monday) { mondays.append(formatter.string(from: monday)) }
            let month = String(formatter.string(from: day).prefix(7))
            if months.last != month { months.append(month) }
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
        #expect(ReportCalendar.labels(first: "2019-12-20", last: "2021-01-10", .week) == mondays)
        #expect(ReportCalendar.labels(first: "2019-12-20", last: "2021-01-10", .month) == months)
        #expect(
            ReportCalendar.labels(first: "2024-02-27", last: "2024-03-01", .day)
                == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"])
        #expect(ReportCalendar.label(ofDay: "2024-03-24", .week) == "2024-03-18")  // a Sunday
        #expect(ReportCalendar.resolution(days: 366) == .day)
        #expect(ReportCalendar.resolution(days: 3650) == .month)
    }

    @Test func axisTicksHaveTheDecimalsTheirStepNeeds() {
        #expect(SVGChart.niceStep(2.1) == 2.5)
        #expect(ReportFormat.tick(7.5, step: 2.5) == "7.5")
        #expect(ReportFormat.tick(5, step: 2.5) == "5.0")
        #expect(ReportFormat.tick(12_500, step: 2_500) == "12,500")
        #expect(ReportFormat.tick(0.75, step: 0.25) == "0.75")
        #expect(ReportFormat.tick(43.2, step: 0.2) == "43.2")
    }

    @Test func routesAreProjectedIntoTheUnitBoxKeepingTheirShape() {
        // A square of 0.01° at 60° north is half as wide as tall once projected.
        let square = [(60.0, 10.0), (60.0, 10.01), (60.01, 10.01), (60.01, 10.0)].map {
            (latitude: $0.0, longitude: $0.1)
        }
        let projected = ReportReader.project(square)
        let width = projected.map(\.x).max()! - projected.map(\.x).min()!
        let height = projected.map(\.y).max()! - projected.map(\.y).min()!
        #expect(abs(height - 1) < 1e-9)
        #expect(abs(width - cos(60.005 * .pi / 180)) < 1e-4)
        // North is up: the northern points have the smaller y.
        #expect(projected[2].y < projected[1].y)
    }
}
