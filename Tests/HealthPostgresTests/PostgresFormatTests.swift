import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthETL
@testable import HealthPostgres
@testable import HealthStore

/// The parts of the PostgreSQL sink that need no server: the COPY text format, the schema derived from
/// `Schema`, and the command line's checks.
struct PostgresFormatTests {
    enum Value: Equatable {
        case null, integer(Int64), real(Double), bytes([UInt8])
    }

    /// Writes rows with `CopyBinaryWriter` as one COPY stream, then reads them back with `CopyBinaryReader`,
    /// split into messages the way the server sends them (header with the first row, one row per message).
    func roundTrip(_ rows: [[Value]]) throws -> [[Value]] {
        var messages: [[UInt8]] = []
        var writer = CopyBinaryWriter()
        writer.appendHeader()
        for row in rows {
            writer.beginRow(fields: row.count)
            for value in row {
                switch value {
                case .null: writer.appendNull()
                case .integer(let number): writer.append(number)
                case .real(let number): writer.append(number)
                case .bytes(let bytes): bytes.withUnsafeBytes { writer.append(bytes: $0) }
                }
            }
            messages.append(Array(writer.bytes))
            writer.removeAll()
        }
        writer.appendTrailer()
        messages.append(Array(writer.bytes))

        var reader = CopyBinaryReader()
        var result: [[Value]] = []
        for (message, row) in zip(messages, rows + [[]]) {
            try message.withUnsafeBytes { bytes in
                try reader.read(bytes) { fields in
                    var values: [Value] = []
                    for expected in row {
                        let field = try fields.next()
                        switch (field, expected) {
                        case (nil, _): values.append(.null)
                        case (let field?, .integer): values.append(.integer(try CopyBinaryReader.Fields.int64(field)))
                        case (let field?, .real): values.append(.real(try CopyBinaryReader.Fields.double(field)))
                        case (let field?, _): values.append(.bytes(Array(field)))
                        }
                    }
                    result.append(values)
                }
            }
        }
        #expect(reader.finished)
        return result
    }

    @Test func valuesSurviveTheBinaryCopyFormat() throws {
        let texts = ["", "plain", "tab\there", "two\nlines", "back\\slash", "\\N", "ünïcödé ❤️"]
        let rows: [[Value]] = [
            texts.map { .bytes(Array($0.utf8)) } + [.null],
            [0, 1, -1, 255, 256, .max, .min].map { .integer($0) },
            [0, -0.0, 0.1, Double.leastNonzeroMagnitude, 1.7976931348623157e308, -2.5e-7, .infinity].map { .real($0) },
            [.bytes([0, 1, 9, 10, 92, 127, 128, 255]), .bytes([])],
        ]
        let read = try roundTrip(rows)
        #expect(read.count == rows.count)
        for (expected, actual) in zip(rows, read) {
            #expect(expected.count == actual.count)
            for (left, right) in zip(expected, actual) {
                if case .real(let a) = left, case .real(let b) = right {
                    #expect(a.bitPattern == b.bitPattern)  // exactly the same double, -0.0 included
                } else {
                    #expect(left == right)
                }
            }
        }
    }

    @Test func damagedCopyDataIsAnErrorNotACrash() throws {
        var reader = CopyBinaryReader()
        let garbage: [UInt8] = Array("COPY 1\n".utf8)
        #expect(throws: PostgresError.self) { try garbage.withUnsafeBytes { try reader.read($0) { _ in } } }
        var writer = CopyBinaryWriter()
        writer.appendHeader()
        writer.beginRow(fields: 2)
        writer.append(Int64(7))
        let cut = Array(writer.bytes).dropLast(3)
        var fresh = CopyBinaryReader()
        #expect(throws: PostgresError.self) {
            try cut.withUnsafeBytes { try fresh.read($0) { fields in _ = try fields.next() } }
        }
        #expect(throws: PostgresError.self) {
            try CopyBinaryReader.Fields.int64(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    @Test func everyTableIsKeyedByPerson() {
        #expect(PostgresSchema.tables.count == Schema.tables.count)
        for table in PostgresSchema.tables {
            let sql = table.createSQL
            #expect(sql.contains("(\n    person TEXT COLLATE \"C\" NOT NULL,"), "\(table.table.name)")
            #expect(sql.contains("PRIMARY KEY (person, \(table.key))"), "\(table.table.name)")
            #expect(!sql.contains("REFERENCES"), "\(table.table.name)")
            #expect(sql.contains("row_key BIGINT NOT NULL") == !table.hasOwnKey)
        }
        // The stored layer (schema 4): the compact tables and the dictionaries, each per person.
        #expect(PostgresSchema.tables.map(\.table.name) == Schema.tables.map(\.name))
        #expect(!PostgresSchema.tables.contains { $0.table.name == "cumulative_samples" })
        let samples = PostgresSchema.tables.first { $0.table.name == "cumulative_rows" }!
        #expect(samples.createSQL.contains("\"value\" DOUBLE PRECISION,"))
        #expect(samples.createSQL.contains("\"end_seconds\" BIGINT,"))
        #expect(samples.key == "id")
        for name in ["metadata_rows", "hrv_beat_rows", "route_point_rows", "anchors"] {
            #expect(PostgresSchema.tables.first { $0.table.name == name }?.key == "row_key", "\(name)")
        }
        for name in ["type_names", "metadata_keys", "parent_tables"] {
            let dictionary = PostgresSchema.tables.first { $0.table.name == name }
            #expect(dictionary?.key == "id", "\(name)")
            // SQLite's UNIQUE on the name is the working copy's to enforce (one btree per table here).
            #expect(dictionary?.createSQL.contains("UNIQUE") == false, "\(name)")
        }
        #expect(PostgresSchema.declaration("INTEGER NOT NULL REFERENCES sources(id)") == "BIGINT NOT NULL")
        #expect(PostgresSchema.declaration("INTEGER NOT NULL DEFAULT 0") == "BIGINT NOT NULL DEFAULT 0")
        #expect(PostgresSchema.declaration("BLOB") == "BYTEA")
        #expect(
            PostgresSchema.indexes.allSatisfy { $0.contains("ON healthetl.") && $0.contains("USING brin (person, ") })
        for table in ["cumulative_rows", "discrete_rows", "category_rows"] {
            #expect(
                PostgresSchema.indexes.contains { $0.contains("\(table) USING brin (person, type_id, start_date)") })
        }
        #expect(
            PostgresSchema.indexes.contains {
                $0.contains("metadata_rows USING brin (person, parent_table_id, parent_id)")
            })
        #expect(!PostgresSchema.indexes.contains { $0.contains("workouts_identity") })
        // The views: SQLite's names, in schema healthetl, reading only healthetl's relations (the six compact
        // ones and those on top of them), and no SQLite-only function left. PostgresViewTests runs them.
        #expect(PostgresSchema.views.count == Schema.viewDescriptions.count)
        for (view, description) in zip(PostgresSchema.views, Schema.viewDescriptions) {
            #expect(view.hasPrefix("CREATE VIEW healthetl.\(description.name) AS"))
            let read = view.replacingOccurrences(of: "extract(epoch FROM", with: "").components(separatedBy: "FROM ")
                .dropFirst().map { $0.prefix(10) }
            #expect(!read.isEmpty && read.allSatisfy { $0 == "healthetl." }, "\(description.name)")
            for sqliteOnly in ["strftime", "printf", "unixepoch", "julianday"] {
                #expect(!view.contains(sqliteOnly), "\(description.name): \(sqliteOnly)")
            }
        }
    }

    func runTool(_ arguments: [String]) -> (code: Int32, err: String) {
        final class Errors: @unchecked Sendable { var text = "" }
        let errors = Errors()
        let tool = Tool(standardOutput: { _ in }, standardError: { errors.text += $0 }, errorIsTerminal: false)
        return (tool.run(arguments), errors.text)
    }

    @Test func theCommandLineChecksThePostgresOptions() {
        #expect(runTool(["import", "x.zip", "--postgres", "postgresql://h/db"]).err.contains("needs '--person <id>'"))
        #expect(runTool(["import", "x.zip", "--person", "p", "--db", "a.sqlite"]).code == 64)
        #expect(runTool(["import", "x.zip", "--person", " "]).code == 64)
        #expect(runTool(["import", "x.zip", "--person", "a\nb"]).code == 64)
    }

    /// No server on the port: exit 69 with one line naming the person, and never the password.
    @Test func anUnreachableServerIsOneLineWithoutThePassword() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", oneRecordExportXML)
        let result = runTool([
            "import", export, "--person", "p7", "--postgres", "postgresql://someone:s3cret@127.0.0.1:1/health",
        ])
        #expect(result.code == 69)
        #expect(result.err.contains("PostgreSQL person p7: error: cannot connect to PostgreSQL"))
        #expect(!result.err.contains("s3cret"))
        #expect(result.err.split(separator: "\n").count == 1)

        // A string libpq cannot parse is quoted in its message: exit 64, and the quoted part left out.
        for malformed in ["postgresql://etl:s3cret@[::1/db", "postgresql://etl:s3cr%zzet@h/db"] {
            let parsed = runTool(["import", export, "--person", "p7", "--postgres", malformed])
            #expect(parsed.code == 64)
            #expect(parsed.err.contains("the PostgreSQL connection string cannot be read"))
            #expect(!parsed.err.contains("s3cr"))
        }
    }
}
