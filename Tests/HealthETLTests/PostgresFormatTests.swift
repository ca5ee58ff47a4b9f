import Foundation
import Testing
@testable import HealthETL

/// The parts of the PostgreSQL sink that need no server: the COPY text format, the schema derived from
/// `Schema`, and the command line's checks.
struct PostgresFormatTests {
    /// Encodes one row with `CopyTextBuffer`, splits it again with `CopyFieldScanner`.
    func roundTrip(_ build: (inout CopyTextBuffer) -> Void) throws -> [[UInt8]?] {
        var buffer = CopyTextBuffer()
        build(&buffer)
        var fields: [[UInt8]?] = []
        var scanner = CopyFieldScanner()
        try buffer.withBytes { bytes in
            #expect(bytes.last == 10)
            try scanner.scan(UnsafeRawBufferPointer(rebasing: bytes.dropLast())) { fields.append($0.map { Array($0) }) }
        }
        return fields
    }

    @Test func textSurvivesTheCopyFormat() throws {
        let texts = ["", "plain", "tab\there", "two\nlines", "cr\r\n", "back\\slash", "\\N", "ünïcödé ❤️", "\\", "end\\"]
        let fields = try roundTrip { buffer in
            for text in texts { buffer.appendText(text) }
            buffer.appendNull()
            buffer.endRow()
        }
        #expect(fields.count == texts.count + 1)
        for (text, field) in zip(texts, fields) { #expect(field.map { String(decoding: $0, as: UTF8.self) } == text) }
        #expect(fields.last! == nil)
    }

    @Test func numbersAreWrittenExactly() throws {
        let integers: [Int64] = [0, 1, -1, 9, 10, 99, 100, 1_234_567_890_123, .max, .min]
        let doubles: [Double] = [0, -0.0, 1, 0.1, 1e-300, 5e-324, 1.7976931348623157e308, 123_456.789, -2.5e-7]
        let fields = try roundTrip { buffer in
            for value in integers { buffer.append(value) }
            for value in doubles { buffer.append(value) }
            buffer.endRow()
        }
        let texts = fields.map { String(decoding: $0!, as: UTF8.self) }
        #expect(texts.prefix(integers.count).map { Int64($0) } == integers.map { $0 })
        #expect(texts.prefix(integers.count).elementsEqual(integers.map { String($0) }))
        for (text, value) in zip(texts.dropFirst(integers.count), doubles) {
            #expect(Double(text)?.bitPattern == value.bitPattern, "\(text)")
        }
    }

    @Test func byteaIsHexAndReadsBack() throws {
        let bytes: [UInt8] = [0, 1, 9, 10, 92, 127, 128, 255]
        let fields = try roundTrip { buffer in
            bytes.withUnsafeBytes { buffer.appendBytea($0) }
            buffer.endRow()
        }
        #expect(fields.first! == Array("\\x0001090a5c7f80ff".utf8))
        #expect(CopyText.byteaBytes(fields.first!!) == bytes)
        #expect(CopyText.byteaBytes(Array("\\x0".utf8)) == nil)
        #expect(CopyText.byteaBytes(Array("\\xzz".utf8)) == nil)
    }

    @Test func everyTableIsKeyedByPerson() {
        #expect(PostgresSchema.tables.count == Schema.tables.count)
        for table in PostgresSchema.tables {
            let sql = table.createSQL
            #expect(sql.contains("(\n    person TEXT NOT NULL,"), "\(table.table.name)")
            #expect(sql.contains("PRIMARY KEY (person, \(table.key))"), "\(table.table.name)")
            #expect(!sql.contains("REFERENCES"), "\(table.table.name)")
            #expect(sql.contains("row_key BIGINT NOT NULL") == !table.hasOwnKey)
        }
        let samples = PostgresSchema.tables.first { $0.table.name == "cumulative_samples" }!
        #expect(samples.createSQL.contains("UNIQUE (person, type, start_date, identity)"))
        #expect(samples.createSQL.contains("\"value\" DOUBLE PRECISION,"))
        let anchors = PostgresSchema.tables.first { $0.table.name == "anchors" }!
        #expect(anchors.key == "row_key")
        #expect(anchors.createSQL.contains("UNIQUE (person, \"type\")"))
        #expect(PostgresSchema.declaration("INTEGER NOT NULL REFERENCES sources(id)") == "BIGINT NOT NULL")
        #expect(PostgresSchema.declaration("INTEGER NOT NULL DEFAULT 0") == "BIGINT NOT NULL DEFAULT 0")
        #expect(PostgresSchema.declaration("BLOB") == "BYTEA")
        #expect(PostgresSchema.indexes.allSatisfy { $0.contains("ON healthetl.") && $0.contains("(person, ") })
        #expect(!PostgresSchema.indexes.contains { $0.contains("workouts_identity") })
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
        let export = directory.write("export.xml", ToolTests.oneRecordExport)
        let result = runTool([
            "import", export, "--person", "p7", "--postgres", "postgresql://someone:s3cret@127.0.0.1:1/health",
        ])
        #expect(result.code == 69)
        #expect(result.err.contains("PostgreSQL person p7: error: cannot connect to PostgreSQL"))
        #expect(!result.err.contains("s3cret"))
        #expect(result.err.split(separator: "\n").count == 1)
    }
}
