import Foundation
import HealthTestSupport
import Testing

@testable import HealthImport
@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStages

struct UnitStageTests {
    func quantity(_ type: String, _ value: Double, _ unit: String) -> Sample {
        var sample = Sample(type: type, source: SampleSource(id: 1, name: "S", version: nil, device: nil), line: 1)
        sample.value = value
        sample.unit = unit
        return sample
    }

    /// The item form, one item at a time, or the batch form over the items as one batch.
    enum Path: CaseIterable { case items, batch }

    func run(_ items: [ExportItem], _ path: Path) throws -> ([ExportItem], [String: Int]) {
        var stage = UnitStage()
        guard path == .items else {
            var batch = SampleBatch.of(items)
            try stage.process(&batch)
            return (batch.items, stage.report)
        }
        var out: [ExportItem] = []
        for item in items { try stage.process(item) { out.append($0) } }
        return (out, stage.report)
    }

    @Test(arguments: Path.allCases) func convertsToTheCanonicalUnitAndKeepsTheExportedOne(path: Path) throws {
        let (out, report) = try run(
            [
                .sample(quantity("HKQuantityTypeIdentifierBodyMass", 154.3, "lb")),
                .sample(quantity("HKQuantityTypeIdentifierBloodGlucose", 5.5, "mmol<180.1558800000541>/L")),
                .sample(quantity("HKQuantityTypeIdentifierBodyTemperature", 98.6, "degF")),
                .sample(quantity("HKQuantityTypeIdentifierActiveEnergyBurned", 100, "kJ")),
                .sample(quantity("HKQuantityTypeIdentifierStepCount", 12, "count")),
            ], path)
        let samples = out.samples
        #expect(abs(samples[0].value! - 154.3 * 0.45359237) < 1e-9)
        #expect(samples[0].unit == "kg")
        #expect(samples[0].rawValue == 154.3)
        #expect(samples[0].rawUnit == "lb")
        #expect(abs(samples[1].value! - 5.5 * 18.01558800000541) < 1e-6)
        #expect(samples[1].unit == "mg/dL")
        #expect(abs(samples[2].value! - 37) < 1e-9)
        #expect(abs(samples[3].value! - 100 / 4.184) < 1e-9)
        #expect(samples[4].rawUnit == nil)  // already canonical: nothing to keep apart
        #expect(
            report == [
                "records converted lb → kg": 1, "records converted degF → degC": 1,
                "records converted mmol<180.1558800000541>/L → mg/dL": 1, "records converted kJ → kcal": 1,
            ])
    }

    @Test(arguments: Path.allCases) func anUnknownOrWrongUnitIsKeptFlaggedAndCounted(path: Path) throws {
        let (out, report) = try run(
            [
                .sample(quantity("HKQuantityTypeIdentifierBodyMass", 70, "furlong")),
                .sample(quantity("HKQuantityTypeIdentifierBodyMass", 70, "km")),
            ], path)
        for sample in out.samples {
            #expect(sample.value == 70)
            #expect(sample.rawValue == nil)
            #expect(sample.flags.contains(.unitNotConvertible))
        }
        #expect(report.filter { !$0.key.hasPrefix("records converted") }.values.reduce(0, +) == 2)
    }

    @Test(arguments: Path.allCases) func workoutStatisticsTotalsAndMetadataAreConvertedToo(path: Path) throws {
        var workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning",
            source: SampleSource(id: 1, name: "W", version: nil, device: nil), line: 1)
        workout.totalDistance = 3.1
        workout.totalDistanceUnit = "mi"
        workout.totalEnergyBurned = 300
        workout.totalEnergyBurnedUnit = "Cal"
        var statistic = WorkoutStatistic(type: "HKQuantityTypeIdentifierDistanceWalkingRunning")
        statistic.sum = 5
        statistic.unit = "km"
        workout.statistics = [statistic]
        workout.metadata = [
            MetadataEntry(key: "HKElevationAscended", value: "418 cm"),
            MetadataEntry(key: "HKWeatherTemperature", value: "56 degF"),
            MetadataEntry(key: "HKWeatherHumidity", value: "6900 %"), MetadataEntry(key: "HKIndoorWorkout", value: "0"),
        ]
        let (out, _) = try run([.workout(workout)], path)
        let converted = try #require(out.workouts.first)
        #expect(abs(converted.totalDistance! - 3.1 * 1609.344) < 1e-6)
        #expect(converted.rawTotalDistance?.unit == "mi")
        #expect(converted.totalEnergyBurned == 300)
        #expect(converted.statistics[0].sum == 5000)
        #expect(converted.statistics[0].unit == "m")
        #expect(converted.statistics[0].rawUnit == "km")
        #expect(abs(converted.metadata[0].number! - 4.18) < 1e-12 && converted.metadata[0].numberUnit == "m")
        #expect(
            abs(converted.metadata[1].number! - (56 - 32) * 5 / 9) < 1e-9 && converted.metadata[1].numberUnit == "degC")
        #expect(converted.metadata[2].number == 69 && converted.metadata[2].numberUnit == "%")
        #expect(converted.metadata[3].number == 0 && converted.metadata[3].numberUnit == nil)
        #expect(converted.metadata[0].value == "418 cm")  // the text stays as exported
    }
}

/// Every converted value in an imported generated export, checked with conversion factors written out here
/// (not taken from the unit system under test).
struct UnitEndToEndTests {
    static let factors: [String: (to: String, convert: @Sendable (Double) -> Double)] = [
        "lb": ("kg", { $0 * 0.45359237 }), "km": ("m", { $0 * 1000 }), "mi": ("m", { $0 * 1609.344 }),
        "Cal": ("kcal", { $0 }), "kJ": ("kcal", { $0 / 4.184 }), "degF": ("degC", { ($0 - 32) * 5 / 9 }),
        "mmol<180.1558800000541>/L": ("mg/dL", { $0 * 18.01558800000541 }), "cm": ("m", { $0 / 100 }),
        "ft": ("m", { $0 * 0.3048 }), "in": ("m", { $0 * 0.0254 }), "km/hr": ("m/s", { $0 / 3.6 }),
    ]

    @Test func convertedValuesMatchIndependentFactors() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let export = try GeneratedExport.realistic(.ios16).path
        let database = directory.file("h.sqlite")
        // Dedup off, so every record the stage converted is a row here.
        var job = ImportJob(inputPath: export, databasePath: database, timeZone: TimeZone(identifier: "UTC")!)
        job.storeOptions.dropExactDuplicates = false
        job.storeOptions.keepHighestSyncVersion = false
        let summary = try job.run()
        let db = try SQLiteConnection(path: database, create: false)
        var checked = 0
        for table in ["cumulative_samples", "discrete_samples"] {
            let rows = try db.query("SELECT raw_unit, unit, raw_value, value FROM \(table) WHERE raw_unit <> unit")
            for row in rows {
                guard case .text(let rawUnit) = row[0], case .text(let unit) = row[1], case .real(let raw) = row[2],
                    case .real(let value) = row[3]
                else { continue }
                let factor = try #require(Self.factors[rawUnit], "no independent factor for \(rawUnit)")
                #expect(factor.to == unit)
                #expect(
                    abs(factor.convert(raw) - value) <= 1e-9 * max(1, abs(value)),
                    "\(raw) \(rawUnit) → \(value) \(unit)")
                checked += 1
            }
        }
        #expect(checked > 0)
        // The stage's own report counts exactly the rows it converted.
        let reported = summary.stages["units"]?.filter { $0.key.hasPrefix("records converted") }.values.reduce(0, +)
        #expect(reported == checked)
        #expect(summary.flagged["unit_not_convertible"] == nil)
        // Every quantity of a catalogued type ends in its canonical unit.
        let off = try db.scalar(
            "SELECT count(*) FROM discrete_samples WHERE type = 'HKQuantityTypeIdentifierBodyMass' AND unit <> 'kg'")
        #expect(off == .integer(0))
    }
}
