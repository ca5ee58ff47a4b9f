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
        var personField = CopyTextBuffer()
        personField.appendText(person)
        for table in PostgresSchema.tables {
            let key = table.hasOwnKey ? [] : ["rowid"]
            var sql = "SELECT " + (key + table.table.columnNames.map { "\"\($0)\"" }).joined(separator: ", ")
                + " FROM \"\(table.table.name)\""
            if onlyChanges {
                sql += " WHERE rowid IN (SELECT row_key FROM \(PostgresCheckout.changeLog) WHERE table_name = "
                    + "'\(table.table.name)')"
            }
            let select = try database.prepare(sql)
            let columnCount = Int32(key.count + table.table.columns.count)
            var sent = 0
            try connection.copyIn("COPY \(table.qualifiedName) (person, \(table.storedColumnList)) FROM STDIN") {
                sender in
                try select.forEachRow { row in
                    try sender.withBuffer { buffer in
                        personField.withBytes { buffer.appendText($0) }
                        for column in 0..<columnCount { append(row.columnView(column), to: &buffer) }
                        buffer.endRow()
                    }
                    sent += 1
                }
            }
            counts.rowsSent += sent
        }
        return counts
    }

    private static func append(_ value: SQLiteColumnView, to buffer: inout CopyTextBuffer) {
        switch value {
        case .null: buffer.appendNull()
        case .integer(let number): buffer.append(number)
        case .real(let number): buffer.append(number)
        case .text(let bytes): buffer.appendText(bytes)
        case .blob(let bytes): buffer.appendBytea(bytes)
        }
    }

    /// Deletes, in PostgreSQL, the earlier version of every row the working copy's change log names.
    private static func deleteChangedRows(
        _ database: SQLiteConnection, _ connection: PostgresConnection, person: String
    ) throws -> Int {
        try connection.execute(
            "CREATE TEMPORARY TABLE healthetl_changed (table_name TEXT NOT NULL, row_key BIGINT NOT NULL) "
                + "ON COMMIT DROP")
        let changes = try database.prepare("SELECT table_name, row_key FROM \(PostgresCheckout.changeLog)")
        var count = 0
        try connection.copyIn("COPY healthetl_changed FROM STDIN") { sender in
            try changes.forEachRow { row in
                try sender.withBuffer { buffer in
                    append(row.columnView(0), to: &buffer)
                    append(row.columnView(1), to: &buffer)
                    buffer.endRow()
                }
                count += 1
            }
        }
        guard count > 0 else { return 0 }
        var deleted = 0
        for table in PostgresSchema.tables {
            let rows = try connection.query(
                "WITH gone AS (DELETE FROM \(table.qualifiedName) AS t USING healthetl_changed AS c "
                    + "WHERE t.person = $1 AND c.table_name = $2 AND t.\(table.key) = c.row_key RETURNING 1) "
                    + "SELECT count(*) FROM gone",
                [person, table.table.name])
            deleted += Int(rows.first?.first??.description ?? "0") ?? 0
        }
        return deleted
    }
}
