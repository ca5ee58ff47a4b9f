import HealthParquet
import HealthSchema

/// One relation of the lake: a public table or view of the schema, its columns with the Parquet type each is
/// written as, derived from the schema's description so that a table added to the schema is published too.
package struct LakeRelation: Sendable {
    package var name: String
    package var columns: [ParquetColumn]

    /// The relations a person reads: the public tables and the views, without what the lake leaves to the
    /// database (`leftOut`).
    package static var all: [LakeRelation] {
        let tables = Schema.publicTables.filter { !leftOut.contains($0.name) }
        let viewNames = Set(tables.map(\.name))
        let views = Schema.viewDescriptions.filter { !viewNames.contains($0.name) && !leftOut.contains($0.name) }
        return tables.map { table in
            LakeRelation(name: table.name, columns: table.columns.map { Self.column($0, in: table.name) })
        }
            + views.map { view in
                LakeRelation(name: view.name, columns: view.columns.map { Self.column($0, in: view.name) })
            }
    }

    /// What the lake does not publish: the database's own bookkeeping (the import runs, their warnings and
    /// changes, the anchors and the settings: how the database is kept, not what it holds), the rows deleted by
    /// re-imports (a history), the side documents (files up to hundreds of megabytes each, kept whole), and
    /// `all_quantity_samples`, a view that is `cumulative_samples` and `discrete_samples` again, row for row
    /// (a third of the lake for nothing a reader cannot get from both folders).
    package static let leftOut: Set<String> = [
        "import_runs", "import_warnings", "import_run_changes", "anchors", "settings", "deleted_samples", "documents",
        "all_quantity_samples",
    ]

    /// The SELECT of the relation's columns, in the schema's order and the relation's stored order. A view of a
    /// compact table is read through its own definition written in `instantDialect`, so that the instants it
    /// stores as integers arrive as integers, not as text to be parsed again.
    package var selectSQL: String {
        let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        guard let select = compactSelect else { return "SELECT \(names) FROM \"\(name)\"" }
        return "SELECT \(names) FROM (\(select))"
    }

    /// The SELECT of the compact table's view in `instantDialect`; nil for the other relations.
    var compactSelect: String? {
        guard Schema.compactTables.contains(where: { $0.publicName == name }),
            let view = Schema.viewDescriptions.first(where: { $0.name == name })
        else { return nil }
        let definition = view.sql(in: Self.instantDialect)
        guard let start = definition.range(of: " AS\n") else { return nil }
        return String(definition[start.upperBound...])
    }

    /// Whether the relation's instants come as integer microseconds (`instantDialect`) rather than text.
    var instantsAsMicroseconds: Bool { compactSelect != nil }

    /// SQLite's views with the instants the compact tables keep as integers (seconds, centiseconds) written as
    /// microseconds since 1970: the TIMESTAMP's own value, where the public views format text. The UTC offset
    /// comes as its seconds too and `LakeTableWriter` writes the text (`+01:00`): SQLite's `printf` for it was
    /// half of SQLite's time reading a sample table (0.43 s of 0.87 s for 1.56 M rows, measured with sqlite3).
    static let instantDialect = ViewDialect(
        schema: "", person: false, instantText: { "(\($0) * 1000000)" }, centisecondText: { "(\($0) * 10000)" },
        offsetText: { $0 }, hoursBetween: ViewDialect.sqlite.hoursBetween, lookupsAsJoins: true)

    /// The column the view of a compact table gives as offset seconds for the writer to format (`instantDialect`).
    var offsetSecondsColumn: Int? {
        guard instantsAsMicroseconds else { return nil }
        return columns.firstIndex { $0.name == "utc_offset" && $0.kind == .string }
    }

    /// A table column's type from its declaration: INTEGER → INT64, REAL → DOUBLE, BLOB → bytes; TEXT is a
    /// calendar day (DATE), a UTC instant (TIMESTAMP µs) or a string, by the column's name and documentation,
    /// the rules the CSV export follows for instants.
    static func column(_ column: SchemaTable.Column, in relation: String) -> ParquetColumn {
        let declaration = column.declaration.uppercased()
        if declaration.hasPrefix("INTEGER") { return ParquetColumn(column.name, .integer) }
        if declaration.hasPrefix("REAL") { return ParquetColumn(column.name, .double) }
        if declaration.hasPrefix("BLOB") { return ParquetColumn(column.name, .binary) }
        return ParquetColumn(column.name, textKind(name: column.name, doc: column.doc))
    }

    /// A view column's type: a calendar day when its documentation says so, else the same as the public tables'
    /// column of that name, except for the columns the views compute (`computedViewColumns`); else by its
    /// documentation (an instant or text).
    static func column(_ column: SchemaView.Column, in relation: String) -> ParquetColumn {
        if let kind = computedViewColumns[column.name] { return ParquetColumn(column.name, kind) }
        let described = textKind(name: column.name, doc: column.doc)
        // A calendar day first: `daily_rollups.date` is not `workout_events.date`, an instant.
        if described == .date { return ParquetColumn(column.name, .date) }
        for table in Schema.publicTables {
            if let match = table.columns.first(where: { $0.name == column.name }) {
                return Self.column(match, in: table.name)
            }
        }
        return ParquetColumn(column.name, described)
    }

    /// Columns the views compute rather than select (HealthLakeTests check every view column's type against
    /// the values SQLite returns, so a new computed column cannot silently become text).
    static let computedViewColumns: [String: ParquetColumn.Kind] = [
        "hours": .double, "duration_min": .double, "distance_km": .double, "active_energy_kcal": .double,
        "avg_heart_rate": .double, "max_heart_rate": .double, "elevation_gain_m": .double,
        "indoor": .integer, "route_points": .integer, "workout_id": .integer,
    ]

    static func textKind(name: String, doc: String) -> ParquetColumn.Kind {
        let lowered = doc.lowercased()
        if name == "local_date" || lowered.contains("calendar day") || doc.contains("dateComponents") {
            return .date
        }
        if !name.contains("offset") && (name.hasSuffix("_date") || doc.contains("UTC")) { return .timestampMicrosUTC }
        return .string
    }
}

extension LakeRelation {
    /// The lake's relations and every column's type, as docs/lake.md lists them (a test keeps it current).
    package static var typesMarkdown: String {
        var lines = ["| relation | columns (Parquet type) |", "|---|---|"]
        for relation in all {
            let columns = relation.columns.map { "`\($0.name)` \($0.kind.typeName)" }
            lines.append("| `\(relation.name)` | " + columns.joined(separator: ", ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ParquetColumn.Kind {
    /// How docs/lake.md names the type.
    var typeName: String {
        switch self {
        case .integer: "INT64"
        case .double: "DOUBLE"
        case .string: "STRING"
        case .binary: "BINARY"
        case .date: "DATE"
        case .timestampMicrosUTC: "TIMESTAMP"
        }
    }
}
