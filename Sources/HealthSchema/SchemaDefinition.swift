/// A table of the public schema, described once: the DDL, docs/schema.md and the tests all come from here.
public struct SchemaTable: Sendable {
    public struct Column: Sendable {
        public var name: String
        /// The SQLite declaration after the name (`TEXT NOT NULL`, `INTEGER PRIMARY KEY`).
        public var declaration: String
        public var doc: String
    }

    public var name: String
    public var doc: String
    public var columns: [Column]
    /// Extra clauses after the columns (foreign keys, uniqueness).
    public var constraints: [String] = []

    public var createSQL: String {
        let parts = columns.map { "\"\($0.name)\" \($0.declaration)" } + constraints
        return "CREATE TABLE \"\(name)\" (\n    " + parts.joined(separator: ",\n    ") + "\n)"
    }

    public var columnNames: [String] { columns.map(\.name) }

    /// `INSERT INTO t (a, b, c) VALUES (:a, :b, :c)`: every column, a parameter named after each, so that
    /// writers bind by column name (`TableInsert`), whatever the order of the columns.
    public func namedInsertSQL(_ verb: String = "INSERT") -> String {
        "\(verb) INTO \"\(name)\" (" + columnNames.map { "\"\($0)\"" }.joined(separator: ", ") + ") VALUES ("
            + columnNames.map { ":" + $0 }.joined(separator: ", ") + ")"
    }

    /// `INSERT INTO t (a, b, c) VALUES (?1, ?2, ?3)` for the given columns (all columns by default).
    public func insertSQL(_ names: [String]? = nil) -> String {
        let chosen = names ?? columnNames
        let placeholders = (1...chosen.count).map { "?\($0)" }.joined(separator: ", ")
        return "INSERT INTO \"\(name)\" (" + chosen.map { "\"\($0)\"" }.joined(separator: ", ") + ") VALUES ("
            + placeholders + ")"
    }
}

/// Column shorthand for the schema file.
package func column(_ name: String, _ declaration: String, _ doc: String) -> SchemaTable.Column {
    SchemaTable.Column(name: name, declaration: declaration, doc: doc)
}
