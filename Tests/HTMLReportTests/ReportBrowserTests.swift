import Foundation
import HealthTestSupport
import Testing

@testable import HTMLReport

/// The report as a person opens it: a real headless Chromium loads the file with every host name unresolvable,
/// records its network log and console, and hands back the DOM it built. A control page with a console error
/// and an image URL proves both checks can fail. Skipped only where no Chromium is installed;
/// scripts/test installs Debian's chromium-headless-shell.
@Suite(.tags(.fullSuite), .fastLoopSelection) struct ReportBrowserTests {
    struct Load {
        var dom: String
        var consoleLines: [String]
        var requestedURLs: [String]
    }

    static func browser() -> String? {
        Fixtures.executable("chromium-headless-shell", "chromium", "chromium-browser")
    }

    static func load(_ page: String, browser: String, in directory: TemporaryDirectory, name: String) throws -> Load {
        let netLog = directory.file("\(name)-net.json")
        let result = try ProcessRunner.run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=" + directory.file("\(name)-profile"), "--log-net-log=" + netLog,
                "--host-resolver-rules=MAP * ~NOTFOUND", "--dump-dom", URL(fileURLWithPath: page).absoluteString,
            ], timeout: 120)
        #expect(result.status == 0, "\(result.error)")
        let log = (try? String(contentsOfFile: netLog, encoding: .utf8)) ?? ""
        let urls = log.matches(of: #/"url":"([^"]*)"/#).map { String($0.1) }
        let console = result.error.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Load(dom: result.output, consoleLines: console, requestedURLs: urls)
    }

    @Test(
        .enabled(
            if: Condition.chromium, "no Chromium on PATH; apt-get install chromium-headless-shell (scripts/test does)"))
    func chromiumLoadsTheReportWithNoConsoleErrorAndNoRequest() throws {
        let browser = try #require(Self.browser())
        let directory = TemporaryDirectory("report-browser")
        defer { directory.remove() }

        let control = directory.write(
            "control.html",
            #"<!DOCTYPE html><html><body><img src="http://example.invalid/x.png"><script>console.error("control-7")</script></body></html>"#
        )
        let controlLoad = try Self.load(control, browser: browser, in: directory, name: "control")
        #expect(controlLoad.consoleLines.contains { $0.contains("control-7") }, "the console check cannot see errors")
        #expect(
            controlLoad.requestedURLs.contains("http://example.invalid/x.png"), "the network check cannot see requests")

        let database = try ReportDatabaseTests.importSample(into: directory)
        let page = directory.file("report.html")
        _ = try HealthReport.write(databasePath: database, to: page)
        let load = try Self.load(page, browser: browser, in: directory, name: "report")
        #expect(load.consoleLines.isEmpty, "\(load.consoleLines)")
        #expect(load.requestedURLs.isEmpty, "\(load.requestedURLs)")
        for section in ["header", "activity", "sleep", "heart", "workouts"] {
            #expect(load.dom.contains("data-section=\"\(section)\""), "\(section)")
        }
        // The numbers behind the steps chart, as the browser's DOM has them, are daily_rollups' for the same days.
        let steps = load.dom.matches(
            of: #/<rect [^>]*data-series="StepCount" data-date="([^"]*)" data-value="([^"]*)"/#
        )
        .map { (String($0.1), Double(String($0.2)) ?? .nan) }
        let expected = try ReportDatabaseTests.rows(
            database, "SELECT date, value FROM daily_rollups WHERE column_name = 'StepCount' ORDER BY date")
        #expect(steps.count == expected.count && !steps.isEmpty)
        #expect(steps.map(\.0) == expected.map(\.0))
        #expect(steps.map(\.1) == expected.map(\.1))
    }
}
