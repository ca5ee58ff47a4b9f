import Foundation
import HealthImport
import HealthSQLite
import HealthTestSupport
import Testing

@testable import HealthETL

/// A real export (../shared): its owner named his phone "Ryan Phone". The name does not survive; the phone
/// stays an iPhone.
@Suite struct RealExportTests {
    @Test(.enabled(if: Condition.sharedFixtures, "../shared is not present"))
    func aRealExportsOwnerNamesAreGone() throws {
        let export = Fixtures.sharedRoot + "/fixtures/real/rgosdin-ios12-v8/export.zip"
        let folder = TemporaryDirectory("deidentify-real")
        defer { folder.remove() }
        let database = folder.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "UTC")!).run()
        let key = try TestKey.write(in: folder)
        let copy = folder.file("shared.sqlite")
        let output = CapturedOutput()
        let tool = Tool(standardOutput: { _ in }, standardError: { output.err += $0 }, errorIsTerminal: false)
        #expect(tool.run(["deidentify", "--db", database, "--out", copy, "--key-file", key, "--quiet"]) == 0)
        for (path, expected) in [(database, true), (copy, false)] {
            let bytes = EncodedForms.lowercasingASCII(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            for name in ["Ryan"] {
                let found = EncodedForms.forms(of: name).contains { EncodedForms.contains(bytes, $0.1) }
                #expect(found == expected, "\(name) in \(path)")
            }
        }
        let names = try SQLiteConnection(path: copy, create: false).query("SELECT name FROM sources ORDER BY id")
        #expect(names == [[.text("iPhone")], [.text("Health")], [.text("Clock")]])
    }
}
