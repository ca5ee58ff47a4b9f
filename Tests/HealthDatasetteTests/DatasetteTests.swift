import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthDatasette
@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// `healthetl datasette` against the real Datasette from PyPI (installed into a venv under .build/ on first
/// use): every canned query answers, with the rows the same SQL gives run directly; every table and view page
/// opens with the metadata. Skipped only when pip cannot install Datasette.
@Suite("Datasette metadata")
struct DatasetteTests {
    /// A JSON value and a SQLite value say the same thing (REALs to the last bit or so: Python prints the
    /// shortest text that reads back as the same double).
    static func same(_ json: Any, _ value: SQLiteValue) -> Bool {
        switch value {
        case .null: return json is NSNull
        case .text(let text): return json as? String == text
        case .integer(let integer): return (json as? NSNumber)?.int64Value == integer
        case .real(let real):
            guard let number = (json as? NSNumber)?.doubleValue else { return false }
            return abs(number - real) <= 1e-12 * max(1, abs(real))
        case .blob: return false
        }
    }

    @Test(.needsDatasette, .tags(.fullSuite), .fastLoopSelection)
    func cannedQueriesAnswerWithTheRowsOfTheirSQL() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let datasette = try #require(Fixtures.datasette)

        var options = GeneratorOptions(seed: 3, days: 16, profile: .ios18)
        options.scale = 0.3
        let export = directory.file("export.zip")
        _ = try GeneratedExport.zip(options).copy(to: export)
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()

        let run = try HealthetlCommand.run(["datasette", "--db", database])
        let output = [run.out]
        #expect(run.code == 0, "\(run.err)")
        let metadataPath = directory.file("health.datasette.json")
        #expect(output.joined().contains("--metadata"))
        let mode = try FileManager.default.attributesOfItem(atPath: metadataPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let port = try LocalHTTP.freePort()
        let log = directory.file("datasette.log")
        let server = try ProcessRunner.start(
            datasette,
            [
                "serve", "--immutable", database, "--metadata", metadataPath, "--host", "127.0.0.1", "--port",
                String(port),
            ], output: .file(log), error: .file(log))
        defer { ProcessRunner.stop(server) }
        // Started when it answers; bounded, so a server that never comes up fails the test instead of hanging it.
        let deadline = Date().addingTimeInterval(180)
        var ready = false
        while !ready && server.isRunning && Date() < deadline {
            ready = (try? LocalHTTP.fetch(port: port, "/-/versions.json"))?.status == 200
            if !ready { usleep(250_000) }
        }
        try #require(ready, "Datasette did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")

        let name = DatasetteMetadata.databaseName(ofPath: database)
        let db = try SQLiteConnection(path: database, create: false)
        for query in DatasetteMetadata.queries {
            let statement = try db.prepare(query.sql)
            let columns = statement.columnNames
            let expected = try statement.rows()
            #expect(!expected.isEmpty, "\(query.name) has no rows in the test export: it would prove nothing")
            let (status, body) = try LocalHTTP.fetch(port: port, "/\(name)/\(query.name).json?_shape=array")
            #expect(status == 200, "\(query.name): HTTP \(status)")
            let rows = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]], "\(query.name)")
            #expect(rows.count == expected.count, "\(query.name)")
            for (row, values) in zip(rows, expected) {
                #expect(Set(row.keys) == Set(columns), "\(query.name)")
                for (column, value) in zip(columns, values) {
                    #expect(
                        Self.same(row[column] ?? NSNull(), value),
                        "\(query.name).\(column): \(row[column] ?? "-") vs \(value)")
                }
            }
        }
        // Every table and view opens with its metadata (units included), and the descriptions arrived.
        for table in Schema.tables.map(\.name) + Schema.viewDescriptions.map(\.name) {
            let (status, _) = try LocalHTTP.fetch(port: port, "/\(name)/\(table).json?_size=1")
            #expect(status == 200, "\(table): HTTP \(status)")
        }
        let served = try JSONSerialization.jsonObject(with: try LocalHTTP.fetch(port: port, "/-/metadata.json").body)
        let tables = ((served as? [String: Any])?["databases"] as? [String: Any])?[name] as? [String: Any]
        let overview = (tables?["tables"] as? [String: Any])?["workout_overview"] as? [String: Any]
        #expect(overview?["description_html"] as? String == DatasetteMetadata.html(Schema.workoutOverview.doc))
    }

    @Test func refusesWhatIsNotAHealthetlDatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let notADatabase = directory.write("notes.sqlite", "just text\n")
        // The exit codes of docs (the man page's EXIT STATUS): 65 bad input, 64 a usage error.
        let refused = try HealthetlCommand.run(["datasette", "--db", notADatabase])
        #expect(refused.code == 65)
        #expect(refused.err.hasPrefix("healthetl: \(notADatabase): "))
        #expect(refused.err.split(separator: "\n").count == 1)
        #expect(try HealthetlCommand.run(["datasette", "--db", directory.file("missing.sqlite")]).code == 64)
        #expect(!FileManager.default.fileExists(atPath: directory.file("notes.datasette.json")))
    }
}
