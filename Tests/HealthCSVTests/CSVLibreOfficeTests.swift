import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthCSV
@testable import HealthSQLite
@testable import HealthStore

/// LibreOffice opens the excel flavour as a spreadsheet: numbers as numbers, instants as date-times, text
/// intact, no formulas. Converted to xlsx headless and read back with Python's zipfile and XML parser.
/// Skipped where LibreOffice or python3 is not installed.
@Suite(.tags(.fullSuite), .fastLoopSelection)
struct CSVLibreOfficeTests {
    typealias Sheet = (rows: Int, header: [String], columns: [String: [String: Int]], firstRow: [String: Any])

    static func convert(_ files: [String], to folder: String, filter: String?, office: String, profile: String) throws {
        var arguments = ["-env:UserInstallation=file://" + profile, "--headless"]
        if let filter { arguments.append("--infilter=" + filter) }
        arguments += ["--convert-to", "xlsx", "--outdir", folder] + files
        let result = try ProcessRunner.run(office, arguments, timeout: 120)
        #expect(result.status == 0, "\(result.error)")
    }

    static func sheet(_ path: String, python: String) throws -> Sheet {
        let result = try ProcessRunner.run(python, [CSVTestSupport.checker, "xlsx", path])
        #expect(result.status == 0, "\(result.error)")
        let json = try jsonObject(result.output)
        return (
            json["rows"] as? Int ?? 0, json["header"] as? [String] ?? [],
            json["columns"] as? [String: [String: Int]] ?? [:], json["first_row"] as? [String: Any] ?? [:]
        )
    }

    @Test(
        .enabled(
            if: Condition.libreOffice, "LibreOffice (soffice) is not on PATH; apt-get install libreoffice-calc-nogui"),
        .enabled(if: Condition.python3, "python3 is not on PATH"))
    func libreOfficeOpensTheExcelFlavourAsNumbersAndDates() throws {
        let office = try #require(Fixtures.executable("soffice", "libreoffice"))
        let python = try #require(Fixtures.executable("python3"))
        let directory = TemporaryDirectory("csv-libreoffice")
        defer { directory.remove() }
        let database = try CSVTestSupport.makeDatabase(in: directory)
        let out = directory.file("csv")
        _ = try CSVTableExporter.exportTables(
            databasePath: database, to: out, dialect: .excel, tables: ["cumulative_samples", "metadata"])
        let files = [out + "/cumulative_samples.csv", out + "/metadata.csv"]
        let db = try SQLiteConnection(path: database, create: false)
        let rows = try CSVTestSupport.count(db, "SELECT count(*) FROM cumulative_samples")
        let values = try CSVTestSupport.count(db, "SELECT count(value) FROM cumulative_samples")
        let starts = try CSVTestSupport.count(db, "SELECT count(start_date) FROM cumulative_samples")
        let profile = directory.file("profile")

        // As the import dialog sets it up for this file: UTF-8 (76), comma, quote, "detect special numbers" on.
        try Self.convert(
            files, to: directory.file("explicit"), filter: "CSV:44,34,76,1,,0,false,true", office: office,
            profile: profile)
        let samples = try Self.sheet(directory.file("explicit/cumulative_samples.xlsx"), python: python)
        #expect(samples.rows == rows + 1)
        #expect(samples.header == Schema.publicTables.first { $0.name == "cumulative_samples" }?.columnNames)
        #expect(samples.columns["value"] == ["numeric": values, "date": 0, "text": 0, "formula": 0])
        #expect(samples.columns["raw_value"]?["text"] == 0)
        for column in ["start_date", "end_date"] { #expect(samples.columns[column]?["date"] == starts, "\(column)") }
        guard case .text(let source) = try db.scalar("SELECT source_name FROM cumulative_samples ORDER BY id LIMIT 1")
        else { return }
        #expect(samples.firstRow["source_name"] as? String == source)
        let metadata = try Self.sheet(directory.file("explicit/metadata.xlsx"), python: python)
        #expect(metadata.rows == (try CSVTestSupport.count(db, "SELECT count(*) FROM metadata")) + 1)
        #expect(metadata.columns.values.map { $0["formula"] ?? 0 }.reduce(0, +) == 0)
        #expect(metadata.columns["number"]?["text"] == 0)

        // daily.csv, the file a spreadsheet user opens first: a row per day, numbers in the metric columns,
        // the date column as dates.
        let daily = directory.file("daily")
        _ = try DailyCSV.write(databasePath: database, to: daily, dialect: .excel)
        try Self.convert(
            [daily + "/daily.csv"], to: daily, filter: "CSV:44,34,76,1,,0,false,true", office: office, profile: profile)
        let days = try CSVTestSupport.count(db, "SELECT count(DISTINCT date) FROM daily_rollups")
        let stepDays = try CSVTestSupport.count(
            db, "SELECT count(*) FROM daily_rollups WHERE column_name = 'StepCount'")
        let dailySheet = try Self.sheet(daily + "/daily.xlsx", python: python)
        #expect(days > 0)
        #expect(dailySheet.rows == days + 1)
        #expect(dailySheet.header.first == "date")
        #expect(dailySheet.columns["date"]?["date"] == days)
        #expect(dailySheet.columns["StepCount"] == ["numeric": stepDays, "date": 0, "text": 0, "formula": 0])

        // LibreOffice's defaults, as `soffice --convert-to` uses them without --infilter: LibreOffice 7.4 then
        // ignores the BOM (Latin-1 text) and leaves `yyyy-mm-dd hh:mm:ss` as text; rows and numbers are right.
        try Self.convert([files[0]], to: directory.file("default"), filter: nil, office: office, profile: profile)
        let plain = try Self.sheet(directory.file("default/cumulative_samples.xlsx"), python: python)
        #expect(plain.rows == rows + 1)
        #expect(plain.columns["value"]?["numeric"] == values)
        print(
            "LibreOffice defaults: start_date \(plain.columns["start_date"] ?? [:]), first header "
                + "\(plain.header.first.debugDescription), source_name \(String(describing: plain.firstRow["source_name"]))"
        )
    }
}
