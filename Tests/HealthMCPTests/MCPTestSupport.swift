import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// What the MCP tests add to the shared test support: the sample export imported once per test by the real
/// `healthetl import`, and a raw stdio client for what the SDK cannot send (malformed lines).
enum MCPFixtures {
    /// The sample export of the repository (with a tally: 2024-03-24 is 19,647 steps in the rollups).
    static let sampleExport = Fixtures.repositoryRoot + "/sample-exports/export.zip"

    /// Runs a program to its end (killed past `ProcessRunner`'s time limit); its exit status and its stderr.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
        let result = try ProcessRunner.run(program, arguments)
        return (result.status, result.error)
    }

    /// The sample export imported by the real `healthetl import` into `directory` (Europe/Berlin days).
    static func sampleDatabase(in directory: TemporaryDirectory, name: String = "health.sqlite") throws -> String {
        let database = directory.file(name)
        let result = try HealthetlCommand.run(
            ["import", sampleExport, "--db", database, "--timezone", "Europe/Berlin", "--quiet"])
        try #require(result.code == 0, "\(result.err)")
        return database
    }
}

/// `healthetl mcp` as a child process spoken to line by line, without an SDK: for malformed input and for what
/// exactly appears on stdout.
final class RawServer {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffered = Data()

    init(database: String, extra: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: try #require(Fixtures.healthetl))
        process.arguments = ["mcp", "--db", database] + extra
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    func sendBytes(_ bytes: Data) { input.fileHandleForWriting.write(bytes) }

    /// The next line of stdout, parsed; fails the test when it is not JSON.
    func receive() throws -> JSON {
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = buffered[buffered.startIndex..<newline]
                buffered = Data(buffered[(newline + 1)...])
                return try JSONParser.parse(Array(line))
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw JSONError(.invalid, "stdout ended", line: 1, column: 1, offset: 0) }
            buffered.append(chunk)
        }
    }

    func request(_ id: Int, _ method: String, _ params: String = "{}") throws -> JSON {
        send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
        return try receive()
    }

    func initialize(version: String = "2025-11-25") throws -> JSON {
        let answer = try request(
            0, "initialize",
            #"{"protocolVersion":"\#(version)","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}"#)
        send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        return answer
    }

    /// Closes stdin and waits for the exit; returns the status, the rest of stdout and stderr.
    func finish() -> (status: Int32, rest: String, errors: String) {
        try? input.fileHandleForWriting.close()
        let rest = String(decoding: buffered + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, rest, errorText)
    }
}
