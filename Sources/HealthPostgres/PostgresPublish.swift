import Glibc
import HealthModel
import HealthSQLite

/// Sends a person's SQLite working copy to PostgreSQL with `COPY … FROM STDIN`.
///
/// A first import sends every row. After a checkout only the rows the change log names are sent: their old
/// versions are deleted by key first, so inserted, updated and deleted rows all come out right.
enum PostgresPublish {
    struct Counts {
        var rowsSent = 0
        var rowsDeleted = 0
    }

    static func publish(
        from path: String, to connection: PostgresConnection, person: String, onlyChanges: Bool
    ) throws -> Counts {
        let database = try SQLiteConnection(path: path, create: false)
        var counts = Counts()
        if onlyChanges {
            counts.rowsDeleted = try deleteChangedRows(database, connection, person: person)
        }
        for table in PostgresSchema.tables {
            let changed =
                "rowid IN (SELECT row_key FROM \(PostgresCheckout.changeLog) WHERE table_name = '\(table.table.name)')"
            counts.rowsSent += try send(
                table, from: database, where: onlyChanges ? changed : nil, to: connection, person: person)
        }
        return counts
    }

    /// Copies the rows of one table (those matching `condition`, an SQL expression) to the server; returns
    /// how many.
    static func send(
        _ table: PostgresSchema.Table, from database: SQLiteConnection, where condition: String?,
        to connection: PostgresConnection, person: String
    ) throws -> Int {
        let key = table.hasOwnKey ? [] : ["rowid"]
        var sql =
            "SELECT " + (key + table.table.columnNames.map { "\"\($0)\"" }).joined(separator: ", ")
            + " FROM \"\(table.table.name)\""
        if let condition { sql += " WHERE " + condition }
        let select = try database.prepare(sql)
        let types = (table.hasOwnKey ? [] : [PostgresSchema.SQLiteType.integer]) + table.columns.map(\.type)
        let names = (table.hasOwnKey ? [] : ["row_key"]) + table.table.columnNames
        var sent = 0
        try connection.copyIn(
            "COPY \(table.qualifiedName) (person, \(table.storedColumnList)) FROM STDIN (FORMAT binary)"
        ) { sender in
            try select.forEachRow { row in
                try sender.withBuffer { buffer in
                    buffer.beginRow(fields: types.count + 1)
                    buffer.append(text: person)
                    for (column, type) in types.enumerated() {
                        try append(
                            row.columnView(Int32(column)), as: type, to: &buffer,
                            place: "\(table.table.name).\(names[column])")
                    }
                }
                sent += 1
            }
        }
        return sent
    }

    /// The tables the working copy's change log names.
    static func changedTables(in path: String) throws -> Set<String> {
        let database = try SQLiteConnection(path: path, create: false)
        let rows = try database.query("SELECT DISTINCT table_name FROM \(PostgresCheckout.changeLog)")
        return Set(rows.compactMap { $0.first?.text })
    }

    /// A value in the binary form of its PostgreSQL column's type. SQLite's affinities make the storage class
    /// match the declared type in practice; the other cases convert where that is exact and fail otherwise.
    private static func append(
        _ value: SQLiteColumnView, as type: PostgresSchema.SQLiteType, to buffer: inout CopyBinaryWriter, place: String
    ) throws {
        switch (value, type) {
        case (.null, _): buffer.appendNull()
        case (.integer(let number), .integer): buffer.append(number)
        case (.real(let number), .real): buffer.append(number)
        case (.integer(let number), .real): buffer.append(Double(number))
        case (.real(let number), .integer) where number.rounded() == number && abs(number) < 9e18:
            buffer.append(Int64(number))
        case (.text(let bytes), .text):
            // The readers keep U+0000 out of text; should one slip through, this names it instead of leaving
            // the server's "invalid byte sequence" (PostgreSQL text cannot hold it).
            if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
                throw ImportError(
                    .input, "\(place) holds text with a U+0000 character, which PostgreSQL cannot store",
                    hint: "import into SQLite, or report this to healthetl: the input's reader should have removed it")
            }
            buffer.append(bytes: bytes)
        case (.text(let bytes), .blob), (.blob(let bytes), .blob):
            buffer.append(bytes: bytes)
        case (.integer(let number), .text): buffer.append(text: String(number))
        case (.real(let number), .text): buffer.append(text: String(number))
        default:
            throw PostgresError(message: "\(place): a value of the working copy does not fit its type \(type.postgres)")
        }
    }

    /// Deletes, in PostgreSQL, the earlier version of every row the working copy's change log names.
    ///
    /// By key arrays (`key = ANY($2)`), table by table: whatever the planner knows about the tables, the worst
    /// plan is one pass over a table. A join with a table of the keys was planned as a nested loop over a
    /// sequential scan while a freshly loaded table had no statistics yet (minutes for 7 k keys).
    private static func deleteChangedRows(
        _ database: SQLiteConnection, _ connection: PostgresConnection, person: String
    ) throws -> Int {
        let keysOfTable = try database.prepare(
            "SELECT row_key FROM \(PostgresCheckout.changeLog) WHERE table_name = ?1 ORDER BY row_key")
        var deleted = 0
        for table in PostgresSchema.tables {
            keysOfTable.bind(1, table.table.name)
            let keys = try keysOfTable.integers()
            for start in stride(from: 0, to: keys.count, by: 50_000) {
                let chunk = keys[start..<min(start + 50_000, keys.count)]
                let array = "{" + chunk.map(String.init).joined(separator: ",") + "}"
                let gone = try connection.scalar(
                    "WITH gone AS (DELETE FROM \(table.qualifiedName) WHERE person = $1 AND \(table.key) = ANY($2::bigint[]) "
                        + "RETURNING 1) SELECT count(*) FROM gone",
                    [person, array])
                deleted += Int(gone ?? "") ?? 0
            }
        }
        return deleted
    }
}
