import Foundation
import HealthSchema
import HealthTestSupport

@testable import HealthPostgres
@testable import HealthSQLite
@testable import HealthStore

/// A value of a row, comparable across SQLite and PostgreSQL: its kind and its exact value (a double by its
/// bits, so 0.1 and 0.1000000000000001 differ, and so do 0.0 and -0.0).
enum Cell: Comparable, CustomStringConvertible {
    case null, integer(Int64), real(Double), text(String), blob([UInt8])

    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }

    /// PostgreSQL's text form of a value of type `type` (`format_type`'s name).
    init(postgres text: String?, type: String) throws {
        guard let text else {
            self = .null
            return
        }
        switch type {
        case "bigint", "integer", "smallint":
            guard let number = Int64(text) else { throw PostgresError(message: "not an integer: \(text)") }
            self = .integer(number)
        case "double precision", "real", "numeric":
            // numeric: sum() of bigints is an integer of numeric type, as SQLite's is an integer.
            if type == "numeric", let number = Int64(text) {
                self = .integer(number)
            } else {
                guard let number = Double(text) else { throw PostgresError(message: "not a number: \(text)") }
                self = .real(number)
            }
        case "bytea":
            let hex = Array(text.utf8.dropFirst(2))
            self = .blob(
                stride(from: 0, to: hex.count, by: 2).map {
                    UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
                })
        default: self = .text(text)
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .integer: 1
        case .real: 2
        case .text: 3
        case .blob: 4
        }
    }

    static func == (left: Cell, right: Cell) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a == b
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

    static func < (left: Cell, right: Cell) -> Bool {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): a < b
        case (.real(let a), .real(let b)): a < b || (a == b && a.bitPattern < b.bitPattern)
        case (.text(let a), .text(let b)): Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        case (.blob(let a), .blob(let b)): a.lexicographicallyPrecedes(b)
        default: left.rank < right.rank
        }
    }

    var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)r"
        case .text(let text): "'\(text)'"
        case .blob(let bytes): "blob(\(bytes.count))"
        }
    }
}

/// The rows of the public tables and views, read from a SQLite database or from one person's rows in
/// PostgreSQL, to compare the two.
enum PublicRows {
    /// Every public table and view by name, with its columns: the six compact views among the tables, then the
    /// views on top of them.
    static let relations: [(name: String, columns: [String])] =
        Schema.publicTables.map { ($0.name, $0.columnNames) }
        + Schema.viewDescriptions.filter { view in !Schema.publicTables.contains { $0.name == view.name } }
        .map { ($0.name, $0.columnNames) }

    /// Columns the two back ends compute in ways that differ in the last digits, by design: SQLite's julianday
    /// (a double of days: within a millisecond) against PostgreSQL's exact interval, and avg() summing in
    /// another order. Compared to a millionth.
    static let approximate: [String: Set<String>] = ["sleep": ["hours"], "workout_overview": ["avg_heart_rate"]]

    /// The bookkeeping of runs differs by its times (when each ran), not by what the runs stored.
    static let runTables: Set = ["import_runs", "import_warnings", "import_run_changes"]

    static func sqlite(_ path: String, _ name: String, _ columns: [String]) throws -> [[Cell]] {
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        return try SQLiteConnection(path: path, create: false).query("SELECT \(list) FROM \"\(name)\"")
            .map { $0.map(Cell.init) }
    }

    static func postgres(_ connection: PostgresConnection, person: String, _ name: String, _ columns: [String])
        throws -> [[Cell]]
    {
        let types = Dictionary(
            uniqueKeysWithValues: try connection.query(
                """
                SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
                WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
                """, ["healthetl.\"\(name)\""]
            ).map { ($0[0] ?? "", $0[1] ?? "") })
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        return try connection.query("SELECT \(list) FROM healthetl.\"\(name)\" WHERE person = $1", [person]).map {
            row in
            try zip(row, columns).map { try Cell(postgres: $0, type: types[$1] ?? "?") }
        }
    }

    /// nil when `left` and `right` hold the same rows in any order, else what differs first.
    static func difference(_ name: String, _ columns: [String], _ left: [[Cell]], _ right: [[Cell]]) -> String? {
        let loose = Set(columns.indices.filter { approximate[name]?.contains(columns[$0]) == true })
        func key(_ row: [Cell]) -> [Cell] { row.enumerated().map { loose.contains($0.offset) ? .null : $0.element } }
        let sortedLeft = left.sorted { key($0).lexicographicallyPrecedes(key($1)) }
        let sortedRight = right.sorted { key($0).lexicographicallyPrecedes(key($1)) }
        guard sortedLeft.count == sortedRight.count else {
            return "\(name): \(left.count) rows against \(right.count)"
        }
        for (a, b) in zip(sortedLeft, sortedRight) {
            for (index, (x, y)) in zip(a, b).enumerated() where x != y {
                if loose.contains(index), case .real(let p) = x, case .real(let q) = y,
                    abs(p - q) <= 1e-6 * max(1, abs(p))
                {
                    continue
                }
                return "\(name).\(columns[index]): \(x) against \(y) in \(a) / \(b)"
            }
        }
        return nil
    }
}
