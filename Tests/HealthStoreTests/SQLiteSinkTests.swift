import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore

struct SQLiteSinkTests {
    static let body = """
         <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, model:iPhone&gt;" unit="count" startDate="2024-02-01 23:30:00 +0100" endDate="2024-02-01 23:40:00 +0100" value="100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" device="&lt;&lt;HKDevice: 0x2&gt;, name:iPhone, model:iPhone&gt;" unit="count" startDate="2024-02-02 00:30:00 +0100" endDate="2024-02-02 00:40:00 +0100" value="50"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="61">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
         <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="80"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-02-01 23:00:00 +0100" endDate="2024-02-02 07:00:00 +0100" value="HKCategoryValueSleepAnalysisInBed"/>
         <Record type="HKDataTypeSleepDurationGoal" sourceName="Health" unit="hr" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="8"/>
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100">
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Cuff" unit="mmHg" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="80"/>
         </Correlation>
         <ActivitySummary dateComponents="2024-02-01" activeEnergyBurned="590.252" activeEnergyBurnedGoal="630" activeEnergyBurnedUnit="kcal" appleMoveMinutes="3"/>
        """

    func importBody(_ body: String = body, into database: String, zone: String = "Europe/Berlin") throws
        -> ImportSummary
    {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write("export.xml", exportXML(body))
        return try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: zone)!).run()
    }

    /// Route points and beats are stored as integer centiseconds; the views show them as the text schema 3
    /// stored (`fractionalUTC` below, the rule it was written by), for every fraction, the rounding edges
    /// and instants outside 1970–2099.
    @Test func centisecondInstantsReadBackAsTheirText() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let connection = try SQLiteConnection(path: directory.file("health.sqlite"))
        let select = try connection.prepare("SELECT " + Schema.centisecondText("?1"))
        var instants: [Double] = [0, 0.004, 0.005, 0.994, 0.995, 0.999, 59.999, 86_399.996, 1_560_820_031.94]
        instants += [-1.5, -0.004, 4_102_444_800.25, 5e9]
        var seconds = 1_700_000_000.0
        for step in 0..<2000 {
            seconds += Double(step % 7) * 0.37 + (step % 500 == 0 ? 86_400 : 0)
            instants.append(seconds)
        }
        for instant in instants {
            select.bind(1, Centiseconds.of(instant))
            var shown: String?
            try select.forEachRow { shown = $0.text(0) }
            #expect(shown == Self.fractionalUTC(instant), "instant \(instant)")
        }
    }

    /// How schema 3 wrote a point's or beat's instant: `2019-06-18T01:07:11.94Z`.
    static func fractionalUTC(_ seconds: Double) -> String {
        let whole = seconds.rounded(.down)
        let centis = Int(((seconds - whole) * 100).rounded())
        var text = TimestampFormatting.utcString(Int64(whole) + (centis >= 100 ? 1 : 0))
        if centis > 0, centis < 100 {
            text.removeLast()
            text += "." + (centis < 10 ? "0" : "") + String(centis) + "Z"
        }
        return text
    }

    @Test func writesEveryKindToItsTable() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let summary = try importBody(into: database)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM cumulative_samples") == .integer(2))
        // Heart rate, both blood pressures and the unknown HKDataType (treated as discrete).
        #expect(try db.scalar("SELECT count(*) FROM discrete_samples") == .integer(4))
        #expect(try db.scalar("SELECT count(*) FROM category_samples") == .integer(1))
        // Correlation children are linked to the top-level copies, not stored twice.
        #expect(try db.scalar("SELECT count(*) FROM correlation_samples") == .integer(2))
        #expect(try db.scalar("SELECT count(DISTINCT sample_id) FROM correlation_samples") == .integer(2))
        #expect(try db.scalar("SELECT typeof(value) FROM discrete_samples LIMIT 1") == .text("real"))
        // 23:30 +0100 is the 1st in Berlin; 00:30 +0100 the 2nd.
        #expect(
            try db.query("SELECT local_date, value FROM cumulative_samples ORDER BY id")
                == [[.text("2024-02-01"), .real(100)], [.text("2024-02-02"), .real(50)]])
        #expect(
            try db.scalar("SELECT start_date FROM cumulative_samples WHERE id = 1") == .text("2024-02-01T22:30:00Z"))
        #expect(try db.scalar("SELECT utc_offset FROM cumulative_samples WHERE id = 1") == .text("+01:00"))
        // One source row for the phone although each record had another device address.
        #expect(try db.scalar("SELECT count(*) FROM sources WHERE name = 'Phone'") == .integer(1))
        #expect(
            try db.scalar("SELECT number FROM metadata WHERE key = 'HKMetadataKeyHeartRateMotionContext'") == .real(1))
        #expect(try db.scalar("SELECT other_json FROM activity_summaries") == .text("{\"appleMoveMinutes\":3.0}"))
        #expect(try db.scalar("SELECT count(*) FROM me") == .integer(2))
        #expect(try db.scalar("SELECT outcome FROM import_runs") == .text("ok"))
        #expect(try db.scalar("PRAGMA user_version") == .integer(Int64(Schema.userVersion)))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(summary.rows["cumulative_samples"] == 2)
        let mode = try FileManager.default.attributesOfItem(atPath: database)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func theDatabaseMatchesTheSchemaDescription() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importBody(into: database)
        let db = try SQLiteConnection(path: database, create: false)
        for table in Schema.tables {
            let columns = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table.name)])
            #expect(columns == table.columnNames.map { [.text($0)] }, "\(table.name)")
        }
    }

    @Test func docsSchemaIsCurrent() throws {
        let path = (Fixtures.repositoryRoot as NSString).appendingPathComponent("docs/schema.md")
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(committed == SchemaDocumentation.markdown(), "run: swift run healthetl schema > docs/schema.md")
    }

    @Test func reimportingReplacesInsteadOfDuplicating() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importBody(into: database)
        _ = try importBody(into: database)
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT count(*) FROM cumulative_samples") == .integer(2))
        #expect(try db.scalar("SELECT count(*) FROM import_runs") == .integer(2))
    }

    @Test func aFailedImportLeavesTheDatabaseAsItWas() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        _ = try importBody(into: database)
        let before = try dataContent(of: database)
        // Well-formed up to a point, then broken: the error comes after rows were written.
        #expect(throws: ImportError.self) {
            _ = try importBody(Self.body + "\n <Record type=\"X\" value=\"1\">\n", into: database)
        }
        #expect(try dataContent(of: database) == before)
        // The attempt itself is recorded, with its error, for `healthetl status` and cron logs.
        do {
            let db = try SQLiteConnection(path: database, create: false)
            let runs = try db.query("SELECT outcome, error FROM import_runs ORDER BY id")
            #expect(runs.count == 2)
            #expect(runs.last?[0] == .text("failed"))
            #expect(runs.last?[1].text?.contains("export.xml") == true)
            #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        }
        // Once every connection is closed (SQLite keeps -wal and -shm files while one is open).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["health.sqlite"])
    }

    /// A first import killed while SQLite switched its finished file to WAL leaves the file and a `-journal`
    /// (or `-wal`/`-shm`) beside it: the next run removes all of them, and only those of dead processes.
    @Test func staleTemporaryFilesAreRemovedWithTheirJournals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let gone = try ProcessRunner.run("/bin/true")
        let database = directory.file("health.sqlite")
        let stale = ["", "-journal", "-wal", "-shm"].map {
            "health.sqlite.healthetl-\(gone.processIdentifier).tmp\($0)"
        }
        let alive = [
            "health.sqlite.healthetl-\(getppid()).tmp", "health.sqlite.healthetl-\(gone.processIdentifier).tmpx",
        ]
        for name in stale + alive { _ = directory.write(name, "x") }
        SQLiteTarget.removeStaleTemporaryFiles(of: database)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == alive.sorted())
    }

    @Test func aFailedFirstImportLeavesNoFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        #expect(throws: ImportError.self) { _ = try importBody(Self.body + "\n <Record>\n", into: database) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func refusesADatabaseOfAnotherApplication() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("other.sqlite")
        let other = try SQLiteConnection(path: database)
        try other.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        #expect(throws: ImportError.self) { _ = try importBody(into: database) }
        #expect(try other.scalar("SELECT text FROM notes") == .text("mine"))
    }

    /// A first import killed with SIGKILL leaves `<db>.healthetl-<pid>.tmp`; the next run removes it.
    @Test func leftoversOfAKilledImportAreRemoved() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("health.sqlite")
        let stale = directory.write("health.sqlite.healthetl-3999999.tmp", "half a database")
        let live = directory.write("health.sqlite.healthetl-\(getpid() == 1 ? 2 : 1).tmp", "pid 1 is alive")
        _ = try importBody(into: database)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}
