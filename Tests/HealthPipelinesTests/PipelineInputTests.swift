import Foundation
import HealthCSV
import HealthTestSupport
import Testing

@testable import HealthPipelines

/// Input globs, path resolution against the pipeline file's folder, and the separate input check.
@Suite struct PipelineInputTests {
    static let sinks = #""sinks": [{"sqlite": "out.sqlite"}]"#

    static func setModified(_ path: String, secondsAgo: Double) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: path)
    }

    @Test func aGlobPicksTheNewestMatchByModificationTime() throws {
        let folder = TemporaryDirectory("pipeline-glob")
        defer { folder.remove() }
        // Names sort the other way round than times, so the test tells the two orders apart.
        let newest = folder.write("export-a.zip", "a")
        let middle = folder.write("export-b.zip", "b")
        let oldest = folder.write("export-c.zip", "c")
        _ = folder.write("other.zip", "not matched")
        try Self.setModified(newest, secondsAgo: 10)
        try Self.setModified(middle, secondsAgo: 3600)
        try Self.setModified(oldest, secondsAgo: 86_400)
        let pipeline = folder.write(
            "nightly.json", #"{"version": 1, "input": {"export": "export*.zip"}, "# + Self.sinks + "}")

        let definition = try PipelineDefinition.load(path: pipeline)
        #expect(definition.inputExport == folder.path + "/export*.zip")
        #expect(try definition.resolveInput() == newest)
        #expect(definition.inputCandidates() == [newest, middle, oldest])
        let text = definition.describe()
        #expect(
            text.contains("  newest match: \(newest)\n  ignored (older): \(middle)\n  ignored (older): \(oldest)\n"))

        try Self.setModified(oldest, secondsAgo: 1)
        #expect(try definition.resolveInput() == oldest)
    }

    @Test func relativePathsResolveAgainstThePipelineFilesFolderNotTheWorkingDirectory() throws {
        let folder = TemporaryDirectory("pipeline-relative")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("config"), withIntermediateDirectories: true)
        let export = folder.write("export.zip", "zip")
        let pipeline = folder.write(
            "config/p.json",
            """
            {"version": 1, "input": {"export": "../export.zip", "stateOfMind": "mood.json"},
             "sinks": [{"sqlite": "../db/../health.sqlite"}, {"csv": "csv"}]}
            """)
        #expect(FileManager.default.currentDirectoryPath != folder.file("config"))

        let definition = try PipelineDefinition.load(path: pipeline)
        #expect(definition.inputExport == export)
        #expect(definition.stateOfMind == folder.file("config/mood.json"))
        #expect(definition.sqlite?.path == folder.file("health.sqlite"))
        #expect(definition.outputs.first(CSVOutput.self)?.directory == folder.file("config/csv"))
        #expect(definition.fileName == pipeline)
    }

    @Test func tildeIsTheHomeFolder() throws {
        let json =
            #"{"version": 1, "input": {"export": "~/export.zip", "stateOfMind": "~/a/mood.json"}, "# + Self.sinks + "}"
        let definition = try PipelineDefinition.parse(
            data: Data(json.utf8), baseDirectory: NSTemporaryDirectory(), fileName: "p.json")
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        #expect(definition.inputExport == home + "/export.zip")
        #expect(definition.stateOfMind == home + "/a/mood.json")
    }

    /// A cron job or container may set a HOME other than the password database's: HOME wins.
    @Test func tildeComesFromHomeNotThePasswordDatabase() {
        let environment = ["HOME": "/srv/someone else"]
        #expect(
            PipelinePaths.absolute("~/drop/export.zip", relativeTo: "/tmp", environment: environment)
                == "/srv/someone else/drop/export.zip")
        #expect(PipelinePaths.absolute("~", relativeTo: "/tmp", environment: environment) == "/srv/someone else")
        // Not a tilde to expand: relative to the pipeline's folder.
        #expect(PipelinePaths.absolute("a~/b", relativeTo: "/tmp", environment: environment) == "/tmp/a~/b")
        // In a glob, the home folder is literal: its brackets are not a pattern.
        let globHome = ["HOME": "/home/x[1]"]
        #expect(
            PipelinePaths.absolute("~/export*.zip", relativeTo: "/tmp", environment: globHome)
                == #"/home/x\[1\]/export*.zip"#)
    }

    @Test func withoutHomeTildeComesFromThePasswordDatabase() throws {
        // Users' names and homes read from /etc/passwd directly (name, uid and home are fields 1, 3 and 6).
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let entries = passwd.split(separator: "\n").map { $0.split(separator: ":", omittingEmptySubsequences: false) }
            .filter { $0.count >= 6 }
        let mine = try #require(entries.first { $0[2] == "\(getuid())" })
        #expect(
            PipelinePaths.absolute("~/export.zip", relativeTo: "/tmp", environment: [:]) == String(mine[5])
                + "/export.zip")
        #expect(
            PipelinePaths.absolute("~/export.zip", relativeTo: "/tmp", environment: ["HOME": ""]) == String(mine[5])
                + "/export.zip")
        let root = try #require(entries.first { $0[2] == "0" })
        #expect(
            PipelinePaths.absolute("~\(root[0])/export.zip", relativeTo: "/tmp", environment: ["HOME": "/elsewhere"])
                == (String(root[5]) as NSString).appendingPathComponent("export.zip"))
    }

    @Test func resolveInputReportsEveryMissingInputAtOnce() throws {
        let folder = TemporaryDirectory("pipeline-missing")
        defer { folder.remove() }
        let json = #"{"version": 1, "input": {"export": "gone.zip", "stateOfMind": "gone.json"}, "# + Self.sinks + "}"
        let pipeline = folder.write("p.json", json)
        let definition = try PipelineDefinition.load(path: pipeline)
        let error = #expect(throws: PipelineError.self) { try definition.resolveInput() }
        #expect(
            error?.description == """
                \(pipeline): input.export: '\(folder.path)/gone.zip' does not exist
                \(pipeline): input.stateOfMind: '\(folder.path)/gone.json' does not exist
                """)
    }

    @Test func aFolderWithGlobCharactersIsNotReadAsAPattern() throws {
        let folder = TemporaryDirectory("pipeline-[x]")
        defer { folder.remove() }
        let export = folder.write("export1.zip", "zip")
        let pipeline = folder.write(
            "p.json", #"{"version": 1, "input": {"export": "export?.zip"}, "# + Self.sinks + "}")
        let definition = try PipelineDefinition.load(path: pipeline)
        #expect(try definition.resolveInput() == export)
    }

    @Test func aMissingPipelineFileIsOneProblem() {
        let error = #expect(throws: PipelineError.self) { try PipelineDefinition.load(path: "/nonexistent/p.json") }
        #expect(error?.description == "/nonexistent/p.json: cannot read the file")
    }
}
