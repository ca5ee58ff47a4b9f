/// A view of the public schema, described once like `SchemaTable`: the DDL, docs/schema.md and the Datasette
/// metadata all come from here.
public struct SchemaView: Sendable {
    public struct Column: Sendable {
        public var name: String
        public var doc: String
    }

    public var name: String
    public var doc: String
    /// The view's columns, in the order of its SELECT (a test checks them against the view).
    public var columns: [Column]
    /// `CREATE VIEW name AS …`.
    public var sql: String

    public var columnNames: [String] { columns.map(\.name) }
}

/// Column shorthand for views.
func viewColumn(_ name: String, _ doc: String) -> SchemaView.Column {
    SchemaView.Column(name: name, doc: doc)
}
