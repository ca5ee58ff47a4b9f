/// A view of the public schema, described once like `SchemaTable`: the DDL (SQLite's and PostgreSQL's),
/// docs/schema.md and the Datasette metadata all come from here.
public struct SchemaView: Sendable {
    public struct Column: Sendable {
        public var name: String
        public var doc: String
    }

    public var name: String
    public var doc: String
    /// The view's columns, in the order of its SELECT (a test checks them against the view).
    public var columns: [Column]
    /// `CREATE VIEW name AS …` in a dialect.
    private var make: @Sendable (ViewDialect) -> String

    package init(name: String, doc: String, columns: [Column], sql: @escaping @Sendable (ViewDialect) -> String) {
        self.name = name
        self.doc = doc
        self.columns = columns
        make = sql
    }

    /// `CREATE VIEW name AS …` for SQLite.
    public var sql: String { make(.sqlite) }

    /// `CREATE VIEW …` for another dialect (PostgreSQL's shows `person` first).
    package func sql(in dialect: ViewDialect) -> String { make(dialect) }

    public var columnNames: [String] { columns.map(\.name) }
}

/// Column shorthand for views.
func viewColumn(_ name: String, _ doc: String) -> SchemaView.Column {
    SchemaView.Column(name: name, doc: doc)
}
