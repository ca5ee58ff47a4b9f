import Foundation
import HealthSchema
import HealthTestSupport

@testable import HealthPostgres
@testable import HealthSQLite
@testable import HealthStore

/// A server of schema version 3, as healthetl wrote it before schema 4, holding the rows of current imports:
/// the DDL version 3 created (`Tests/Fixtures/postgres-schema-v3.sql`, frozen), each person's rows published
/// as version 3 published them, from a version-3 working copy (`Tests/Fixtures/schema-v3.sql`) filled from the
/// public tables of a current SQLite import.
enum PostgresVersion3 {
    static func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: Fixtures.repositoryRoot + "/Tests/Fixtures/" + name, encoding: .utf8)
    }

    /// A SQLite database of version 3 at `path` with the public rows of `database` (rowids in their order).
    static func makeSQLite(from database: String, at path: String) throws {
        let old = try SQLiteConnection(path: path)
        try old.execute(try fixture("schema-v3.sql"))
        try old.execute("ATTACH '\(database)' AS current")
        for row in try old.query("SELECT name FROM main.sqlite_master WHERE type = 'table'") {
            guard let table = row[0].text else { continue }
            let columns = try old.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap {
                $0[0].text
            }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            try old.execute("INSERT INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM current.\"\(table)\"")
        }
        try old.execute("DETACH current")
        try old.execute("PRAGMA user_version = 3")
    }

    /// Creates version 3's schema and publishes each person's version-3 database (person → path) into it, as
    /// version 3's `PostgresPublish` did: every column of every table (version 3's tables are today's public
    /// tables, column for column, less the feed's `origin`), `row_key` holding the rowid where a table has no `id`.
    static func makeServer(_ database: TestDatabase, people: [(person: String, path: String)]) throws {
        let connection = try database.connect()
        try connection.execute(try fixture("postgres-schema-v3.sql"))
        for (person, path) in people {
            let copy = try SQLiteConnection(path: path, create: false)
            try connection.execute("BEGIN")
            // `baselines` came with version 5.
            for var table in Schema.publicTables where !Schema.baselineTables.contains(where: { $0.name == table.name })
            {
                // Version 3 predates Health Auto Export's feed and its `origin` column.
                table.columns.removeAll { $0.name == FeedSchema.originColumn.name }
                let ownKey = table.columns.contains { $0.name == "id" && $0.declaration == "INTEGER PRIMARY KEY" }
                _ = try PostgresPublish.send(
                    PostgresSchema.Table(table: table, key: ownKey ? "id" : "row_key"), from: copy, where: nil,
                    to: connection, person: person)
            }
            try connection.execute("COMMIT")
        }
    }

    /// Every row of every table in schema healthetl, and every relation's kind: what "as it was" compares.
    static func serverState(_ connection: PostgresConnection) throws -> [String: [[String?]]] {
        let relations = try connection.query(
            """
            SELECT c.relname, c.relkind, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'healthetl' ORDER BY c.relname
            """)
        var state: [String: [[String?]]] = ["": relations.map { [$0[0], $0[1]] }]
        for relation in relations where relation[1] == "r" {
            guard let name = relation[0] else { continue }
            let width =
                Int(try connection.scalar("SELECT relnatts FROM pg_class WHERE oid = $1", [relation[2]]) ?? "") ?? 1
            let order = (1...width).map(String.init).joined(separator: ", ")
            state[name] = try connection.query("SELECT * FROM healthetl.\"\(name)\" ORDER BY \(order)")
        }
        return state
    }

    /// The shape of schema healthetl: relations with their kinds and columns, index definitions, view
    /// definitions. An upgraded schema has the shape of a new one.
    static func shape(_ connection: PostgresConnection) throws -> [[String?]] {
        try connection.query(
            """
            SELECT c.relname, c.relkind::text, a.attnum::text, a.attname::text, format_type(a.atttypid, a.atttypmod),
                   a.attnotnull::text
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE n.nspname = 'healthetl'
            UNION ALL SELECT indexname, 'index', NULL, NULL, indexdef, NULL FROM pg_indexes WHERE schemaname = 'healthetl'
            UNION ALL SELECT viewname, 'view', NULL, NULL, definition, NULL FROM pg_views WHERE schemaname = 'healthetl'
            ORDER BY 1, 2, 3
            """)
    }

    /// The person's public rows on the server (every public table and view), runs included.
    /// The public relations of version 3 (and 4): all but version 5's `baselines`, which an upgrade leaves
    /// empty until each person's next import computes it.
    static let relations = PublicRows.relations.filter { relation in
        !Schema.baselineTables.contains { $0.name == relation.name }
    }

    static func publicRows(_ connection: PostgresConnection, person: String) throws -> [String: [[Cell]]] {
        var rows: [String: [[Cell]]] = [:]
        // Version 3 predates the feed's `origin`; an upgraded row is an export's (0), checked by the tests.
        for (name, columns) in relations {
            rows[name] = try PublicRows.postgres(
                connection, person: person, name, columns.filter { $0 != FeedSchema.originColumn.name })
        }
        return rows
    }
}
