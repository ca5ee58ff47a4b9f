import HealthJSON
import HealthSQLite

/// What every tool reads through: the guarded database, the limits, and what is worth keeping between calls
/// (the metric catalog), kept only while the database is the same committed state.
package final class ToolContext {
    package let database: HealthDatabase
    private var cached: (key: CacheKey, catalog: MetricCatalog, periods: Set<String>)?

    /// The same file (`generation`) and no commit by another connection since (`PRAGMA data_version`).
    private struct CacheKey: Equatable {
        var generation: Int
        var dataVersion: Int64
    }

    package init(database: HealthDatabase) { self.database = database }

    package var limits: HealthDatabase.Limits { database.limits }

    /// The metrics of the committed state `connection` reads (inside `database.read`).
    package func catalog(_ connection: SQLiteConnection) throws -> MetricCatalog {
        try refresh(connection).catalog
    }

    /// The periods the rollups table holds (`settings.rollups`; default day, week, month).
    package func storedPeriods(_ connection: SQLiteConnection) throws -> Set<String> { try refresh(connection).periods }

    /// The IANA zone of the database's local dates (`settings.time_zone`); read each time (one row), so that
    /// `overview` does not pay for the catalog.
    package func timeZone(_ connection: SQLiteConnection) throws -> String? {
        try connection.scalar("SELECT value FROM settings WHERE key = 'time_zone'").text
    }

    private func refresh(_ connection: SQLiteConnection) throws -> (
        key: CacheKey, catalog: MetricCatalog, periods: Set<String>
    ) {
        let key = CacheKey(
            generation: database.generation, dataVersion: try connection.scalar("PRAGMA data_version").integer ?? 0)
        if let cached, cached.key == key { return cached }
        var periods: Set<String> = ["day", "week", "month"]
        if let options = try connection.scalar("SELECT value FROM settings WHERE key = 'rollups'").text,
            let parsed = try? JSONParser.parse(options), case .array(let list)? = parsed["periods"]
        {
            periods = Set(list.compactMap(\.stringValue))
        }
        let fresh = (key, try MetricCatalog.read(connection, periods: periods), periods)
        cached = fresh
        return fresh
    }
}

/// One tool's answer: the structured content (checked by clients against the tool's `outputSchema`) and a short
/// text rendering of the same answer for clients and models that read text.
package struct ToolAnswer {
    package var structured: JSON
    package var text: String
}

/// A tool as `tools/list` announces it and `tools/call` runs it.
package struct ToolDefinition: Sendable {
    package var name: String
    package var title: String
    package var description: String
    package var inputSchema: JSON
    package var outputSchema: JSON
    package var call: @Sendable (ToolContext, ToolArguments) throws -> ToolAnswer

    /// The argument names the input schema declares (any other is refused).
    package var argumentNames: [String] {
        guard case .object(let properties)? = inputSchema["properties"] else { return [] }
        return properties.map(\.0)
    }

    var listing: JSON {
        .object([
            ("name", .string(name)), ("title", .string(title)), ("description", .string(description)),
            ("inputSchema", inputSchema), ("outputSchema", outputSchema),
            (
                "annotations",
                [
                    "title": .string(title), "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true,
                    "openWorldHint": false,
                ]
            ),
        ])
    }
}
