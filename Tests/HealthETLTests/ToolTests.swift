import Foundation
import HealthTestSupport
import Testing

@testable import HealthETL
@testable import HealthModel
@testable import HealthSQLite

/// The command line, run in-process with captured output.
struct ToolTests {
    typealias Output = CapturedOutput

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let output = Output()
        let tool = Tool(
            standardOutput: { output.out += $0 }, standardError: { output.err += $0 }, errorIsTerminal: false)
        let code = tool.run(arguments)
        return (code, output.out, output.err)
    }

    static let oneRecordExport = oneRecordExportXML

    @Test func usageErrorsExit64WithASuggestion() {
        let result = run(["import", "x.zip", "--db", "a.sqlite", "--quite"])
        #expect(result.code == 64)
        #expect(
            result.err.hasPrefix(
                "Error: Unknown option '--quite'. Did you mean '--quiet'?\nUsage: healthetl import <export>"))
        #expect(result.err.hasSuffix("\n  See 'healthetl help import' for more information.\n"))
        #expect(run(["import", "--db", "a.sqlite"]).err.hasPrefix("Error: Missing expected argument '<export>'"))
        #expect(run(["import", "x.zip"]).code == 64)
        #expect(run(["frobnicate"]).code == 64)
        #expect(run(["import", "x.zip", "--db", "a.sqlite", "--timezone", "Mars/Base"]).code == 64)
        #expect(run([]).code == 64)
    }

    @Test func helpAndVersionGoToStandardOutput() {
        let help = run(["--help"])
        #expect(help.code == 0)
        #expect(help.out.contains("USAGE: healthetl <command> [<options>]"))
        #expect(help.out.contains("\n  import   "))
        #expect(run(["--version"]).out == "healthetl \(HealthETLVersion.current)\n")
    }

    @Test func aMissingFileIsOneLineWithExitCode65() {
        let result = run(["import", "/nonexistent/export.zip", "--db", "/tmp/never.sqlite"])
        #expect(result.code == 65)
        #expect(result.err == "healthetl: /nonexistent/export.zip: error: no such file or folder\n")
    }

    @Test func aFileThatIsNotAnExportIsRefused() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let notes = directory.write("notes.txt", "just some text\n")
        let result = run(["import", notes, "--db", directory.file("h.sqlite")])
        #expect(result.code == 65)
        #expect(result.err.contains("not a zip file and not an Apple Health export XML"))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("h.sqlite")))
    }

    @Test func quietPrintsNothingAndJSONIsParseable() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", Self.oneRecordExport)
        let quiet = run(["import", export, "--db", directory.file("a.sqlite"), "--quiet"])
        #expect(quiet.code == 0)
        #expect(quiet.out.isEmpty && quiet.err.isEmpty)
        let json = run(["import", export, "--db", directory.file("b.sqlite"), "--json"])
        #expect(json.code == 0)
        let summary = try JSONDecoder().decode(ImportSummary.self, from: Data(json.out.utf8))
        #expect(summary.items["records"] == 1)
        #expect(summary.rows["cumulative_samples"] == 1)
        let text = run(["import", export, "--db", directory.file("c.sqlite")])
        #expect(text.err.contains("records 1"))
    }

    /// Another application's SQLite file is left alone, and the error says which file it is.
    @Test func aForeignDatabaseIsRefusedNamingTheFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", Self.oneRecordExport)
        let database = directory.file("photos.sqlite")
        let other = try SQLiteConnection(path: database)
        try other.execute("CREATE TABLE albums (name TEXT); INSERT INTO albums VALUES ('summer')")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let result = run(["import", export, "--db", database])
        #expect(result.code == 73)
        #expect(
            result.err
                == "healthetl: \(database): error: not a healthetl database (it holds another application's tables) (hint: import into a new file)\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }

    @Test func aLockedDatabaseIsReportedWithItsOwnExitCode() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", Self.oneRecordExport)
        let database = directory.file("h.sqlite")
        #expect(run(["import", export, "--db", database, "--quiet"]).code == 0)
        let holder = try SQLiteConnection(path: database, create: false)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let started = Date()
        let result = run(["import", export, "--db", database, "--wait", "0.2"])
        #expect(result.code == 75)
        #expect(result.err.contains("in use by another process"))
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
