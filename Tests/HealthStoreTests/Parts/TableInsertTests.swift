import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

/// `TableInsert`, `MultiRowInsert` and `SchemaStatements`: the INSERTs of the schema's tables, bound by column
/// name; a name the table does not have is refused when the writer is made.
struct TableInsertTests {
    @Test func aRowBoundByNameLeavesTheOtherColumnsNull() throws {
        let rig = try WriterRig()
        let insert = try TableInsert(rig.connection, table: "workout_events")
        try insert.run(["type": .text("HKWorkoutEventTypePause"), "id": .integer(4), "workout_id": .integer(2)])
        try insert.run(columns: [
            ("id", .integer(5)), ("workout_id", .integer(2)), ("type", .text("Lap")), ("duration", .real(1.5)),
        ])
        #expect(
            try rig.rows("SELECT id, workout_id, type, date, duration FROM workout_events ORDER BY id") == [
                ["4", "2", "HKWorkoutEventTypePause", "nil", "nil"], ["5", "2", "Lap", "nil", "1.5"],
            ])
    }

    @Test func unknownTablesAndColumnsAreRefused() throws {
        let rig = try WriterRig()
        #expect(throws: ImportError.self) { try TableInsert(rig.connection, table: "no_such_table") }
        let insert = try TableInsert(rig.connection, table: "me")
        #expect(throws: ImportError.self) { try insert.parameter("no_such_column") }
        #expect(throws: ImportError.self) { try insert.run(["no_such_column": .integer(1)]) }
        #expect(try insert.parameter("key") > 0)
        let rows = try MultiRowInsert(rig.connection, table: "metadata_rows", rowsPerStep: 4)
        #expect(throws: ImportError.self) { try rows.offset("no_such_column") }
    }

    /// The verb decides what a taken key does: `INSERT OR REPLACE` keeps the second row, `INSERT` fails.
    @Test func theVerbDecidesWhatATakenKeyDoes() throws {
        let rig = try WriterRig()
        let replace = try TableInsert(rig.connection, table: "me", verb: "INSERT OR REPLACE")
        try replace.run(["key": .text("HKCharacteristicTypeIdentifierBloodType"), "value": .text("A+")])
        try replace.run(["key": .text("HKCharacteristicTypeIdentifierBloodType"), "value": .text("0-")])
        #expect(try rig.rows("SELECT key, value FROM me") == [["HKCharacteristicTypeIdentifierBloodType", "0-"]])
        let insert = try TableInsert(rig.connection, table: "me")
        #expect(throws: SQLiteError.self) {
            try insert.run(["key": .text("HKCharacteristicTypeIdentifierBloodType"), "value": .text("B+")])
        }
    }

    /// Ten rows at four a step: two wide steps and two single ones, inserted in order, as ten one-row INSERTs.
    @Test func manyRowsAreInsertedInOrderWhateverTheirGrouping() throws {
        let rig = try WriterRig()
        let rows = try MultiRowInsert(rig.connection, table: "metadata_rows", rowsPerStep: 4)
        let parent = try rows.offset("parent_id")
        let value = try rows.offset("value")
        let table = try rows.offset("parent_table_id")
        let key = try rows.offset("key_id")
        for count in [10, 0, 3] {
            try rows.insert(count: count) { statement, first, row in
                statement.bind(first + table, Int64(1))
                statement.bind(first + key, Int64(1))
                statement.bind(first + parent, Int64(count * 100 + row))
                statement.bind(first + value, "v\(row)")
            }
        }
        let first: [[String]] = (0..<10).map { row in [String(1000 + row), "v\(row)"] }
        let second: [[String]] = (0..<3).map { row in [String(300 + row), "v\(row)"] }
        let expected = first + second
        #expect(try rig.rows("SELECT parent_id, value FROM metadata_rows ORDER BY rowid") == expected)
    }

    /// The statements of the tables of few rows, each on its table; `me`, `documents` and `sync_identifiers`
    /// replace a row whose key is taken.
    @Test func schemaStatementsNameTheirTables() throws {
        let rig = try WriterRig()
        let statements = rig.statements
        let tables = [
            statements.correlation, statements.correlationSample, statements.workout, statements.event,
            statements.activity, statements.statistic, statements.route, statements.summary, statements.ecg,
            statements.clinical, statements.audiogram, statements.audiogramPoint, statements.vision, statements.me,
            statements.document, statements.stateOfMind, statements.syncStore,
        ].map(\.table.name)
        #expect(
            tables == [
                "correlations", "correlation_samples", "workouts", "workout_events", "workout_activities",
                "workout_statistics", "workout_routes", "activity_summaries", "ecg_recordings", "clinical_records",
                "audiograms", "audiogram_points", "vision_prescriptions", "me", "documents", "state_of_mind",
                "sync_identifiers",
            ])
        for (name, content) in [("a.xml", "1"), ("a.xml", "2")] {
            try statements.document.run(["name": .text(name), "content": .blob(Array(content.utf8))])
        }
        #expect(try rig.rows("SELECT name, CAST(content AS TEXT) FROM documents") == [["a.xml", "2"]])
    }
}
