import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthPostgres
@testable import HealthSQLite
@testable import HealthStore

/// Schema 5 kept `baselines` as a table; schema 6 stores it compactly (`baseline_rows` by metric id, under a
/// view of the same name and columns). The first importer of this version moves every person's rows on the
/// server: the same rows, the same keys, each person's metrics numbered in the order they first appear, and a
/// schema that is what a new one would be.
@Suite(.needsPostgres)
struct PostgresBaselineUpgradeTests {
    /// A version 6 server's `baselines` turned back into version 5's table, as version 5 created it.
    static let toVersion5 = """
        CREATE TABLE healthetl.version5 AS
            SELECT b.person, b.row_key, b.date, m.type, m.column_name, b.value, b.n, b.mean, b.sd, b.median, b.mad,
                   b.z, b.n_365, b.percentile_365, b.n_90, b.slope_30d, b.slope_low, b.slope_high
            FROM healthetl.baseline_rows AS b
                JOIN healthetl.baseline_metrics AS m ON m.person = b.person AND m.id = b.metric_id;
        DROP VIEW healthetl.baselines;
        DROP TABLE healthetl.baseline_rows;
        DROP TABLE healthetl.baseline_metrics;
        CREATE TABLE healthetl."baselines" (
            person TEXT COLLATE "C" NOT NULL, row_key BIGINT NOT NULL, "date" TEXT NOT NULL, "type" TEXT NOT NULL,
            "column_name" TEXT NOT NULL, "value" DOUBLE PRECISION, "n" BIGINT NOT NULL, "mean" DOUBLE PRECISION,
            "sd" DOUBLE PRECISION, "median" DOUBLE PRECISION, "mad" DOUBLE PRECISION, "z" DOUBLE PRECISION,
            "n_365" BIGINT NOT NULL, "percentile_365" DOUBLE PRECISION, "n_90" BIGINT NOT NULL,
            "slope_30d" DOUBLE PRECISION, "slope_low" DOUBLE PRECISION, "slope_high" DOUBLE PRECISION,
            PRIMARY KEY (person, row_key));
        CREATE INDEX baselines_type ON healthetl.baselines USING brin (person, type, date);
        INSERT INTO healthetl.baselines SELECT * FROM healthetl.version5;
        DROP TABLE healthetl.version5;
        UPDATE healthetl.schema_info SET value = '5' WHERE key = 'schema_version'
        """

    static let keys = """
        SELECT b.row_key::text, m.column_name, b.date FROM healthetl.baseline_rows AS b
            JOIN healthetl.baseline_metrics AS m ON m.person = b.person AND m.id = b.metric_id
        WHERE b.person = $1 ORDER BY b.row_key
        """

    @Test func aVersion5ServerKeepsEveryPersonsBaselines() throws {
        let database = try TestPostgres.makeDatabase("upgrade from version 5")
        defer { database.drop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let people = [("eve", UInt64(31), 40, "+0100"), ("fay", UInt64(32), 25, "-0500")]
        var direct: [String: String] = [:]
        for (index, (person, seed, days, offset)) in people.enumerated() {
            let export = try PostgresImportTests.export(seed: seed, days: days, offset: offset, into: directory)
            direct[person] = directory.file("direct-\(index).sqlite")
            _ = try ImportJob(
                inputPath: export, databasePath: direct[person]!, timeZone: PostgresSchemaUpgradeTests.berlin
            ).run()
            try PostgresImportTests.importIntoPostgres(export, person: person, database)
        }
        let connection = try database.connect()
        // swift-format-ignore: NeverForceUnwrap
        let columns = PublicRows.relations.first { $0.name == "baselines" }!.columns
        var before: [String: [[Cell]]] = [:]
        var keys: [String: [[String?]]] = [:]
        for person in direct.keys {
            before[person] = try PublicRows.postgres(connection, person: person, "baselines", columns)
            keys[person] = try connection.query(Self.keys, [person])
            #expect(before[person]!.count > 100 && keys[person]!.count == before[person]!.count)
        }
        try connection.execute(Self.toVersion5)
        #expect(try PostgresSchemaUpgradeTests.version(connection) == "5")

        try PostgresSession.ensureSchema(connection)
        #expect(try PostgresSchemaUpgradeTests.version(connection) == String(Schema.userVersion))
        for person in direct.keys {
            let after = try PublicRows.postgres(connection, person: person, "baselines", columns)
            #expect(PublicRows.difference("baselines", columns, before[person]!, after) == nil, "\(person)")
            #expect(try connection.query(Self.keys, [person]) == keys[person]!, "\(person): row keys kept")
            // Metrics numbered from 1 in the order their rows first appear.
            let order = try connection.query(
                """
                SELECT metric_id::text FROM healthetl.baseline_rows WHERE person = $1
                GROUP BY metric_id ORDER BY min(row_key)
                """, [person])
            #expect(order.map { $0[0] } == (1...order.count).map { String($0) }, "\(person)")
        }
        let fresh = try TestPostgres.makeDatabase("a new version 6 schema")
        defer { fresh.drop() }
        let new = try fresh.connect()
        try PostgresSession.ensureSchema(new)
        #expect(try PostgresVersion3.shape(connection) == PostgresVersion3.shape(new))

        // The next export goes in as into a server that was always version 6.
        let later = try PostgresImportTests.export(seed: 31, days: 44, offset: "+0100", into: directory)
        _ = try ImportJob(inputPath: later, databasePath: direct["eve"]!, timeZone: nil).run()
        try PostgresImportTests.importIntoPostgres(later, person: "eve", database)
        let expected = try PublicRows.sqlite(direct["eve"]!, "baselines", columns)
        let server = try PublicRows.postgres(connection, person: "eve", "baselines", columns)
        #expect(PublicRows.difference("baselines", columns, expected, server) == nil, "after the next export")
    }
}
