import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthMCP
@testable import HealthSQLite

/// Runs `mcp_client.py` (the official MCP Python SDK) against `healthetl mcp` and reads what it printed.
enum MCPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The venv scripts/test makes (`scripts/python-venv .build/mcp-venv mcp==…`).
    static let venv = Fixtures.repositoryRoot + "/.build/mcp-venv"
    static let python = venv + "/bin/python3"
    static let script = Fixtures.repositoryRoot + "/Tests/HealthMCPTests/mcp_client.py"

    /// Whether the SDK is installed: its package folder is in the venv.
    static var isInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: python),
            let lib = try? FileManager.default.contentsOfDirectory(atPath: venv + "/lib")
        else { return false }
        return lib.contains {
            FileManager.default.fileExists(atPath: "\(venv)/lib/\($0)/site-packages/mcp/client/stdio.py")
        }
    }

    /// Runs the program over one session; the results, the handshake first. Killed after `limit` seconds.
    static func run(
        database: String, program: [JSON], in directory: TemporaryDirectory, serverArguments: [String] = [],
        limit: Double = 300
    ) throws -> [JSON] {
        let programPath = directory.write("program-\(UUID().uuidString).json", JSON.array(program).serialized)
        let executable = try #require(Fixtures.healthetl)
        let client = try ProcessRunner.run(
            python, [script, executable, database, programPath] + serverArguments, timeout: limit)
        guard client.status == 0, !client.timedOut, case .array(let results) = try? JSONParser.parse(client.output)
        else {
            let ending = client.timedOut ? "killed after \(Int(limit)) s" : "exit status \(client.status)"
            throw Failure("the SDK client failed (\(ending)): \(client.error.suffix(1_500))")
        }
        return results
    }

    static func series(_ metric: String, _ start: String, _ end: String, _ period: String, statistic: String? = nil)
        -> JSON
    {
        var arguments: [(String, JSON)] = [
            ("metric", .string(metric)), ("start", .string(start)), ("end", .string(end)), ("period", .string(period)),
        ]
        if let statistic { arguments.append(("statistic", .string(statistic))) }
        return ["call": "metric_series", "arguments": .object(arguments)]
    }

    /// A successful tool result's structured content (failing the test on a tool error).
    static func structured(_ result: JSON) throws -> JSON {
        guard result["is_error"] == false, let structured = result["structured"] else {
            throw Failure("expected an answer, got \(result.serialized.prefix(400))")
        }
        return structured
    }

    static func names(_ list: JSON) -> [String] { list.arrayValue.compactMap { $0["name"]?.stringValue } }

    struct Point {
        var label: String
        var value: Double?
    }

    /// The points of a `metric_series` answer: its rows `[label, value]` (periods with data only).
    static func points(_ result: JSON) throws -> [Point] {
        try structured(result)["points"]?.arrayValue.map {
            Point(label: $0.arrayValue.first?.stringValue ?? "", value: $0.arrayValue.dropFirst().first?.doubleValue)
        }
            ?? []
    }

    /// `value` at the precision the answers give a metric's numbers (docs/mcp.md, "Precision").
    static func rounded(_ value: Double?, unit: String?, statistic: String? = nil) -> Double? {
        Precision.rounding(unit: unit, statistic: statistic)(value)
    }

    /// label → value of one type's statistic in one period of the rollups table.
    static func rollups(_ db: SQLiteConnection, _ period: String, _ type: String, _ statistic: String) throws
        -> [String: Double]
    {
        let rows = try db.query(
            "SELECT label, value FROM rollups WHERE period = ? AND type = ? AND statistic = ?",
            [.text(period), .text(type), .text(statistic)])
        return Dictionary(
            uniqueKeysWithValues: rows.compactMap { row in double(row[1]).map { (row[0].text ?? "", $0) } })
    }

    static func double(_ value: SQLiteValue) -> Double? {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return nil
        }
    }

    /// Both absent, or equal to 1e-9 relative (daily.csv and JSON print shortest round-trip decimals).
    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    /// daily.csv of `healthetl export --csv`: date → column → value.
    static func dailyCSV(database: String, in directory: TemporaryDirectory) throws -> [String: [String: Double?]] {
        let folder = directory.file("csv")
        let result = try MCPFixtures.run(
            try #require(Fixtures.healthetl),
            ["export", "--db", database, "--csv", folder, "--no-tables", "--quiet"])
        try #require(result.status == 0, "\(result.errors)")
        let lines = try String(contentsOfFile: folder + "/daily.csv", encoding: .utf8)
            .split(whereSeparator: \.isNewline).map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
        let header = try #require(lines.first)
        var table: [String: [String: Double?]] = [:]
        for line in lines.dropFirst() {
            var row: [String: Double?] = [:]
            for (column, cell) in zip(header, line).dropFirst() { row[column] = Double(cell) }
            table[line[0]] = row
        }
        return table
    }
}

extension JSON {
    var arrayValue: [JSON] {
        if case .array(let values) = self { return values }
        return []
    }

    var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }
}
