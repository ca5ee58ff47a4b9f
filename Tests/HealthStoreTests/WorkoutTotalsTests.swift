import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// Workout totals for every iOS version: the attributes of iOS ≤ 15 exports, the `WorkoutStatistics` of iOS 16+
/// ones; checked against values read from the XML here, line by line, without the importer's decoder.
@Suite("Workout totals and workout_overview")
struct WorkoutTotalsTests {
    /// What the XML says about one workout.
    struct ExpectedWorkout {
        var line: Int
        var activity = ""
        var start = ""
        var attributeDistance: Double?
        var attributeEnergy: Double?
        var zone: String?
        /// (type, sum in metres or kcal, nested in an activity?)
        var sums: [(type: String, value: Double, nested: Bool)] = []
        var heartRate: (average: Double, maximum: Double)?

        /// The rule, restated: the workout's own statistics first, then its activities'; the distance type of
        /// the activity first, then every distance type.
        var distance: Double? {
            if let attributeDistance { return attributeDistance }
            let own = activity.replacingOccurrences(of: "HKWorkoutActivityType", with: "")
            let preferred = [
                "Running": "DistanceWalkingRunning", "Walking": "DistanceWalkingRunning",
                "Cycling": "DistanceCycling", "Swimming": "DistanceSwimming",
            ][own]
            for nested in [false, true] {
                let distances = sums.filter { $0.nested == nested && $0.type.contains("TypeIdentifierDistance") }
                guard !distances.isEmpty else { continue }
                let matching = distances.filter { preferred != nil && $0.type.hasSuffix(preferred!) }
                return (matching.isEmpty ? distances : matching).reduce(0) { $0 + $1.value }
            }
            return nil
        }

        var energy: Double? {
            if let attributeEnergy { return attributeEnergy }
            for nested in [false, true] {
                let energy = sums.filter { $0.nested == nested && $0.type.hasSuffix("ActiveEnergyBurned") }
                if !energy.isEmpty { return energy.reduce(0) { $0 + $1.value } }
            }
            return nil
        }
    }

    static func attribute(_ name: String, in line: Substring) -> String? {
        guard let range = line.range(of: " \(name)=\"") else { return nil }
        let rest = line[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Metres or kilocalories per unit, for the units the generator writes.
    static let factors: [String: Double] = ["m": 1, "km": 1000, "mi": 1609.344, "kcal": 1, "Cal": 1, "kJ": 1 / 4.184]

    static func expectedWorkouts(xml: String) throws -> [ExpectedWorkout] {
        var workouts: [ExpectedWorkout] = []
        var current: ExpectedWorkout?
        var nested = false
        for (index, line) in xml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("<Workout ") {
                var workout = ExpectedWorkout(line: index + 1)
                workout.activity = attribute("workoutActivityType", in: line) ?? ""
                workout.start = attribute("startDate", in: line) ?? ""
                if let value = attribute("totalDistance", in: line).flatMap(Double.init),
                    let unit = attribute("totalDistanceUnit", in: line)
                {
                    workout.attributeDistance = value * (try #require(factors[unit]))
                }
                if let value = attribute("totalEnergyBurned", in: line).flatMap(Double.init),
                    let unit = attribute("totalEnergyBurnedUnit", in: line)
                {
                    workout.attributeEnergy = value * (try #require(factors[unit]))
                }
                current = workout
            } else if trimmed.hasPrefix("</Workout>"), let workout = current {
                workouts.append(workout)
                current = nil
            } else if trimmed.hasPrefix("<WorkoutActivity ") {
                nested = true
            } else if trimmed.hasPrefix("</WorkoutActivity>") {
                nested = false
            } else if trimmed.hasPrefix("<MetadataEntry key=\"HKTimeZone\""), current != nil, !nested {
                current?.zone = attribute("value", in: line)
            } else if trimmed.hasPrefix("<WorkoutStatistics "), current != nil,
                let type = attribute("type", in: line), let unit = attribute("unit", in: line)
            {
                if let sum = attribute("sum", in: line).flatMap(Double.init), let factor = factors[unit] {
                    current?.sums.append((type, sum * factor, nested))
                }
                if type == "HKQuantityTypeIdentifierHeartRate", !nested,
                    let average = attribute("average", in: line).flatMap(Double.init),
                    let maximum = attribute("maximum", in: line).flatMap(Double.init)
                {
                    current?.heartRate = (average, maximum)
                }
            }
        }
        return workouts
    }

    /// `2024-01-01 08:05:00 +0100` → `2024-01-01T08:05:00+01:00` in `zone`, with Foundation's calendar.
    static func localStart(_ exported: String, zone: TimeZone) -> String? {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        guard let date = parser.date(from: exported) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: date)
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(b))
    }

    @Test(arguments: [ExportProfile.ios12, .ios16, .ios18])
    func totalsMatchTheXML(profile: ExportProfile) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 11, days: 12, profile: profile)
        options.scale = 0.3
        _ = try ExportGenerator(options: options).write(to: .folder(directory.path))
        let exportFolder = directory.file("apple_health_export")
        let xmlPath = try #require(
            try FileManager.default.contentsOfDirectory(atPath: exportFolder).first {
                $0.hasSuffix(".xml") && !$0.contains("cda")
            })
        let xml = try String(contentsOfFile: exportFolder + "/" + xmlPath, encoding: .utf8)
        let expected = try Self.expectedWorkouts(xml: xml)
        #expect(expected.count > 5)
        if profile != .ios12 {
            // The point of the feature: these exports have no total attributes at all.
            #expect(expected.allSatisfy { $0.attributeDistance == nil && $0.attributeEnergy == nil })
            #expect(expected.contains { $0.activity.hasSuffix("SwimBikeRun") && $0.distance != nil })
        }

        let database = directory.file("health.sqlite")
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        _ = try ImportJob(inputPath: directory.path, databasePath: database, timeZone: berlin).run()
        let db = try SQLiteConnection(path: database, create: false)
        let rows = try db.query(
            """
            SELECT w.xml_line, w.total_distance, w.total_energy_burned, w.local_start, o.distance_km,
                   o.active_energy_kcal, o.avg_heart_rate, o.max_heart_rate, o.activity
            FROM workouts w JOIN workout_overview o ON o.workout_id = w.id
            """)
        #expect(rows.count == expected.count)
        var byLine: [Int64: [SQLiteValue]] = [:]
        for row in rows { byLine[row[0].integer ?? -1] = row }
        var withDistance = 0
        for workout in expected {
            let row = try #require(byLine[Int64(workout.line)], "workout of line \(workout.line)")
            #expect(Self.close(row[1].number, workout.distance), "distance, line \(workout.line)")
            #expect(Self.close(row[2].number, workout.energy), "energy, line \(workout.line)")
            #expect(Self.close(row[4].number, workout.distance.map { $0 / 1000 }), "distance_km, line \(workout.line)")
            #expect(Self.close(row[5].number, workout.energy), "active_energy_kcal, line \(workout.line)")
            if let heartRate = workout.heartRate {
                #expect(row[6].number == heartRate.average && row[7].number == heartRate.maximum)
            }
            let zone = workout.zone.flatMap(TimeZone.init(identifier:)) ?? berlin
            #expect(row[3].text == Self.localStart(workout.start, zone: zone), "local_start, line \(workout.line)")
            #expect(row[8].text?.hasPrefix("HK") == false)
            if workout.distance != nil { withDistance += 1 }
        }
        #expect(withDistance > 3)
        // The weekly question of the issue: distance per week adds up to the XML's total.
        let weekly = try db.query(
            """
            SELECT sum(distance_km) FROM (SELECT date(local_date, '-6 days', 'weekday 1') AS week, sum(distance_km)
            AS distance_km FROM workout_overview GROUP BY week)
            """)
        let total = expected.compactMap(\.distance).reduce(0, +) / 1000
        #expect(Self.close(weekly.first?[0].number, total))
    }

    /// A database of schema version 2 (no `local_start`, no `data_types`, empty iOS 16+ totals) is completed
    /// by the next import, even of the same export.
    @Test func aVersion2DatabaseGetsTotalsOnItsNextImport() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var options = GeneratorOptions(seed: 5, days: 6, profile: .ios18)
        options.scale = 0.3
        let export = directory.file("export.zip")
        _ = try GeneratedExport.zip(options).copy(to: export)
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "Europe/Berlin"))
            .run()
        try FileManager.default.copyItem(atPath: database, toPath: directory.file("current.sqlite"))
        let expected = try SQLiteConnection(path: database, create: false)
            .query("SELECT id, total_distance, total_energy_burned, local_start FROM workouts ORDER BY id")
        #expect(expected.contains { $0[1] != .null })
        // Back to what version 2 wrote: version 3's tables with the same rows, less what version 3 added.
        try FileManager.default.removeItem(atPath: database)
        try makeVersion3Database(from: directory.file("current.sqlite"), at: database)
        let current = try SQLiteConnection(path: database, create: false)
        try current.execute(
            """
            DROP VIEW workout_overview; DROP TABLE data_types; DROP INDEX workout_statistics_workout;
            DROP INDEX workout_routes_workout; ALTER TABLE workouts DROP COLUMN local_start;
            UPDATE workouts SET total_distance = NULL, total_distance_unit = NULL, total_energy_burned = NULL,
                total_energy_burned_unit = NULL;
            UPDATE import_runs SET input_fingerprint = 'the hash of version 2, which included schema=2';
            PRAGMA user_version = 2
            """)

        let summary = try ImportJob(inputPath: export, databasePath: database, timeZone: nil).run()
        #expect(summary.outcome == "ok")
        let db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("PRAGMA user_version") == .integer(Int64(Schema.userVersion)))
        #expect(
            try db.query("SELECT id, total_distance, total_energy_burned, local_start FROM workouts ORDER BY id")
                == expected)
        #expect(
            try db.scalar("SELECT count(*) FROM data_types WHERE type = 'HKWorkoutActivityTypeRunning'") == .integer(1))
        #expect(try db.scalar("SELECT count(*) FROM workout_overview") == .integer(Int64(expected.count)))
        for table in Schema.tables {
            let columns = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table.name)])
            #expect(columns == table.columnNames.map { [.text($0)] }, "\(table.name)")
        }
    }

    /// `set-timezone` moves the local start with `local_date` (workouts without their own `HKTimeZone`).
    @Test func localStartFollowsTheDatabaseTimeZone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.write(
            "export.xml",
            exportXML(
                """
                 <Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-07-01 23:30:00 +0000" endDate="2024-07-02 00:00:00 +0000"/>
                """))
        let database = directory.file("health.sqlite")
        _ = try ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "UTC")).run()
        var db = try SQLiteConnection(path: database, create: false)
        #expect(try db.scalar("SELECT local_start FROM workouts") == .text("2024-07-01T23:30:00+00:00"))
        #expect(try db.scalar("SELECT activity FROM workout_overview") == .text("Yoga"))
        #expect(try db.scalar("SELECT distance_km IS NULL AND route_points = 0 FROM workout_overview") == .integer(1))
        _ = try SQLiteSink.changeTimeZone(
            databasePath: database, to: #require(TimeZone(identifier: "Asia/Tokyo")), lockTimeoutSeconds: 1)
        db = try SQLiteConnection(path: database, create: false)
        #expect(
            try db.query("SELECT local_start, local_date FROM workouts") == [
                [.text("2024-07-02T08:30:00+09:00"), .text("2024-07-02")]
            ])
    }

    /// Every view's documented columns are the columns SQLite reports for it.
    @Test func viewDescriptionsMatchTheViews() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try Schema.createTables(db)
        for view in Schema.viewDescriptions {
            let columns = try db.query("SELECT name FROM pragma_table_info(?)", [.text(view.name)])
            #expect(columns == view.columnNames.map { [.text($0)] }, "\(view.name)")
        }
    }
}

extension SQLiteValue {
    /// A REAL or INTEGER as a Double (tests only).
    var number: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}
