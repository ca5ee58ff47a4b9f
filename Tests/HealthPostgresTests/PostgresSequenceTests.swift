import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthPipelines
@testable import HealthPostgres
@testable import HealthSQLite
@testable import HealthStages
@testable import SampleExports

/// Sequences of runs, each into a SQLite database and into PostgreSQL: after every step the person's rows (read
/// back through a check-out) equal the SQLite database's, and both record the same runs. Covers failures,
/// refusals, --force, filters, State of Mind files, time-zone changes and the same-zip shortcut in between.
struct PostgresSequence {
    struct Step {
        var label: String
        var export: String
        var configure: (inout ImportJob) -> Void = { _ in }
    }

    static func runSteps(_ steps: [Step], person: String, database: TestDatabase, directory: TemporaryDirectory)
        throws -> [String]
    {
        let sqlite = directory.file("direct-\(UUID().uuidString).sqlite")
        var log: [String] = []
        for step in steps {
            var direct = ImportJob(inputPath: step.export, databasePath: sqlite, timeZone: nil)
            step.configure(&direct)
            var sqliteResult: String
            do {
                let summary = try direct.run()
                sqliteResult = "ok:" + summary.outcome
            } catch { sqliteResult = "error:\(error)" }

            var job = ImportJob(inputPath: step.export, databasePath: "", timeZone: nil)
            step.configure(&job)
            job.lockTimeoutSeconds = 10
            let destination = PostgresDestination(connection: database.url, person: person)
            var pgResult: String
            var mode = ""
            do {
                let summary = try PipelinePlan(job: job, databasePath: nil, csv: nil, postgres: destination).run()
                    .summary
                pgResult = "ok:" + summary.outcome
                mode = " checkedOut=\(summary.postgres?.rowsCheckedOut ?? -1) sent=\(summary.postgres?.rowsSent ?? -1)"
            } catch { pgResult = "error:\(error)" }

            var same = "n/a"
            if FileManager.default.fileExists(atPath: sqlite) {
                let direct = try dataContent(of: sqlite)
                let published = try PostgresImportTests.personContent(database, person, in: directory)
                let differing = Set(direct.keys).union(published.keys).filter { direct[$0] != published[$0] }.sorted()
                same = differing.isEmpty ? "same" : "DIFFER in \(differing)"
                for table in differing.prefix(3) {
                    let a = direct[table] ?? [], b = published[table] ?? []
                    let onlyA = a.filter { !b.contains($0) }.prefix(3)
                    let onlyB = b.filter { !a.contains($0) }.prefix(3)
                    same +=
                        "\n    \(table): sqlite \(a.count) rows, pg \(b.count) rows; only sqlite \(a.filter { !b.contains($0) }.count): \(String(describing: Array(onlyA.prefix(1))).prefix(400)); only pg \(b.filter { !a.contains($0) }.count): \(String(describing: Array(onlyB.prefix(1))).prefix(400))"
                }
                let sqliteRuns = try SQLiteConnection(path: sqlite, create: false).query(
                    "SELECT id, outcome FROM import_runs ORDER BY id"
                ).map { "\($0[0].integer ?? -1):\($0[1].text ?? "")" }
                let pgRuns = try database.connect().query(
                    "SELECT id, outcome FROM healthetl.import_runs WHERE person = $1 ORDER BY id", [person]
                ).map {
                    "\($0[0] ?? ""):\($0[1] ?? "")"
                }
                if sqliteRuns != pgRuns { same += "\n    runs differ: sqlite \(sqliteRuns) pg \(pgRuns)" }
            } else {
                let pgRows = try database.count(
                    "SELECT count(*) FROM healthetl.import_runs WHERE person = $1", [person])
                same = "no sqlite db; pg import_runs=\(pgRows)"
            }
            let line = "\(step.label): sqlite=\(sqliteResult) | pg=\(pgResult)\(mode) | \(same)"
            log.append(line)
        }
        return log
    }

    static func export(
        seed: UInt64 = 7, days: Int, offset: String = "+0100", start: Date? = nil, scale: Double = 0.3,
        into directory: TemporaryDirectory, name: String? = nil
    ) throws -> String {
        var options = GeneratorOptions(seed: seed, days: days, profile: .ios18)
        options.scale = scale
        options.exportOffset = offset
        if let start { options.startDate = start }
        let path = directory.file(name ?? "export-\(seed)-\(days)\(offset)-\(UUID().uuidString.prefix(4)).zip")
        _ = try GeneratedExport.zip(options).copy(to: path)
        return path
    }
}

@Suite(.needsPostgres, .tags(.fullSuite), .fastLoopSelection)
struct PostgresSequenceTests {
    @Test func sequenceBasics() throws {
        let database = try TestPostgres.makeDatabase("sequence: basics")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let a = try PostgresSequence.export(days: 5, into: directory)
        let b = try PostgresSequence.export(days: 8, offset: "+0200", into: directory)
        let c = try PostgresSequence.export(seed: 9, days: 4, into: directory)
        let truncated = directory.file("truncated.zip")
        let data = try Data(contentsOf: URL(fileURLWithPath: b))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        let berlin = TimeZone(identifier: "Europe/Berlin")
        let ny = TimeZone(identifier: "America/New_York")
        let steps: [PostgresSequence.Step] = [
            .init(label: "A berlin", export: a) { $0.timeZone = berlin },
            .init(label: "B", export: b),
            .init(label: "truncated", export: truncated),
            .init(label: "B again", export: b),
            .init(label: "A force (older)", export: a) { $0.allowOlderExport = true },
            .init(label: "A again", export: a),
            .init(label: "B again (ny)", export: b) { $0.timeZone = ny },
            .init(label: "B again", export: b),
            .init(label: "C other seed force", export: c) { $0.allowOlderExport = true },
            .init(label: "B keep dups", export: b) { $0.storeOptions.dropExactDuplicates = false },
            .init(label: "B raw units", export: b) { $0.stages = [ValenceStage()] },
            .init(label: "B rescan", export: b) { $0.rescan = true },
        ]
        let log = try PostgresSequence.runSteps(steps, person: "seq", database: database, directory: directory)
        #expect(log.filter { !$0.hasSuffix("| same") } == [])
    }
}

extension PostgresSequenceTests {
    static func som(_ directory: TemporaryDirectory, _ name: String, _ entries: [(String, String, Double)]) -> String {
        let items = entries.map { id, date, valence in
            """
            {"id": "\(id)", "start": "\(date)", "end": "\(date)", "kind": "dailyMood", "labels": ["Calm"],
             "associations": ["Work"], "valence": \(valence), "valenceClassification": "neutral", "metadata": {}}
            """
        }
        return directory.write(name, "{\"data\": {\"stateOfMind\": [" + items.joined(separator: ",") + "]}}")
    }

    @Test func sequenceFiltersAndStateOfMind() throws {
        let database = try TestPostgres.makeDatabase("sequence: filters")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let a = try PostgresSequence.export(days: 6, into: directory)
        let b = try PostgresSequence.export(days: 9, offset: "+0200", into: directory)
        let som1 = Self.som(
            directory, "som1.json",
            [("S1", "2024-01-02 08:00:00 +0100", 0.5), ("S2", "2024-01-03 08:00:00 +0100", -0.2)])
        let som2 = Self.som(directory, "som2.json", [("S1", "2024-01-02 08:00:00 +0100", 0.7)])
        let filter = SampleFilter(types: ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"])
        let dates = SampleFilter(from: 1_704_153_600, to: 1_704_326_400)  // 2024-01-02 … 2024-01-04
        func filtered(_ f: SampleFilter) -> (inout ImportJob) -> Void {
            { job in
                job.stages = [FilterStage(f), UnitStage(), ValenceStage()]
                job.storeOptions.scope = f
            }
        }
        let berlin = TimeZone(identifier: "Europe/Berlin")
        let steps: [PostgresSequence.Step] = [
            .init(label: "A types-filter", export: a) { job in
                filtered(filter)(&job); job.timeZone = berlin
            },
            .init(label: "A full", export: a),
            .init(label: "B dates-filter", export: b, configure: filtered(dates)),
            .init(label: "B full + som1", export: b) { $0.stateOfMindPath = som1 },
            .init(label: "B same + som1", export: b) { $0.stateOfMindPath = som1 },
            .init(label: "B same + som2", export: b) { $0.stateOfMindPath = som2 },
            .init(label: "B same, no som", export: b),
            .init(label: "B same + som2 again", export: b) { $0.stateOfMindPath = som2 },
            .init(label: "A force + som1", export: a) {
                $0.allowOlderExport = true; $0.stateOfMindPath = som1
            },
            .init(label: "B tz tokyo", export: b) { $0.timeZone = TimeZone(identifier: "Asia/Tokyo") },
            .init(label: "B same", export: b),
        ]
        let log = try PostgresSequence.runSteps(steps, person: "filt", database: database, directory: directory)
        #expect(log.filter { !$0.hasSuffix("| same") } == [])
    }

    @Test func sequenceManyExports() throws {
        let database = try TestPostgres.makeDatabase("sequence: many exports")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var steps: [PostgresSequence.Step] = []
        let plan: [(UInt64, Int, String, Bool)] = [
            (7, 3, "+0100", false), (7, 6, "+0100", false), (7, 6, "-0500", false), (7, 10, "+0100", false),
            (7, 4, "+0100", true), (8, 5, "+0100", true), (7, 12, "+0530", true), (7, 12, "+0530", false),
        ]
        for (index, (seed, days, offset, force)) in plan.enumerated() {
            let path = try PostgresSequence.export(seed: seed, days: days, offset: offset, into: directory)
            steps.append(
                .init(label: "\(index) seed\(seed) days\(days) \(offset)\(force ? " force" : "")", export: path) {
                    $0.allowOlderExport = force
                    if index == 0 { $0.timeZone = TimeZone(identifier: "Europe/Berlin") }
                })
        }
        let log = try PostgresSequence.runSteps(steps, person: "many", database: database, directory: directory)
        #expect(log.filter { !$0.hasSuffix("| same") } == [])
    }
}

extension PostgresSequenceTests {
    @Test func sequenceFailures() throws {
        let database = try TestPostgres.makeDatabase("sequence: failures")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let a = try PostgresSequence.export(days: 5, into: directory)
        let b = try PostgresSequence.export(days: 8, offset: "+0200", into: directory)
        let older = try PostgresSequence.export(days: 3, into: directory)
        // b with a damaged byte in the middle of its compressed data: fails after rows were written.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: b)))
        for i in stride(from: bytes.count / 3, to: bytes.count / 3 + 64, by: 1) { bytes[i] ^= 0x5A }
        let corrupt = directory.file("corrupt.zip")
        try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
        let steps: [PostgresSequence.Step] = [
            .init(label: "corrupt first", export: corrupt) { $0.timeZone = TimeZone(identifier: "Europe/Berlin") },
            .init(label: "A", export: a) { $0.timeZone = TimeZone(identifier: "Europe/Berlin") },
            .init(label: "corrupt", export: corrupt),
            .init(label: "A again after failure", export: a),
            .init(label: "older, no force", export: older),
            .init(label: "A again after refusal", export: a),
            .init(label: "B", export: b),
            .init(label: "corrupt again", export: corrupt),
            .init(label: "B again", export: b),
            .init(label: "A again (older now), no force", export: a),
            .init(label: "A force", export: a) { $0.allowOlderExport = true },
            .init(label: "B", export: b),
        ]
        let log = try PostgresSequence.runSteps(steps, person: "fail", database: database, directory: directory)
        #expect(log.filter { !$0.hasSuffix("| same") && !$0.contains("no sqlite db; pg import_runs=0") } == [])
    }
}
