import HealthModel
import HealthSQLite
import HealthSchema

/// Rebuilds `data_types`: which types the database holds, in which table, with a name a person reads.
enum DataTypesTable {
    /// Sample tables are large, so their types are found by a skip scan of the (type, start_date, identity)
    /// index (one index lookup per type); the other tables are small enough for a plain DISTINCT.
    static let sources: [(table: String, column: String, kind: String?, indexed: Bool)] = [
        ("cumulative_samples", "type", "cumulative", true),
        ("discrete_samples", "type", "discrete", true),
        ("category_samples", "type", "category", true),
        ("correlations", "type", "correlation", false),
        ("workouts", "activity_type", "workout", false),
        // Workout statistics are quantities: their kind comes from the catalog.
        ("workout_statistics", "type", nil, false),
    ]

    /// The distinct types of a sample table, sorted: the names of `type_names` with a row in its compact
    /// table, one look-up of the (type_id, start_date, identity) index each.
    static func typesOfSampleTable(_ table: String) -> String {
        // swift-format-ignore: NeverForceUnwrap
        let stored = TrackedTable(name: table)!.storageName
        return """
            SELECT t.type FROM type_names AS t
            WHERE EXISTS (SELECT 1 FROM "\(stored)" AS r WHERE r.type_id = t.id) ORDER BY t.type
            """
    }

    static func rebuild(_ connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM data_types")
        // swift-format-ignore: NeverForceUnwrap
        let insert = try connection.prepare(Schema.tables.first { $0.name == "data_types" }!.insertSQL())
        for source in sources {
            let types =
                source.indexed
                ? typesOfSampleTable(source.table)
                : "SELECT DISTINCT \"\(source.column)\" FROM \"\(source.table)\" WHERE \"\(source.column)\" IS NOT NULL"
            // Types missing from the catalog are described by the unit of one of their rows.
            let hasUnits = source.indexed || source.table == "workout_statistics"
            let firstUnit =
                hasUnits
                ? try connection.prepare(
                    "SELECT unit FROM \"\(source.table)\" WHERE type = ?1 AND unit IS NOT NULL LIMIT 1") : nil
            for row in try connection.query(types) {
                guard let type = row[0].text else { continue }
                let info = TypeCatalog.quantityInfo(type)
                let kind = source.kind ?? (info.map { $0.style.isCumulative ? "cumulative" : "discrete" } ?? "discrete")
                var unit: String?
                if kind == "cumulative" || kind == "discrete" {
                    unit = info?.canonicalUnit
                    if unit == nil, let firstUnit { unit = try firstUnit.rows([.text(type)]).first?[0].text }
                }
                try insert.run([
                    .text(type), .text(DisplayNames.name(of: type)), .text(kind), unit.map { .text($0) } ?? .null,
                    .text(source.table),
                ])
            }
        }
    }
}
