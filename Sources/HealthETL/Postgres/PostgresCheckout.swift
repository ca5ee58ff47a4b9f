import Foundation

/// Copies one person's rows out of PostgreSQL into a new SQLite working copy with the same schema, keeping
/// every row's key (`id`, or the rowid kept in `row_key`), then installs triggers that log which rows the
/// import changes, so that only those are published back.
enum PostgresCheckout {
    /// The working copy's log of changed rows: (table, rowid). Filled by triggers, read by `PostgresPublish`.
    static let changeLog = "healthetl_changes"

    static func checkout(_ connection: PostgresConnection, person: String, into path: String) throws -> Int {
        let database = try SQLiteConnection(path: path)
        try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN")
        _ = try SQLiteSink.prepareSchema(database, isNew: true)
        let personLiteral = try connection.literal(person)
        var rows = 0
        for table in PostgresSchema.tables {
            let names = (table.hasOwnKey ? [] : ["rowid"]) + table.table.columnNames
            let types = (table.hasOwnKey ? [] : [PostgresSchema.SQLiteType.integer]) + table.columns.map(\.type)
            let insert = try database.prepare(
                "INSERT INTO \"\(table.table.name)\" (" + names.map { "\"\($0)\"" }.joined(separator: ", ")
                    + ") VALUES (" + (1...names.count).map { "?\($0)" }.joined(separator: ", ") + ")")
            var fields = CopyFieldScanner()
            try connection.copyOut(
                "COPY (SELECT \(table.storedColumnList) FROM \(table.qualifiedName) WHERE person = \(personLiteral)) "
                    + "TO STDOUT"
            ) { line in
                var index: Int32 = 0
                try fields.scan(line) { field in
                    index += 1
                    guard Int(index) <= types.count else {
                        throw PostgresError(message: "\(table.table.name): more columns than the schema has")
                    }
                    try bind(field, type: types[Int(index) - 1], to: insert, at: index)
                }
                guard Int(index) == types.count else {
                    throw PostgresError(message: "\(table.table.name): \(index) columns, expected \(types.count)")
                }
                try insert.run()
                rows += 1
            }
        }
        try installChangeLog(database)
        try database.execute("COMMIT")
        return rows
    }

    private static func bind(
        _ field: UnsafeRawBufferPointer?, type: PostgresSchema.SQLiteType, to statement: SQLiteStatement, at index: Int32
    ) throws {
        guard let field else { return statement.bindNull(index) }
        switch type {
        case .integer:
            guard let value = Int64(String(decoding: field, as: UTF8.self)) else {
                throw PostgresError(message: "not an integer: \(String(decoding: field, as: UTF8.self))")
            }
            statement.bind(index, value)
        case .real:
            // Swift's parser rounds correctly, so the double is the one that was published.
            guard let value = Double(String(decoding: field, as: UTF8.self)) else {
                throw PostgresError(message: "not a number: \(String(decoding: field, as: UTF8.self))")
            }
            statement.bind(index, value)
        case .text:
            statement.bind(index, bytes: Array(field), asBlob: false)
        case .blob:
            guard let bytes = CopyText.byteaBytes(Array(field)) else {
                throw PostgresError(message: "unreadable bytea value")
            }
            statement.bind(index, bytes: bytes, asBlob: true)
        }
    }

    /// Triggers on every table that record the rowid of each row inserted, updated or deleted. REPLACE
    /// conflicts delete rows too; `SQLiteTarget` turns on recursive triggers so those are logged as well.
    static func installChangeLog(_ database: SQLiteConnection) throws {
        try database.execute(
            "CREATE TABLE \(changeLog) (table_name TEXT NOT NULL, row_key INTEGER NOT NULL, "
                + "PRIMARY KEY (table_name, row_key)) WITHOUT ROWID")
        for table in Schema.tables {
            let log = "INSERT OR IGNORE INTO \(changeLog) VALUES ('\(table.name)', "
            try database.execute(
                """
                CREATE TRIGGER "\(changeLog)_\(table.name)_insert" AFTER INSERT ON "\(table.name)"
                    BEGIN \(log)NEW.rowid); END;
                CREATE TRIGGER "\(changeLog)_\(table.name)_update" AFTER UPDATE ON "\(table.name)"
                    BEGIN \(log)OLD.rowid); \(log)NEW.rowid); END;
                CREATE TRIGGER "\(changeLog)_\(table.name)_delete" AFTER DELETE ON "\(table.name)"
                    BEGIN \(log)OLD.rowid); END;
                """)
        }
    }
}

/// Splits a COPY text row into its fields without allocating for the usual field that has no backslash;
/// escaped fields are unescaped into a reused buffer.
struct CopyFieldScanner {
    private var unescaped: [UInt8] = []

    /// Calls `body` with each field's bytes (nil for `\N`), valid only during the call.
    mutating func scan(
        _ line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) throws -> Void
    ) throws {
        var start = 0
        while true {
            var end = start
            var escaped = false
            while end < line.count, line[end] != 9 {
                if line[end] == 92 {
                    escaped = true
                    end += 1
                }
                end += 1
            }
            end = min(end, line.count)
            let field = UnsafeRawBufferPointer(rebasing: line[start..<end])
            if field.count == 2, field[0] == 92, field[1] == 78 {
                try body(nil)
            } else if escaped {
                unescaped.removeAll(keepingCapacity: true)
                CopyText.unescape(field, into: &unescaped)
                try unescaped.withUnsafeBytes { try body($0) }
            } else {
                try body(field)
            }
            if end >= line.count { return }
            start = end + 1
        }
    }
}
