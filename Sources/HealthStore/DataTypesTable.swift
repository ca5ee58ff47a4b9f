import HealthModel
import HealthSQLite

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

    /// The distinct types of a sample table, sorted, by a skip scan of its (type, start_date, identity)
    /// index. A plain `SELECT DISTINCT type` reads every index entry until ANALYZE has run.
    static func typesOfSampleTable(_ table: String) -> String {
        """
        WITH RECURSIVE found(type) AS (
            SELECT min(type) FROM "\(table)"
            UNION ALL SELECT (SELECT min(type) FROM "\(table)" WHERE type > found.type)
            FROM found WHERE found.type IS NOT NULL)
        SELECT type FROM found WHERE type IS NOT NULL
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
