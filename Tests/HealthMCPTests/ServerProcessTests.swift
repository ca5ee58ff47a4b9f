import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP

/// The real `healthetl mcp` process spoken to line by line: the handshake's version negotiation, malformed input
/// answered without stopping, nothing but protocol on stdout, exit 0 at the end of stdin, and the one-line start
/// errors of a missing or foreign database.
@Suite(
    .enabled(
        if: Condition.healthetlExecutableBuilt, "healthetl is not built next to the tests (swift build --build-tests)"))
struct ServerProcessTests {
    @Test(arguments: [("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"), ("2024-11-05", "2025-11-25")])
    func negotiatesTheProtocolVersion(requested: String, expected: String) throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let server = try RawServer(database: try MCPFixtures.sampleDatabase(in: directory))
        let answer = try server.initialize(version: requested)
        #expect(answer["result"]?["protocolVersion"] == .string(expected))
        #expect(answer["result"]?["capabilities"]?["tools"] != nil)
        #expect(answer["result"]?["serverInfo"]?["name"] == "healthetl")
        #expect(try server.request(1, "ping")["result"] == .object([]))
        let end = server.finish()
        #expect(end.status == 0)
        #expect(end.rest.isEmpty)
    }

    @Test func badInputIsAnsweredAndTheServerKeepsServing() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let server = try RawServer(database: try MCPFixtures.sampleDatabase(in: directory))
        // Before initialize: only ping and initialize are served.
        #expect(try server.request(1, "tools/list")["error"]?["code"] == .integer(-32600))
        _ = try server.initialize()
        server.send("this is not JSON")
        #expect(try server.receive()["error"]?["code"] == .integer(-32700))
        server.send(#"{"jsonrpc":"2.0","id":2,"method":"tools/list""#)
        #expect(try server.receive()["error"]?["code"] == .integer(-32700))
        server.send(#"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#)
        #expect(try server.receive()["error"]?["code"] == .integer(-32600))
        #expect(try server.request(4, "no/such/method")["error"]?["code"] == .integer(-32601))
        #expect(try server.request(5, "tools/call", #"{"name":"nope"}"#)["error"]?["code"] == .integer(-32602))
        #expect(
            try server.request(6, "resources/read", #"{"uri":"healthetl://nothing"}"#)["error"]?["code"]
                == .integer(-32002))
        #expect(
            try server.request(7, "prompts/get", #"{"name":"sleep_report","arguments":{"start":"May"}}"#)["error"]?[
                "code"] == .integer(-32602))
        // Bytes that are not UTF-8, and a line longer than the limit.
        server.sendBytes(Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x0A]))
        #expect(try server.receive()["error"]?["code"] == .integer(-32700))
        server.sendBytes(Data(repeating: 0x20, count: MCPServer.maximumLineLength + 10) + Data([0x31, 0x0A]))
        #expect(try server.receive()["error"]?["code"] == .integer(-32700))
        // A tool error names the argument.
        let call = try server.request(
            8, "tools/call",
            #"{"name":"metric_series","arguments":{"metric":"StepCount","start":"2024-03-24","end":"yesterday","period":"day"}}"#
        )
        #expect(call["result"]?["isError"] == true)
        let text = call["result"]?["content"].flatMap { content -> String? in
            guard case .array(let blocks) = content else { return nil }
            return blocks.first?["text"]?.stringValue
        }
        #expect(text?.contains("Invalid argument 'end'") == true, "\(String(describing: text))")
        #expect(
            try server.request(9, "tools/call", #"{"name":"overview","arguments":{"bogus":1}}"#)["result"]?["isError"]
                == true)
        // Still serving: the answer to a good call, with the same id.
        let answer = try server.request(10, "tools/call", #"{"name":"overview"}"#)
        #expect(answer["id"] == .integer(10) && answer["result"]?["isError"] == false)
        let end = server.finish()
        #expect(end.status == 0)
        #expect(end.rest.isEmpty, "stdout after the last answer: \(end.rest.prefix(200))")
        #expect(end.errors.contains("healthetl mcp: serving"))
    }

    @Test func aMissingOrForeignDatabaseStopsItAtStart() throws {
        let directory = TemporaryDirectory("healthetl-mcp")
        defer { directory.remove() }
        let executable = try #require(Fixtures.healthetl)
        let missing = try MCPFixtures.run(executable, ["mcp", "--db", directory.file("none.sqlite")])
        #expect(missing.status == 64)
        #expect(
            missing.errors
                == "healthetl: \(directory.file("none.sqlite")): error: no database here (hint: run healthetl import first)\n"
        )
        let notes = directory.write("notes.sqlite", "just text\n")
        let foreign = try MCPFixtures.run(executable, ["mcp", "--db", notes])
        #expect(foreign.status == 65)
        #expect(foreign.errors.hasPrefix("healthetl: \(notes): ") && foreign.errors.split(separator: "\n").count == 1)
        let usage = try MCPFixtures.run(executable, ["mcp"])
        #expect(usage.status == 64 && usage.errors.contains("--db <path>"))
        let badTimeout = try MCPFixtures.run(executable, ["mcp", "--db", notes, "--timeout-ms", "0"])
        #expect(badTimeout.status == 64)
        // A budget past the hard cap (or too small for a summary) is a usage error naming the range.
        for budget in ["60001", "100", "lots"] {
            let badBudget = try MCPFixtures.run(executable, ["mcp", "--db", notes, "--answer-budget", budget])
            #expect(badBudget.status == 64 && badBudget.errors.contains("(2000 to 60000)"), "\(badBudget.errors)")
        }
    }
}
