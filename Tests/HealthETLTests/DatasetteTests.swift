import Foundation
import Glibc
import Testing

@testable import HealthDatasette
@testable import HealthETL
@testable import HealthImport
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// `healthetl datasette` against the real Datasette from PyPI (installed into a venv under .build/ on first
/// use): every canned query answers, with the rows the same SQL gives run directly; every table and view page
/// opens with the metadata. Skipped, with a message, only when pip cannot install Datasette.
@Suite("Datasette metadata")
struct DatasetteTests {
    static let venv = Fixtures.repositoryRoot + "/.build/datasette-venv"
    static var datasette: String { venv + "/bin/datasette" }

    /// Runs a program to its end, killed after `limit` seconds; returns its exit status.
    static func run(_ program: String, _ arguments: [String], limit: Double, log: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(200_000) }
        if process.isRunning { stop(process) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGKILL: a child of the test runner inherits its blocked signals, so SIGTERM would stay pending.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Datasette's path, installing it when missing; nil (with the reason printed) when pip cannot.
    static func installedDatasette(log: String) -> String? {
        if FileManager.default.isExecutableFile(atPath: datasette) { return datasette }
        do {
            let venvStatus = try run("/usr/bin/env", ["python3", "-m", "venv", venv], limit: 300, log: log)
            let pip = venv + "/bin/python3"
            let pipStatus =
                venvStatus == 0 ? try run(pip, ["-m", "pip", "install", "-q", "datasette"], limit: 900, log: log) : -1
            if pipStatus == 0, FileManager.default.isExecutableFile(atPath: datasette) { return datasette }
        } catch {
            print("skipped: cannot run python3 to install Datasette: \(error)")
            return nil
        }
        let reason = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").last ?? ""
        print("skipped: pip could not install Datasette into \(venv) (\(reason))")
        try? FileManager.default.removeItem(atPath: venv)
        return nil
    }

    /// A TCP port nobody listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A plain HTTP/1.0 GET on a blocking socket (with a receive timeout): no URLSession, whose callbacks can
    /// wait long behind a busy test runner. The server answers HTTP/1.0 without chunking and closes.
    static func fetch(port: Int, _ path: String) throws -> (status: Int, body: Data) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return (0, Data()) }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else {
            return (0, Data())
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response.append(contentsOf: buffer[0..<count])
        }
        guard let end = response.range(of: Data("\r\n\r\n".utf8)) else { return (0, Data()) }
        let statusLine = String(decoding: response[..<end.lowerBound], as: UTF8.self).split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        return (status, Data(response[end.upperBound...]))
    }

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

    @Test func cannedQueriesAnswerWithTheRowsOfTheirSQL() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        guard let datasette = Self.installedDatasette(log: directory.file("pip.log")) else { return }

        var options = GeneratorOptions(seed: 3, days: 16, profile: .ios18)
        options.scale = 0.3
        let export = directory.file("export.zip")
        _ = try ExportGenerator(options: options).write(to: .zip(export))
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin")).run()

        var output: [String] = []
        var errors: [String] = []
        let tool = Tool(standardOutput: { output.append($0) }, standardError: { errors.append($0) }, errorIsTerminal: false)
        #expect(tool.run(["datasette", "--db", database]) == 0, "\(errors)")
        let metadataPath = directory.file("health.datasette.json")
        #expect(output.joined().contains("--metadata"))
        let mode = try FileManager.default.attributesOfItem(atPath: metadataPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let port = try Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: datasette)
        server.arguments = [
            "serve", "--immutable", database, "--metadata", metadataPath, "--host", "127.0.0.1", "--port", String(port),
        ]
        let log = directory.file("datasette.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        server.standardOutput = logHandle
        server.standardError = logHandle
        try server.run()
        defer { Self.stop(server) }
        // Started when it answers; bounded, so a server that never comes up fails the test instead of hanging it.
        let deadline = Date().addingTimeInterval(180)
        var ready = false
        while !ready && server.isRunning && Date() < deadline {
            ready = (try? Self.fetch(port: port, "/-/versions.json"))?.status == 200
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
            let (status, body) = try Self.fetch(port: port, "/\(name)/\(query.name).json?_shape=array")
            #expect(status == 200, "\(query.name): HTTP \(status)")
            let rows = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]], "\(query.name)")
            #expect(rows.count == expected.count, "\(query.name)")
            for (row, values) in zip(rows, expected) {
                #expect(Set(row.keys) == Set(columns), "\(query.name)")
                for (column, value) in zip(columns, values) {
                    #expect(Self.same(row[column] ?? NSNull(), value), "\(query.name).\(column): \(row[column] ?? "-") vs \(value)")
                }
            }
        }
        // Every table and view opens with its metadata (units included), and the descriptions arrived.
        for table in Schema.tables.map(\.name) + Schema.viewDescriptions.map(\.name) {
            let (status, _) = try Self.fetch(port: port, "/\(name)/\(table).json?_size=1")
            #expect(status == 200, "\(table): HTTP \(status)")
        }
        let served = try JSONSerialization.jsonObject(with: try Self.fetch(port: port, "/-/metadata.json").body)
        let tables = ((served as? [String: Any])?["databases"] as? [String: Any])?[name] as? [String: Any]
        let overview = (tables?["tables"] as? [String: Any])?["workout_overview"] as? [String: Any]
        #expect(overview?["description_html"] as? String == DatasetteMetadata.html(Schema.workoutOverview.doc))
    }

    @Test func refusesWhatIsNotAHealthetlDatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let notADatabase = directory.write("notes.sqlite", "just text\n")
        var errors: [String] = []
        let tool = Tool(standardOutput: { _ in }, standardError: { errors.append($0) }, errorIsTerminal: false)
        #expect(tool.run(["datasette", "--db", notADatabase]) == ExitCode.badInput.rawValue)
        #expect(errors.joined().hasPrefix("healthetl: \(notADatabase): "))
        #expect(errors.joined().split(separator: "\n").count == 1)
        #expect(tool.run(["datasette", "--db", directory.file("missing.sqlite")]) == ExitCode.usage.rawValue)
        #expect(!FileManager.default.fileExists(atPath: directory.file("notes.datasette.json")))
    }
}
