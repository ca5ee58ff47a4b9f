import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthSchema
import HealthStore

/// Copies one person's rows out of PostgreSQL into a new SQLite working copy with the same schema, keeping
/// every row's key (`id`, or the rowid kept in `row_key`), then installs triggers that log which rows the
/// import changes, so that only those are published back.
enum PostgresCheckout {
    /// The working copy's log of changed rows: (table, rowid). Filled by triggers, read by `PostgresPublish`.
    static let changeLog = "healthetl_changes"

    /// Returns the number of rows copied. `only` limits the copy to some tables (the others stay empty).
    static func checkout(
        _ connection: PostgresConnection, person: String, into path: String, only: Set<String>? = nil
    ) throws -> Int {
        let database = try createWorkingCopy(path)
        // The indexes come after the rows: one sort each instead of millions of insertions.
        try database.execute("BEGIN")
        try Schema.createTables(database)
        let personLiteral = try connection.literal(person)
        var rows = 0
        for table in PostgresSchema.tables where only?.contains(table.table.name) ?? true {
            // A new database's dictionaries start with rows (`parent_tables`); the person's own, copied
            // next, are the server's and take their place.
            try database.execute("DELETE FROM \"\(table.table.name)\"")
            let names = (table.hasOwnKey ? [] : ["rowid"]) + table.table.columnNames
            let types = (table.hasOwnKey ? [] : [PostgresSchema.SQLiteType.integer]) + table.columns.map(\.type)
            let insert = try database.prepare(
                "INSERT INTO \"\(table.table.name)\" (" + names.map { "\"\($0)\"" }.joined(separator: ", ")
                    + ") VALUES (" + (1...names.count).map { "?\($0)" }.joined(separator: ", ") + ")")
            var reader = CopyBinaryReader()
            try connection.copyOut(
                "COPY (SELECT \(table.storedColumnList) FROM \(table.qualifiedName) WHERE person = \(personLiteral)) "
                    + "TO STDOUT (FORMAT binary)"
            ) { message in
                try reader.read(message) { fields in
                    guard fields.fieldsLeft == types.count else {
                        throw PostgresError(
                            message: "\(table.table.name): \(fields.fieldsLeft) columns, expected \(types.count)")
                    }
                    for (index, type) in types.enumerated() {
                        try bind(fields.next(), type: type, to: insert, at: Int32(index + 1))
                    }
                    try insert.run()
                    rows += 1
                }
            }
        }
        try Schema.createIndexes(database)
        try installChangeLog(database)
        try database.execute("COMMIT")
        return rows
    }

    /// A new SQLite file for a working copy: owner-only from its first byte (it is the person's health data),
    /// with a first import's page and cache sizes and no journal (a failed run throws it away).
    static func createWorkingCopy(_ path: String) throws -> SQLiteConnection {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw PostgresError(message: "cannot create the working copy \(path): \(SystemError.last)")
        }
        close(descriptor)
        let database = try SQLiteConnection(path: path)
        try database.execute(
            "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
        return database
    }

    private static func bind(
        _ field: UnsafeRawBufferPointer?, type: PostgresSchema.SQLiteType, to statement: SQLiteStatement,
        at index: Int32
    ) throws {
        guard let field else { return statement.bindNull(index) }
        switch type {
        case .integer: statement.bind(index, try CopyBinaryReader.Fields.int64(field))
        case .real: statement.bind(index, try CopyBinaryReader.Fields.double(field))
        case .text: statement.bind(index, bytes: field, asBlob: false)
        case .blob: statement.bind(index, bytes: field, asBlob: true)
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
