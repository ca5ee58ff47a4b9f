import Foundation
import HealthTestSupport
import Testing

@testable import HealthParquet

/// HealthParquet's edge cases read by pyarrow, DuckDB and polars: a string column whose dictionary outgrows
/// 1 MiB (the fall-back to PLAIN mid-chunk), many row groups, NULLs in runs and alone, extreme and special
/// numbers, empty and non-ASCII strings, dates and instants before 1970; the statistics as the readers see them.
@Suite(.needsLakeReaders) struct ParquetReaderTests {
    final class FileSink: ParquetByteSink {
        let handle: FileHandle
        init(_ path: String) throws {
            FileManager.default.createFile(atPath: path, contents: nil)
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        func write(_ bytes: UnsafeRawBufferPointer) throws { handle.write(Data(bytes)) }
    }

    static let rows = 150_000

    /// The value of each column in row `row` (nil: NULL), the same rule the Python side checks.
    static func text(_ row: Int) -> String? {
        row % 7 == 3 ? nil : "value-\(row * 7919 % 100_003)-é✓-a-longer-text-of-a-sample"
    }
    static func category(_ row: Int) -> String? { row % 1000 < 5 ? nil : ["", "a", "ü", "InBed"][row % 4] }
    static func integer(_ row: Int) -> Int64? {
        row == 1 ? Int64.min : row == 2 ? Int64.max : row % 11 == 0 ? nil : Int64(row) * 1_000_003
    }
    static func double(_ row: Int) -> Double? { row == 5 ? -0.0 : row % 13 == 0 ? nil : Double(row) / 7 - 3000 }

    @Test func edgeCasesReadBackInEveryReader() throws {
        let folder = TemporaryDirectory("healthetl-parquet")
        defer { folder.remove() }
        let path = folder.file("edge.parquet")
        let sink = try FileSink(path)
        let writer = try ParquetFileWriter(
            columns: [
                ParquetColumn("text", .string), ParquetColumn("category", .string), ParquetColumn("n", .integer),
                ParquetColumn("x", .double), ParquetColumn("day", .date), ParquetColumn("at", .timestampMicrosUTC),
            ], sink: sink, keyValueMetadata: [("k", "v")], createdBy: "healthetl tests", rowGroupByteLimit: 4 << 20)
        for row in 0..<Self.rows {
            if let text = Self.text(row) {
                Array(text.utf8).withUnsafeBytes { writer.append(0, bytes: $0) }
            } else {
                writer.appendNull(0)
            }
            if let category = Self.category(row) {
                Array(category.utf8).withUnsafeBytes { writer.append(1, bytes: $0) }
            } else {
                writer.appendNull(1)
            }
            if let integer = Self.integer(row) { writer.append(2, integer: integer) } else { writer.appendNull(2) }
            if let double = Self.double(row) { writer.append(3, double: double) } else { writer.appendNull(3) }
            writer.append(4, date: Int32(row - 30_000))
            writer.append(5, integer: Int64(row - 30_000) * 86_400_000_123)
            try writer.endRow()
        }
        try writer.finish()
        try sink.handle.close()

        let script = """
            import sys, datetime, duckdb, polars, pyarrow.parquet as pq
            path, rows = sys.argv[1], int(sys.argv[2])
            def text(r): return None if r % 7 == 3 else f"value-{r * 7919 % 100003}-é✓-a-longer-text-of-a-sample"
            def category(r): return None if r % 1000 < 5 else ["", "a", "ü", "InBed"][r % 4]
            def integer(r):
                return -2**63 if r == 1 else 2**63 - 1 if r == 2 else None if r % 11 == 0 else r * 1000003
            def double(r): return -0.0 if r == 5 else None if r % 13 == 0 else r / 7 - 3000
            epoch = datetime.date(1970, 1, 1)
            utc = datetime.timezone.utc
            table = pq.read_table(path)
            expected = {
                "text": [text(r) for r in range(rows)], "category": [category(r) for r in range(rows)],
                "n": [integer(r) for r in range(rows)], "x": [double(r) for r in range(rows)],
                "day": [epoch + datetime.timedelta(days=r - 30000) for r in range(rows)],
                "at": [datetime.datetime(1970, 1, 1, tzinfo=utc) + datetime.timedelta(microseconds=(r - 30000) * 86400000123)
                       for r in range(rows)],
            }
            for name, values in expected.items():
                got = table.column(name).to_pylist()
                for r, (a, b) in enumerate(zip(values, got)):
                    if a != b: sys.exit(f"{name} row {r}: expected {a!r}, read {b!r}")
            meta = pq.ParquetFile(path).metadata
            if meta.num_row_groups < 3: sys.exit(f"{meta.num_row_groups} row groups")
            if table.schema.metadata[b"k"] != b"v": sys.exit("key-value metadata")
            def encodings(c): return [set(meta.row_group(g).column(c).encodings) for g in range(meta.num_row_groups)]
            if all("RLE_DICTIONARY" in e for e in encodings(0)): sys.exit(f"text never fell back to PLAIN: {encodings(0)}")
            if not all("RLE_DICTIONARY" in e for e in encodings(1)): sys.exit(f"category not dictionary-encoded: {encodings(1)}")
            for g in range(meta.num_row_groups):
                for c in range(6):
                    stats = meta.row_group(g).column(c).statistics
                    column = table.column(c).slice(sum(meta.row_group(i).num_rows for i in range(g)), meta.row_group(g).num_rows)
                    present = [v for v in column.to_pylist() if v is not None]
                    if stats.null_count != column.null_count: sys.exit(f"null count {g} {c}")
                    if present and (stats.min != min(present) or stats.max != max(present)):
                        if not (c == 3 and stats.min == min(present)):
                            sys.exit(f"bounds {g} {c}: {stats.min} {stats.max} vs {min(present)} {max(present)}")
            duck = duckdb.sql(f"SELECT count(*), count(text), count(n), min(n), max(n), max(day) FROM read_parquet('{path}')").fetchall()[0]
            if duck[:5] != (rows, len([1 for r in range(rows) if text(r) is not None]),
                            len([1 for r in range(rows) if integer(r) is not None]), -2**63, 2**63 - 1):
                sys.exit(f"duckdb: {duck}")
            frame = polars.read_parquet(path)
            if frame["text"].to_list() != expected["text"] or frame["x"].to_list() != expected["x"]:
                sys.exit("polars differs")
            print("ok")
            """
        let run = try ProcessRunner.run(LakeFixtures.python, ["-c", script, path, String(Self.rows)], timeout: 300)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "ok\n")
    }
}
