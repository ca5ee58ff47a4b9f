import Testing

@testable import HealthSQLite

/// A prepared statement on its own: each kind of value bound and read back, short text through the
/// per-parameter slots, stepping and resetting, and errors that name the SQL.
struct SQLiteStatementTests {
    static func memory() throws -> SQLiteConnection { try SQLiteConnection(path: ":memory:") }

    /// The value of each column of `SELECT ?1, ?2, …` and its SQLite type, as `typeof` names it.
    static func selected(_ statement: SQLiteStatement, count: Int32) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try statement.forEachRow { row in
            rows.append(
                (0..<count).map { column in
                    switch row.columnView(column) {
                    case .null: .null
                    case .integer(let value): .integer(value)
                    case .real(let value): .real(value)
                    case .text(let bytes): .text(String(decoding: bytes, as: UTF8.self))
                    case .blob(let bytes): .blob(Array(bytes))
                    }
                })
        }
        return rows
    }

    @Test func bindsEachKindOfValue() throws {
        let db = try Self.memory()
        try db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, v)")
        let insert = try db.prepare("INSERT INTO t (n, v) VALUES (?1, ?2)")
        let long = String(repeating: "long text ", count: 40)
        var number: Int64 = 0
        func insertRow(_ bindValue: (SQLiteStatement) -> Void) throws {
            number += 1
            insert.bind(1, number)
            bindValue(insert)
            try insert.run()
        }
        try insertRow { $0.bind(2, Int64.min) }
        try insertRow { $0.bind(2, 42 as Int) }
        try insertRow { $0.bind(2, -0.25 as Double?) }
        try insertRow { $0.bind(2, nil as Double?) }
        try insertRow { $0.bind(2, Double.nan as Double?) }  // no SQL value: NULL
        try insertRow { $0.bind(2, Double.infinity as Double?) }
        try insertRow { $0.bind(2, "kurz, 短い" as String?) }
        try insertRow { $0.bind(2, long as String?) }
        try insertRow { $0.bind(2, nil as String?) }
        try insertRow { $0.bind(2, "" as String?) }
        try insertRow { statement in
            let bytes: [UInt8] = Array("from a buffer".utf8)
            bytes.withUnsafeBufferPointer { statement.bindText(2, $0.baseAddress!, count: 4) }
        }
        try insertRow { statement in ([0, 1, 254, 255] as [UInt8]).withUnsafeBytes { statement.bindBlob(2, $0) } }
        try insertRow { $0.bindNull(2) }
        try insertRow { $0.bind(2, SQLiteValue.blob([7, 8])) }
        try insertRow { $0.bind(2, SQLiteValue.text("value")) }
        try insertRow { $0.bind(2, SQLiteValue.real(1e300)) }
        try insertRow { $0.bind(2, SQLiteValue.integer(-3)) }
        try insertRow { $0.bind(2, SQLiteValue.null) }
        try insertRow { $0.bind(2, bytes: UnsafeRawBufferPointer(start: nil, count: 0), asBlob: false) }
        try insertRow { $0.bind(2, bytes: UnsafeRawBufferPointer(start: nil, count: 0), asBlob: true) }
        try insertRow { statement in Array("raw".utf8).withUnsafeBytes { statement.bind(2, bytes: $0, asBlob: false) } }
        try insertRow { statement in Array("raw".utf8).withUnsafeBytes { statement.bind(2, bytes: $0, asBlob: true) } }

        let rows = try db.query("SELECT v, typeof(v) FROM t ORDER BY n")
        let expected: [[SQLiteValue]] = [
            [.integer(.min), .text("integer")], [.integer(42), .text("integer")], [.real(-0.25), .text("real")],
            [.null, .text("null")], [.null, .text("null")], [.null, .text("null")],
            [.text("kurz, 短い"), .text("text")], [.text(long), .text("text")], [.null, .text("null")],
            [.text(""), .text("text")], [.text("from"), .text("text")], [.blob([0, 1, 254, 255]), .text("blob")],
            [.null, .text("null")], [.blob([7, 8]), .text("blob")], [.text("value"), .text("text")],
            [.real(1e300), .text("real")], [.integer(-3), .text("integer")], [.null, .text("null")],
            [.text(""), .text("text")], [.blob([]), .text("blob")], [.text("raw"), .text("text")],
            [.blob(Array("raw".utf8)), .text("blob")],
        ]
        #expect(rows.count == expected.count)
        for (index, (row, want)) in zip(rows, expected).enumerated() { #expect(row == want, "row \(index + 1)") }
    }

    /// Short text goes through a slot of its parameter's own: rebinding one parameter leaves the others as
    /// they were, a shorter value leaves nothing of a longer one, and the caller's bytes may change as soon
    /// as the bind returns. 128 bytes fit a slot; 129 are copied by SQLite.
    @Test func shortTextIsCopiedIntoASlotPerParameter() throws {
        let db = try Self.memory()
        let select = try db.prepare("SELECT ?1, ?2, ?3")
        select.bind(1, "alpha" as String?)
        select.bind(2, "beta" as String?)
        select.bind(3, 3 as Int)
        #expect(try Self.selected(select, count: 3) == [[.text("alpha"), .text("beta"), .integer(3)]])

        select.bind(2, "gamma, longer than beta" as String?)
        #expect(
            try Self.selected(select, count: 3) == [[.text("alpha"), .text("gamma, longer than beta"), .integer(3)]])
        select.bind(2, "g" as String?)
        select.bind(1, "a" as String?)
        #expect(try Self.selected(select, count: 3) == [[.text("a"), .text("g"), .integer(3)]])

        // The caller's buffer changes after each bind: the statement keeps what was bound.
        var buffer = Array("first".utf8)
        buffer.withUnsafeBufferPointer { select.bindText(1, $0.baseAddress!, count: $0.count) }
        buffer.replaceSubrange(0..<5, with: Array("XXXXX".utf8))
        buffer.withUnsafeBufferPointer { select.bindText(2, $0.baseAddress!, count: 3) }
        buffer.replaceSubrange(0..<5, with: Array("YYYYY".utf8))
        #expect(try Self.selected(select, count: 3) == [[.text("first"), .text("XXX"), .integer(3)]])

        for length in [127, 128, 129, 1000] {
            let text = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "x" : "")
            #expect(text.utf8.count == length)
            select.bind(1, text as String?)
            select.bind(3, "after \(length)" as String?)
            #expect(try Self.selected(select, count: 3) == [[.text(text), .text("XXX"), .text("after \(length)")]])
        }
        // A text parameter beyond the statement's count binds nothing and does not write past the slots.
        select.bind(4, "out of range" as String?)
        #expect(try Self.selected(select, count: 3).count == 1)
    }

    @Test func runStepsAndResetsForTheNextRow() throws {
        let db = try Self.memory()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, at TEXT, x REAL)")
        let insert = try db.prepare("INSERT INTO t (id, name, at, x) VALUES (?1, ?2, ?3, ?4)")
        for id in 1...5 {
            insert.bind(1, id)
            insert.bind(2, "row \(id)" as String?)
            insert.bind(3, "2024-02-0\(id)T08:00:00Z" as String?)
            insert.bind(4, Double(id) / 2)
            try insert.run()
        }
        #expect(db.changes == 1)
        // run(_:) binds its arguments over the earlier bindings (a parameter it does not name keeps its value,
        // as SQLite keeps bindings across a reset), runs, and then clears every binding: the next run binds NULLs.
        try insert.run([.integer(6), .text("six")])
        try insert.run()
        let cleared = try db.query("SELECT id, name, at, x FROM t WHERE id >= 6")
        #expect(
            cleared == [
                [.integer(6), .text("six"), .text("2024-02-05T08:00:00Z"), .real(2.5)],
                [.integer(7), .null, .null, .null],
            ])

        let byName = try db.prepare("SELECT id FROM t WHERE name = ?1")
        byName.bind(1, "row 3" as String?)
        #expect(try byName.firstInteger() == 3)
        // Reset after each lookup: the same bound statement answers again, and again after a rebind.
        #expect(try byName.firstInteger() == 3)
        byName.bind(1, "nobody" as String?)
        #expect(try byName.firstInteger() == nil)

        let ids = try db.prepare("SELECT id FROM t WHERE id <= ?1 ORDER BY id")
        ids.bind(1, 4 as Int)
        #expect(try ids.integers() == [1, 2, 3, 4])
        var streamed: [Int64] = []
        try ids.forEachInteger { streamed.append($0) }
        #expect(streamed == [1, 2, 3, 4])

        // A body that throws part way: the statement is reset, and the next walk starts at the first row.
        struct Stop: Error {}
        let rows = try db.prepare("SELECT id, name, at, x FROM t WHERE id <= 5 ORDER BY id")
        #expect(throws: Stop.self) { try rows.forEachRow { if $0.integer(0) == 2 { throw Stop() } } }
        var seen: [String] = []
        try rows.forEachRow { row in
            seen.append(
                "\(row.integer(0)) \(row.text(1) ?? "-") \(row.utcSeconds(2) ?? -1) \(row.double(3)) \(row.isNull(3))")
        }
        #expect(
            seen == [
                "1 row 1 1706774400 0.5 false", "2 row 2 1706860800 1.0 false", "3 row 3 1706947200 1.5 false",
                "4 row 4 1707033600 2.0 false", "5 row 5 1707120000 2.5 false",
            ])
        #expect(rows.columnNames == ["id", "name", "at", "x"])
        #expect(try db.prepare("SELECT count(*) AS rows_in_t FROM t").columnNames == ["rows_in_t"])
        #expect(try rows.rows().count == 5)
    }

    @Test func errorsNameTheStatement() throws {
        let db = try Self.memory()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        let broken = "SELECT FROM WHERE"
        #expect {
            _ = try db.prepare(broken)
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.code == 1 && error.sql == broken && error.message.contains("syntax error")
                && error.description.contains("while executing `\(broken)`")
        }
        let insert = try db.prepare("INSERT INTO t (name) VALUES (?1)")
        try insert.run([.text("once")])
        // SQLITE_CONSTRAINT_UNIQUE (extended codes are on), then SQLITE_CONSTRAINT_NOTNULL.
        #expect {
            try insert.run([.text("once")])
        } throws: { error in
            let error = error as? SQLiteError
            return error?.code == 2067 && error?.sql == insert.sql && error?.message.contains("UNIQUE") == true
                && error?.isBusy == false
        }
        #expect {
            try insert.run([.null])
        } throws: { error in (error as? SQLiteError)?.code == 1299 }
        // A failed step leaves the statement reset and usable.
        try insert.run([.text("twice")])
        #expect(try db.query("SELECT name FROM t ORDER BY id") == [[.text("once")], [.text("twice")]])
        let lookup = try db.prepare("SELECT abs(?1)")
        lookup.bind(1, Int64.min)
        #expect(throws: SQLiteError.self) { _ = try lookup.firstInteger() }
        #expect(throws: SQLiteError.self) { _ = try lookup.integers() }
    }
}
