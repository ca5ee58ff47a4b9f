import Foundation
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
    }

    static let zone = TimeZone(identifier: "Europe/Berlin")

    /// Writes `items` into `database` by `path` and finishes the run.
    static func write(
        _ items: [ExportItem], into database: String, by path: Path, options: SQLiteSink.Options = .init()
    ) throws -> Outcome {
        let sink = try SQLiteSink(path: database, timeZone: zone, options: options)
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
        let summary = try sink.finish(ImportSummary())
        return Outcome(
            rows: sink.rowsByTable, dropped: sink.dropped, warnings: sink.warnings, unknownTypes: sink.unknownTypes,
            changes: summary.changes)
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
        _ items: () throws -> [ExportItem], options: SQLiteSink.Options = .init(), seed: String? = nil
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

extension ExportItem {
    var isSample: Bool { if case .sample = self { true } else { false } }
}
