import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthCSV
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// Whole databases exported, then read back by Python's csv module, which shares no code with the writer.
struct CSVExportTests {
    @Test(
        .enabled(if: Condition.python3, "the independent reader: python3 is not on PATH"),
        arguments: [CSVDialect.standard, .excel])
    func everyCellReadsBackAsStoredInAnIndependentReader(dialect: CSVDialect) throws {
        let directory = TemporaryDirectory("csv-export")
        defer { directory.remove() }
        let database = try CSVTestSupport.makeDatabase(in: directory)
        let out = directory.file("out")
        let report = try CSVTableExporter.exportTables(databasePath: database, to: out, dialect: dialect)

        // Files, headers and row counts as the schema and the database say.
        let db = try SQLiteConnection(path: database, create: false)
        #expect(report.files.map(\.table) == Schema.publicTables.map(\.name))
        for file in report.files {
            #expect(
                file.rows == (try CSVTestSupport.count(db, "SELECT count(*) FROM \"\(file.table)\"")), "\(file.table)")
            #expect(
                file.bytes == (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int),
                "\(file.table)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == Schema.publicTables.map { $0.name + ".csv" }.sorted())

        let python = try #require(Fixtures.executable("python3"))
        let result = try ProcessRunner.run(
            python, [CSVTestSupport.checker, "csv", "--db", database, "--dir", out, "--dialect", dialect.name])
        let summary = try jsonObject(result.output)
        #expect(result.status == 0, "\(summary["errors"] ?? result.error)")
        let tables = summary["tables"] as? [String: [String: Int]] ?? [:]
        #expect(Set(tables.keys) == Set(Schema.publicTables.map(\.name)))
        for file in report.files { #expect(tables[file.table]?["rows"] == file.rows, "\(file.table)") }
        // The checks did look at the values that matter.
        #expect(tables["cumulative_samples"]?["reals"] ?? 0 > 1000)
        #expect(tables["route_points"]?["instants"] ?? 0 > 100)
        #expect(tables["hrv_beats"]?["instants"] ?? 0 > 100)
        if dialect == .excel {
            #expect(tables["metadata"]?["guarded"] == 3)
            #expect(tables["clinical_records"]?["too_long"] == 1)
        } else {
            #expect(tables["ecg_recordings"]?["blobs"] == 2)
        }
    }

    @Test func theReportNamesEveryCellThatIsNotAsStored() throws {
        let directory = TemporaryDirectory("csv-export")
        defer { directory.remove() }
        let database = try CSVTestSupport.makeDatabase(in: directory)
        let excel = try CSVTableExporter.exportTables(databasePath: database, to: directory.file("x"), dialect: .excel)
        func adjustments(_ report: CSVExportReport, _ table: String) -> [String] {
            report.files.first { $0.table == table }?.adjustments.map(\.description) ?? []
        }
        #expect(
            adjustments(excel, "ecg_recordings") == ["samples: 2 × " + CSVCellAdjustment.Reason.blobOmitted.rawValue])
        #expect(adjustments(excel, "documents") == ["content: 1 × " + CSVCellAdjustment.Reason.blobOmitted.rawValue])
        #expect(
            adjustments(excel, "clinical_records") == [
                "resource_json: 1 × " + CSVCellAdjustment.Reason.tooLongForSpreadsheet.rawValue
            ])
        #expect(adjustments(excel, "metadata") == ["value: 3 × " + CSVCellAdjustment.Reason.formulaGuarded.rawValue])
        let rows = excel.files.first { $0.table == "cumulative_samples" }?.rows ?? 0
        #expect(
            adjustments(excel, "cumulative_samples") == [
                "identity: \(rows) × " + CSVCellAdjustment.Reason.integerBeyondSpreadsheetPrecision.rawValue
            ])
        #expect(excel.notes.contains("metadata.csv: value: 3 × " + CSVCellAdjustment.Reason.formulaGuarded.rawValue))

        let standard = try CSVTableExporter.exportTables(databasePath: database, to: directory.file("s"))
        let changed = standard.files.flatMap { file in file.adjustments.map { "\(file.table).\($0.column)" } }
        #expect(changed == ["ecg_recordings.samples", "documents.content"])
    }

    @Test func instantsAreShownInTheRowsOffsetOrTheirParents() throws {
        let directory = TemporaryDirectory("csv-export")
        defer { directory.remove() }
        let database = try CSVTestSupport.makeDatabase(in: directory)
        let db = try SQLiteConnection(path: database, create: false)
        // The generated export is written in -03:30, a negative offset with minutes.
        #expect(try db.scalar("SELECT DISTINCT utc_offset FROM workouts") == .text("-03:30"))
        for dialect in [CSVDialect.standard, .excel] {
            let out = directory.file(dialect.name)
            _ = try CSVTableExporter.exportTables(
                databasePath: database, to: out, dialect: dialect, tables: ["route_points", "hrv_beats", "import_runs"])
            let expected =
                dialect == .standard
                ? "T(\\d\\d:\\d\\d:\\d\\d)(\\.\\d\\d)?-03:30" : " (\\d\\d:\\d\\d:\\d\\d)(\\.\\d\\d)?"
            for table in ["route_points", "hrv_beats"] {
                let lines = try String(contentsOfFile: out + "/\(table).csv", encoding: .utf8).split(separator: "\r\n")
                #expect(lines.count > 10)
                #expect(lines.dropFirst().allSatisfy { $0.contains(try! Regex(expected)) }, "\(table) \(dialect.name)")
            }
            // Import runs have no offset: UTC.
            let runs = try String(contentsOfFile: out + "/import_runs.csv", encoding: .utf8)
            #expect(
                runs.contains(
                    try Regex(
                        dialect == .standard
                            ? ",\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,"
                            : ",\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,")))
        }
        // One beat, by hand: UTC in the database, -03:30 in the file.
        guard
            case .text(let utc) = try db.scalar(
                "SELECT time FROM hrv_beats WHERE time LIKE '%.%' ORDER BY rowid LIMIT 1"),
            let seconds = Timestamp.parse(String(utc.prefix(19)) + "Z")?.seconds
        else { Issue.record("no beat with centiseconds"); return }
        let local = TimestampFormatting.utcString(seconds - 12_600).prefix(19) + utc.dropFirst(19).dropLast()
        #expect(
            try String(contentsOfFile: directory.file("standard/hrv_beats.csv"), encoding: .utf8).contains(
                local + "-03:30"))
    }

    @Test func instantColumnsAndTheirOffsetsComeFromTheSchema() {
        var found: [String: [String]] = [:]
        for table in Schema.publicTables {
            let layout = CSVTableLayout(table)
            let instants = zip(table.columnNames, layout.isInstant).filter(\.1).map(\.0)
            if !instants.isEmpty { found[table.name] = instants }
            // Every table with instants shows them in an offset, or is known to have none.
            #expect(
                !instants.isEmpty
                    == (layout.offsetExpression != nil || CSVTableLayout.tablesInUTC.contains(table.name)),
                "\(table.name)")
        }
        let sample = ["start_date", "end_date", "creation_date"]
        #expect(
            found == [
                "cumulative_samples": sample, "discrete_samples": sample, "category_samples": sample,
                "correlations": sample,
                "hrv_beats": ["time"], "workouts": sample, "workout_events": ["date"],
                "workout_activities": ["start_date", "end_date"], "workout_statistics": ["start_date", "end_date"],
                "workout_routes": sample, "route_points": ["time"], "ecg_recordings": ["recorded_date"],
                "clinical_records": ["received_date"], "audiograms": sample,
                "vision_prescriptions": ["date_issued", "expiration_date"],
                "state_of_mind": ["start_date", "end_date"],
                "import_runs": ["export_date", "started_at", "finished_at"],
                "anchors": ["newest_end_date", "newest_creation_date", "export_date"],
                "deleted_samples": ["start_date", "end_date"], "rollups": ["period_start"],
            ])
    }

    @Test func aFailureLeavesNoFileBehind() throws {
        let directory = TemporaryDirectory("csv-export")
        defer { directory.remove() }
        let database = try CSVTestSupport.makeDatabase(in: directory)
        // A table late in the schema loses a column: the export fails after writing the earlier files.
        try SQLiteConnection(path: database, create: false).execute("ALTER TABLE me DROP COLUMN value")
        let out = directory.file("out")
        #expect {
            _ = try CSVTableExporter.exportTables(databasePath: database, to: out)
        } throws: { error in
            (error as? ImportError)?.kind == .input && (error as? ImportError)?.file == database
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    @Test func badArgumentsAreNamed() throws {
        let directory = TemporaryDirectory("csv-export")
        defer { directory.remove() }
        func kind(_ body: () throws -> Void) -> ImportError.Kind? {
            do { try body() } catch let error as ImportError { return error.kind } catch { return nil }
            return nil
        }
        let missing = directory.file("missing.sqlite")
        // As every command that reads a database says of a missing one ("no database here"): a usage error.
        #expect(
            kind { _ = try CSVTableExporter.exportTables(databasePath: missing, to: directory.file("o")) } == .usage)
        let empty = directory.file("empty.sqlite")
        try SQLiteConnection(path: empty).execute("CREATE TABLE t (x)")
        #expect(kind { _ = try CSVTableExporter.exportTables(databasePath: empty, to: directory.file("o")) } == .input)
        #expect(
            kind {
                _ = try CSVTableExporter.exportTables(databasePath: empty, to: directory.file("o"), tables: ["nope"])
            } == .usage)
        let file = directory.write("plain", "x")
        let database = try CSVTestSupport.makeDatabase(in: directory)
        #expect(kind { _ = try CSVTableExporter.exportTables(databasePath: database, to: file) } == .output)
        #expect(kind { _ = try CSVTableExporter.exportTables(databasePath: database, to: file + "/a/b") } == .output)
        // Only the chosen tables, in schema order; the database is left untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let report = try CSVTableExporter.exportTables(
            databasePath: database, to: directory.file("o"), tables: ["me", "sources"])
        #expect(report.files.map(\.table) == ["sources", "me"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.file("o"))[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
