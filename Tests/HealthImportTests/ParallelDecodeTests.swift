import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthReading
@testable import HealthSQLite
@testable import SampleExports

/// Decoding on N threads (`ImportJob.threads`, `ParallelExportReader`) gives the database, warnings, counts and
/// errors of one thread, ids included, and ends without hanging whatever stops it.
struct ParallelDecodeTests {
    /// What an import leaves: every data table's full rows (ids included) and the summary's counts and warnings.
    struct Outcome: Equatable {
        var content: [String: [[SQLiteValue]]]
        var items: [String: Int]
        var rows: [String: Int]
        var dropped: [String: Int]
        var warnings: [String: Int]
        var xmlBytes: UInt64
    }

    /// Imports `export` (then `reimport`, if given, onto the same database) with `threads` decoders, the XML cut
    /// into chunks of `chunkSize` bytes.
    static func outcome(
        _ export: String, reimport: String? = nil, threads: Int?, chunkSize: Int, in directory: TemporaryDirectory
    ) throws -> Outcome {
        let database = directory.file("threads-\(threads ?? 0)-\(chunkSize).sqlite")
        var summary = ImportSummary()
        for input in [export] + (reimport.map { [$0] } ?? []) {
            var job = ImportJob(inputPath: input, databasePath: database, timeZone: TimeZone(identifier: "UTC")!)
            job.threads = threads
            job.decodeChunkSize = chunkSize
            job.rescan = true
            job.allowOlderExport = true
            summary = try job.run()
        }
        return Outcome(
            content: try dataContent(of: database), items: summary.items, rows: summary.rows,
            dropped: summary.dropped, warnings: summary.warnings, xmlBytes: summary.xmlBytes)
    }

    static func expectSameForEveryThreadCount(
        _ export: String, reimport: String? = nil, chunkSizes: [Int] = [1, 4096, 1 << 20],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let one = try outcome(export, reimport: reimport, threads: 1, chunkSize: 1 << 20, in: directory)
        #expect(one.content.values.contains { !$0.isEmpty }, sourceLocation: sourceLocation)
        // nil: the job's own choice, which is two decoders for a re-import on two or more cores.
        for threads in [2, 4] + (reimport == nil ? [] : [nil]) as [Int?] {
            for chunkSize in chunkSizes {
                let many = try outcome(
                    export, reimport: reimport, threads: threads, chunkSize: chunkSize, in: directory)
                let label = "\(threads.map(String.init) ?? "the default") threads, \(chunkSize) B"
                #expect(many.items == one.items, "\(label)", sourceLocation: sourceLocation)
                #expect(many.warnings == one.warnings, "\(label)", sourceLocation: sourceLocation)
                #expect(many.rows == one.rows && many.dropped == one.dropped, sourceLocation: sourceLocation)
                #expect(many.xmlBytes == one.xmlBytes, sourceLocation: sourceLocation)
                for (table, rows) in one.content where many.content[table] != rows {
                    Issue.record("\(table) differs with \(label)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test(arguments: [ExportProfile.ios12, .ios16, .ios18])
    func generatedExportsImportTheSameForEveryThreadCount(profile: ExportProfile) throws {
        try Self.expectSameForEveryThreadCount(try GeneratedExport.realistic(profile).path)
    }

    /// A re-import: the writing thread reads the routes there (`WorkPlacement`), the workers in a first import.
    @Test func aReimportIsTheSameForEveryThreadCount() throws {
        let first = try GeneratedExport.days(3, seed: 5).path
        let next = try GeneratedExport.days(5, seed: 5).path
        try Self.expectSameForEveryThreadCount(first, reimport: next, chunkSizes: [4096])
    }

    @Test func theFixtureExportImportsTheSameForEveryThreadCount() throws {
        try Self.expectSameForEveryThreadCount(Fixtures.repositoryRoot + "/Tests/Fixtures/legacy-ios8.xml")
    }

    @Test(
        .enabled(if: Fixtures.sharedIsPresent),
        arguments: ["rgosdin-ios12-v8/export.zip", "rgosdin-ios12-v8", "dogsheep-excerpt/export.xml"])
    func realExportsImportTheSameForEveryThreadCount(_ relative: String) throws {
        guard let path = Fixtures.real(relative) else { return }
        try Self.expectSameForEveryThreadCount(path, chunkSizes: [4096, 1 << 20])
    }

    // MARK: - Errors and stopping

    /// `count` records on their own lines, with the ones at `broken` indices missing their `>`.
    static func export(records count: Int, broken: Set<Int>, in directory: TemporaryDirectory) throws -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-01-01 00:00:00 +0000"/>

            """
        for index in 0..<count {
            let date = "2024-01-01 00:00:00 +0000"
            let end = broken.contains(index) ? "" : "/>"
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone \(index % 7)\" "
                + "unit=\"count\" creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" "
                + "value=\"\(index)\"\(end)\n"
        }
        xml += "</HealthData>\n"
        let path = directory.file("export.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func error(importing export: String, threads: Int, in directory: TemporaryDirectory) -> String {
        var job = ImportJob(
            inputPath: export, databasePath: directory.file("error-\(threads).sqlite"),
            timeZone: TimeZone(identifier: "UTC")!)
        job.threads = threads
        job.decodeChunkSize = 4096
        do {
            _ = try job.run()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// One broken record in chunk k, then a second one further on (another worker's chunk, which may fail
    /// first in time): the first in export order is the one reported, as one thread reports it.
    @Test(arguments: [[1500], [1500, 1510], [1500, 2900], [3999]])
    func aMalformedChunkGivesTheSameErrorForEveryThreadCount(broken: [Int]) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(records: 4000, broken: Set(broken), in: directory)
        let one = Self.error(importing: export, threads: 1, in: directory)
        #expect(one.contains("export.xml") && one.contains(":\(broken[0] + 5):"), "\(one)")
        for threads in [2, 4] {
            #expect(Self.error(importing: export, threads: threads, in: directory) == one)
        }
    }

    /// `produce` on its own thread, with a body that throws after `items` items: it must end (every thread
    /// joined) within the deadline, with the body's error.
    static func expectEnds(
        _ export: String, threads: Int, failingAfter items: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        struct SinkFailed: Error {}
        let reader = Handoff(try ParallelExportReader(container: try ExportContainer(path: export), threads: threads))
        reader.value.chunkTargetSize = 4096
        let thread = WorkerThread(name: "test-produce") { _ in
            var seen = 0
            try reader.value.produce { _ in
                seen += 1
                if seen > items { throw SinkFailed() }
            }
        }
        var ended = false
        var failure: Error?
        do { ended = try thread.join(waitingAtMost: 60) } catch {
            ended = true
            failure = error
        }
        #expect(ended, "produce did not end within 60 s", sourceLocation: sourceLocation)
        if ended { #expect(failure is SinkFailed, "\(String(describing: failure))", sourceLocation: sourceLocation) }
    }

    @Test func aFailingSinkEndsTheRunWithoutHanging() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try Self.export(records: 20_000, broken: [], in: directory)
        for threads in [2, 4] {
            for items in [0, 1, 500, 19_000] { try Self.expectEnds(export, threads: threads, failingAfter: items) }
        }
    }

    /// The same with workouts and their GPX routes being read on the workers.
    @Test func aGeneratedExportStoppedEarlyEndsWithoutHanging() throws {
        try Self.expectEnds(try GeneratedExport.realistic(.ios18).path, threads: 2, failingAfter: 100)
    }
}
