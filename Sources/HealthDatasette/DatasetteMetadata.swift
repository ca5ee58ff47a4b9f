import Foundation
import Glibc
import HealthModel
import HealthSQLite
import HealthSchema

/// Datasette's `metadata.json` for a healthetl database, generated from `Schema` (the one description of the
/// tables and views): a title and description for every table, view and column, units where a column has a
/// fixed one, and the canned queries of `DatasetteQueries.swift`. Written for Datasette 0.6x, which
/// `pip install datasette` gives (its `--metadata` file; Datasette 1.0 reads the same keys from it).
public enum DatasetteMetadata {
    /// Columns whose unit never changes, in the unit names Datasette's unit library (Pint) reads. Sample
    /// values are left out: their unit is per type (`unit` column), and `--raw-units` keeps exported units.
    static let units: [String: [String: String]] = [
        "workout_overview": [
            "duration_min": "min", "distance_km": "km", "active_energy_kcal": "kcal", "elevation_gain_m": "m",
        ],
        "route_points": [
            "elevation": "m", "speed": "m/s", "course": "degree", "horizontal_accuracy": "m", "vertical_accuracy": "m",
        ],
    ]

    /// Datasette names a database after its file without the extension (`health.sqlite` → `health`).
    public static func databaseName(ofPath path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The metadata as a JSON-ready dictionary.
    public static func metadata(databaseName: String) -> [String: Any] {
        var tables: [String: Any] = [:]
        for table in Schema.tables {
            tables[table.name] = entry(
                name: table.name, doc: table.doc, columns: table.columns.map { ($0.name, $0.doc) })
        }
        for view in Schema.viewDescriptions {
            tables[view.name] = entry(name: view.name, doc: view.doc, columns: view.columns.map { ($0.name, $0.doc) })
        }
        return [
            "title": "Health data",
            "description_html": html(
                "Imported by healthetl from the Health app's export. Instants are UTC (`start_date`); "
                    + "`local_date` is the day where it happened. `data_types` names every type; the canned queries "
                    + "below answer the common questions from the database's own rollups."),
            "databases": [
                databaseName: [
                    "description_html": html(
                        "Schema version \(Schema.userVersion): every table and column is described on its page."),
                    "tables": tables,
                    "queries": cannedQueries(queries),
                ] as [String: Any]
            ],
        ]
    }

    static func cannedQueries(_ list: [DatasetteQuery]) -> [String: Any] {
        var result: [String: Any] = [:]
        for query in list {
            result[query.name] = [
                "title": query.title, "description_html": html(query.description), "sql": query.sql,
            ]
        }
        return result
    }

    static func entry(name: String, doc: String, columns: [(String, String)]) -> [String: Any] {
        var described: [String: String] = [:]
        for (column, doc) in columns where !doc.isEmpty { described[column] = plain(doc) }
        var result: [String: Any] = [
            "title": name.prefix(1).uppercased() + name.dropFirst().replacingOccurrences(of: "_", with: " "),
            "description_html": html(doc),
            "columns": described,
        ]
        if let units = units[name] { result["units"] = units }
        return result
    }

    /// The schema's Markdown-ish text as HTML: escaped, with `code` spans.
    static func html(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        var result = ""
        var inCode = false
        for character in escaped {
            if character == "`" {
                result += inCode ? "</code>" : "<code>"
                inCode.toggle()
            } else {
                result.append(character)
            }
        }
        return inCode ? result + "</code>" : result
    }

    /// Column descriptions are shown as plain text: without the backticks.
    static func plain(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "") }

    public static func json(databaseName: String) throws -> Data {
        try JSONSerialization.data(
            withJSONObject: metadata(databaseName: databaseName),
            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// Checks that `databasePath` is a healthetl database of this version (every canned query is prepared
    /// against it), then writes the metadata to `outputPath` (owner-only, replaced atomically).
    public static func write(databasePath: String, to outputPath: String) throws {
        let connection = try StoredDatabase.openForReading(databasePath)
        try StoredDatabase.read(databasePath) {
            for query in queries { _ = try connection.prepare(query.sql) }
        }
        try AtomicFile.write(Array(try json(databaseName: databaseName(ofPath: databasePath))), to: outputPath)
    }
}
