import Foundation
import HealthSchema
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import HealthSQLite
@testable import HealthStore
@testable import SampleExports

/// `SQLiteSink.write(_ batch:)` against writing the same items one by one: the same database (every row of
/// every table, ids included), the same ledger, counts, drops, warnings and unknown types.
struct BatchWriteTests {
    enum Path: Equatable {
        case items
        /// Rows per batch; whether the identity pass filled `batch.identity`.
        case batches(rows: Int, identities: Bool)
    }

    /// What a run left besides its tables.
    struct Outcome: Equatable {
        var rows: [String: Int]
        var dropped: [String: Int]
        var warnings: [String: Int]
        var unknownTypes: [String: Int]
        var changes: [String: TypeChanges]
        /// Rows of earlier runs met a day at a time, not looked up one by one.
        var rowsMetByDay = 0
    }

    static let zone = TimeZone(identifier: "Europe/Berlin")

    /// Writes `items` into `database` by `path` and finishes the run.
    static func write(
        _ items: [ExportItem], into database: String, by path: Path, options: SQLiteSink.Options = .init()
    ) throws -> Outcome {
        let sink = try SQLiteSink(path: database, timeZone: zone, options: options)
        if options.feed { sink.beginFeedFile() }
        switch path {
        case .items:
            for item in items { try sink.write(item) }
        case .batches(let rowsPerBatch, let identities):
            var batch = SampleBatch(vocabulary: Vocabulary())
            func flush() throws {
                if identities { SampleIdentity.fillIdentity(&batch) }
                try sink.write(batch, identitiesFilled: identities)
                batch.removeAll(keepingCapacity: true)
            }
            for item in items {
                batch.append(item)
                if batch.rowCount == rowsPerBatch { try flush() }
            }
            try flush()
        }
        if options.feed { try sink.endFeedFile(spans: [:]) }
        let summary = try sink.finish(ImportSummary())
        return Outcome(
            rows: sink.rowsByTable, dropped: sink.dropped, warnings: sink.warnings, unknownTypes: sink.unknownTypes,
            changes: summary.changes, rowsMetByDay: sink.rowsMetByDay)
    }

    /// The tables `dataContent` compares, and the run's ledger.
    static func content(_ database: String) throws -> [String: [[SQLiteValue]]] {
        var content = try dataContent(of: database)
        let connection = try SQLiteConnection(path: database, create: false)
        content["import_run_changes"] = try connection.query("SELECT * FROM import_run_changes ORDER BY 1, 2, 3, 4")
        return content
    }

    static func generatedExport(_ profile: ExportProfile, days: Int = 3) throws -> String {
        var options = GeneratorOptions(seed: 5, days: days, profile: profile)
        options.scale = 0.3
        return try GeneratedExport.zip(options).path
    }

    static let paths: [Path] = [
        .batches(rows: SampleBatch.rowCapacity, identities: true), .batches(rows: 97, identities: false),
        .batches(rows: 1, identities: true),
    ]

    /// Differences between the item path's database and each batch path's, by table. `items` is read again for
    /// each path: a document item streams its entry once.
    static func differences(
        _ items: () throws -> [ExportItem], options: SQLiteSink.Options = .init(), seed: String? = nil,
        paths: [Path] = paths
    ) throws -> [String] {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        func database(_ name: String) throws -> String {
            let path = directory.file(name)
            if let seed { try FileManager.default.copyItem(atPath: seed, toPath: path) }
            return path
        }
        let reference = try database("items.sqlite")
        let expected = try write(try items(), into: reference, by: .items, options: options)
        let expectedContent = try content(reference)
        var found: [String] = []
        for (index, path) in paths.enumerated() {
            let target = try database("batches-\(index).sqlite")
            let outcome = try write(try items(), into: target, by: path, options: options)
            for (name, a, b) in [
                ("rows", outcome.rows, expected.rows), ("dropped", outcome.dropped, expected.dropped),
                ("warnings", outcome.warnings, expected.warnings),
                ("unknown types", outcome.unknownTypes, expected.unknownTypes),
            ] where a != b {
                found.append("\(path): \(name) \(a) ≠ \(b)")
            }
            if outcome.changes != expected.changes { found.append("\(path): the ledger's changes differ") }
            let actual = try content(target)
            for table in Set(expectedContent.keys).union(actual.keys).sorted()
            where actual[table] != expectedContent[table] {
                found.append("\(path): \(table) differs (\(actual[table]?.count ?? 0) rows)")
            }
        }
        return found
    }

    @Test(arguments: ExportProfile.allCases)
    func aFirstImportOfAGeneratedExportEqualsTheItemPath(_ profile: ExportProfile) throws {
        let export = try Self.generatedExport(profile)
        #expect(try readAllItems(export).items.samples.count > 30)
        let found = try Self.differences { try readAllItems(export).items }
        #expect(found.isEmpty, "\(found.prefix(8))")
    }

    /// `generate-export --seed 7 --target-mb 20` (52 k samples), as the decoder's batches carry them.
    @Test func aGenerated20MBExportEqualsTheItemPath() throws {
        var options = GeneratorOptions(seed: 7, days: 30)
        options.targetXMLBytes = 20 * 1_048_576
        let export = try GeneratedExport.zip(options).path
        let found = try Self.differences(
            { try readAllItems(export).items }, paths: [.batches(rows: SampleBatch.rowCapacity, identities: true)])
        #expect(found.isEmpty, "\(found.prefix(8))")
    }

    @Test func keptDuplicatesEqualTheItemPath() throws {
        let export = try Self.generatedExport(.ios18)
        var options = SQLiteSink.Options()
        options.dropExactDuplicates = false
        options.keepHighestSyncVersion = false
        // Every sample twice: the kept copies take the next identities.
        let found = try Self.differences(
            {
                let items = try readAllItems(export).items
                return items + items.filter { $0.isSample }
            }, options: options)
        #expect(found.isEmpty, "\(found.prefix(8))")
    }
}

/// Re-imports, the feed and a failing row through batches.
extension BatchWriteTests {
    /// A body-mass sample of `source` with a sync identifier and version.
    static func synced(_ identifier: String, version: Int, value: Double, source: SampleSource) -> ExportItem {
        var sample = Sample(type: "HKQuantityTypeIdentifierBodyMass", source: source, line: 1)
        sample.unit = "kg"
        sample.value = value
        sample.startDate = Timestamp.parse("2024-01-02 08:00:00 +0100")
        sample.endDate = sample.startDate
        sample.metadata = [
            MetadataEntry(key: "HKMetadataKeySyncIdentifier", value: identifier),
            MetadataEntry(key: "HKMetadataKeySyncVersion", value: String(version)),
            MetadataEntry(key: "HKTimeZone", value: "America/New_York"),
            MetadataEntry(key: "HKWasUserEntered", value: "1"),
        ]
        return .sample(sample)
    }

    /// A first import of three days (with two synced samples), then five days without every 40th sample (rows
    /// deleted), with one synced sample at a higher version and one at the same version saying something else
    /// (both replace their rows), and every sample once more (matched rows, drops).
    @Test func aReimportWithReplacementsAndDeletionsEqualsTheItemPath() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.file("seed.sqlite")
        let scale = SampleSource(id: 900, name: "Scale", version: "2", device: nil)
        _ = try Self.write(
            try readAllItems(Self.generatedExport(.ios18)).items
                + [
                    Self.synced("s-1", version: 1, value: 70, source: scale),
                    Self.synced("s-2", version: 3, value: 71, source: scale),
                ], into: seed, by: .items)
        let later = try Self.generatedExport(.ios18, days: 5)
        func items() throws -> [ExportItem] {
            var sampleIndex = 0
            let items = try readAllItems(later).items.filter { item in
                guard item.isSample else { return true }
                sampleIndex += 1
                return sampleIndex % 40 != 0
            }
            let again = SampleSource(id: 900, name: "Scale", version: "2", device: nil)
            return items + items.filter { $0.isSample }.prefix(500)
                + [
                    Self.synced("s-1", version: 2, value: 69, source: again),
                    Self.synced("s-2", version: 3, value: 72, source: again),
                ]
        }
        let found = try Self.differences(items, seed: seed)
        #expect(found.isEmpty, "\(found.prefix(8))")
        // The run does what the test means it to: rows deleted, replaced, unchanged and dropped.
        let check = directory.file("check.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: check)
        let outcome = try Self.write(try items(), into: check, by: .items)
        #expect(outcome.changes.values.contains { $0.deleted > 0 })
        #expect(outcome.changes.values.contains { $0.unchanged > 0 })
        #expect(outcome.changes["HKQuantityTypeIdentifierBodyMass"]?.replaced == 2)
        #expect(outcome.dropped.values.reduce(0, +) > 0)
    }

    /// The next export: the same three days and two more, with one heart rate of the first day gone and one of
    /// the second day changed. The earlier rows are met a day at a time (`EarlierDays`), the changed sample
    /// goes the whole way; the database and the ledger are the item path's, which looks each row up.
    @Test func unchangedDaysAreMetAtOnceAndChangedDaysRowByRow() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.file("seed.sqlite")
        let first = try readAllItems(Self.generatedExport(.ios18)).items
        _ = try Self.write(first, into: seed, by: .items)
        let later = try Self.generatedExport(.ios18, days: 5)
        let day = 86_400 as Int64
        let starts = first.samples.compactMap { $0.startDate?.seconds }
        let firstStart = try #require(starts.min())
        func items() throws -> [ExportItem] {
            var removed = false
            var changed = false
            return try readAllItems(later).items.compactMap { item in
                guard case .sample(var sample) = item, let start = sample.startDate?.seconds,
                    sample.type == "HKQuantityTypeIdentifierHeartRate"
                else { return item }
                if !removed, start < firstStart + day {
                    removed = true
                    return nil
                }
                if !changed, start >= firstStart + day, start < firstStart + 2 * day, let value = sample.value {
                    changed = true
                    sample.value = value + 1
                    return .sample(sample)
                }
                return item
            }
        }
        let found = try Self.differences(items, seed: seed)
        #expect(found.isEmpty, "\(found.prefix(8))")
        let check = directory.file("check.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: check)
        let outcome = try Self.write(
            try items(), into: check, by: .batches(rows: SampleBatch.rowCapacity, identities: true))
        let unchanged = outcome.changes.values.reduce(0) { $0 + $1.unchanged }
        #expect(outcome.changes["HKQuantityTypeIdentifierHeartRate"]?.deleted == 2)
        #expect(outcome.changes["HKQuantityTypeIdentifierHeartRate"]?.added ?? 0 > 1)
        // The unchanged samples met by day (workouts and correlations, unchanged too, are matched by identity).
        #expect(outcome.rowsMetByDay > unchanged * 9 / 10, "\(outcome.rowsMetByDay) of \(unchanged)")
        #expect(outcome.rowsMetByDay <= unchanged, "\(outcome.rowsMetByDay) of \(unchanged)")
        let itemCheck = directory.file("items.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: itemCheck)
        #expect(try Self.write(try items(), into: itemCheck, by: .items).rowsMetByDay == 0)
    }

    @Test func aFeedRunEqualsTheItemPath() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.file("seed.sqlite")
        _ = try Self.write(try readAllItems(Self.generatedExport(.ios18)).items, into: seed, by: .items)
        let later = try Self.generatedExport(.ios18, days: 5)
        var options = SQLiteSink.Options()
        options.feed = true
        let found = try Self.differences(
            { try readAllItems(later).items.filter { $0.isSample } }, options: options, seed: seed)
        #expect(found.isEmpty, "\(found.prefix(8))")
    }

    /// A row that fails in the middle of a batch: the same error, and the rows written before it (and the
    /// failing row's source) counted as the item path counts them.
    @Test func aFailingRowReportsWhatWasWrittenBeforeIt() throws {
        let items = Array(try readAllItems(Self.generatedExport(.ios18)).items.prefix(300))
        // The last sample with a value and metadata: rows of every kind come before it.
        let failing = items.lastIndex {
            if case .sample(let sample) = $0 { sample.value != nil && !sample.metadata.isEmpty } else { false }
        }
        let index = try #require(failing)
        guard case .sample(var poisoned) = items[index] else { return }
        poisoned.value = 12_345.5
        poisoned.source = SampleSource(id: 901, name: "Poison", version: nil, device: nil)
        let written = Array(items[..<index]) + [.sample(poisoned)] + Array(items[(index + 1)...])
        var outcomes: [[String: Int]] = []
        var errors: [String] = []
        for path in [Path.items, .batches(rows: SampleBatch.rowCapacity, identities: true)] {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let sink = try SQLiteSink(path: directory.file("health.sqlite"), timeZone: Self.zone)
            for table in TrackedTable.sampleTables {
                try sink.connection.execute(
                    """
                    CREATE TEMP TRIGGER fail_\(table.storageName) BEFORE INSERT ON \(table.storageName)
                    WHEN NEW.value = 12345.5 BEGIN SELECT RAISE(ABORT, 'poisoned row'); END
                    """)
            }
            do {
                switch path {
                case .items: for item in written { try sink.write(item) }
                case .batches:
                    var batch = SampleBatch(vocabulary: Vocabulary())
                    for item in written { batch.append(item) }
                    SampleIdentity.fillIdentity(&batch)
                    try sink.write(batch, identitiesFilled: true)
                }
                Issue.record("no error")
            } catch {
                errors.append("\(error)".replacingOccurrences(of: directory.file(""), with: ""))
            }
            outcomes.append(sink.rowsByTable)
            sink.abort(recording: CancellationError(), summary: ImportSummary())
        }
        #expect(errors.count == 2 && errors[0] == errors[1] && errors[0].contains("poisoned row"), "\(errors)")
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[0]["sources", default: 0] > 1 && outcomes[0].values.reduce(0, +) > 100, "\(outcomes[0])")
    }
}

extension ExportItem {
    var isSample: Bool { if case .sample = self { true } else { false } }
}
