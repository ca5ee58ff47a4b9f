import Foundation
import HealthModel
import HealthRollups
import HealthSQLite
import HealthSchema

/// Which rollups a run builds, and how overlapping sources are resolved (docs/rollups.md).
public struct RollupOptions: Codable, Sendable, Equatable {
    /// Hourly rollups of ten years are millions of rows, so they are asked for, not built by default.
    public var periods: [RollupPeriod] = [.day, .week, .month]
    public var priority: SourcePriority = .default
    /// Per type identifier, replacing `priority` for that type.
    public var priorityByType: [String: SourcePriority] = [:]

    public init() {}
}

extension RollupPeriod: Codable {}

extension SourcePriority: Codable {
    public init(from decoder: Decoder) throws {
        let words = try decoder.singleValueContainer().decode([String].self)
        do {
            try self.init(parsing: words)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(words)
    }
}

/// Builds the `rollups` table from the sample tables, one type at a time, streaming: samples come sorted
/// by start from the (type, start_date, identity) index, go through a `RollupEngine`, and its rows are
/// inserted as they come.
enum RollupTables {
    /// Sample flags that make a sample unusable in a statistic: no or unreadable dates, no value or unit,
    /// an unreadable unit. (Start after end is kept: it counts as an instant.)
    static let unusableQuantity: Int64 = 2 | 4 | 32 | 64 | 128 | 256
    static let unusableCategory: Int64 = 2 | 4 | 32

    /// What a re-import changed in one type: its rollups from `from` on are computed again; a sample that
    /// starts up to `lookback` seconds earlier can still reach into them.
    struct Refresh {
        var table: String
        var from: Int64
        var lookback: Int64
    }

    /// The page cache of each read-only connection of a parallel pass.
    static let readerCacheKiB = 256
    /// Rows a reader's worker may hold for the inserting thread to take. Unbounded, they piled up to ~10 MB
    /// on a 1.2 GB export: two readers compute rows faster than one connection inserts them.
    static let parallelOutboxRowLimit = 4096

    /// The sample tables and the kind of sample each holds.
    static let sampleTables: [(String, TypeCatalog.SampleKind)] = [
        ("cumulative_samples", .cumulative), ("discrete_samples", .discrete), ("category_samples", .category),
    ]

    /// Replaces the rollups (all of them, or with `only`, those of the changed types from their first change
    /// on); returns the number of rows written.
    ///
    /// `sharedPath`: the database file, committed and in WAL mode, for read-only connections that read the
    /// samples on other threads (a new database's full rebuild; see `SQLiteTarget.shareLoadedRows`).
    /// `rowsByType` then hands out the largest types first. The rows are the same either way; only the order
    /// they are inserted in (their rowids) differs.
    @discardableResult
    static func rebuild(
        _ connection: SQLiteConnection, timeZone: TimeZone, options: RollupOptions, only: [String: Refresh]? = nil,
        sharedPath: String? = nil, rowsByType: [String: Int] = [:]
    ) throws -> Int {
        if let only {
            let delete = try connection.prepare("DELETE FROM rollups WHERE type = ?1 AND period_start >= ?2")
            for (type, refresh) in only { try delete.run([.text(type), .text(utcText(refresh.from))]) }
            try connection.execute("DELETE FROM rollups WHERE type = 'StateOfMind'")
        } else {
            try connection.execute("DELETE FROM rollups")
        }
        guard !options.periods.isEmpty else {
            try BaselineTable.update(connection, only: nil)
            return 0
        }
        var sources: RollupFeed.Sources = [:]
        let sourceRows = try connection.prepare("SELECT id, name, device_model FROM sources")
        try sourceRows.forEachRow { sources[$0.integer(0)] = ($0.text(1) ?? "", $0.text(2)) }
        var jobs = try jobs(connection, only: only)
        if sharedPath != nil {
            // Largest first, so the readers end about together (ties keep their order: the same run each time).
            jobs = jobs.enumerated().sorted { first, second in
                let (a, b) = (rowsByType[first.element.type, default: 0], rowsByType[second.element.type, default: 0])
                return a != b ? a > b : first.offset < second.offset
            }.map(\.element)
        }
        let queue = RollupJobQueue(jobs)
        var writer = try RowWriter(connection)
        if let sharedPath {
            try readInParallel(
                from: sharedPath, jobs: queue, options: options, sources: sources, timeZone: timeZone, writer: &writer)
        } else {
            try read(connection, jobs: queue, options: options, sources: sources, timeZone: timeZone, writer: &writer)
        }
        try rollUpStateOfMind(connection, timeZone: timeZone, options: options, writer: &writer)
        try BaselineTable.update(connection, only: only)
        return writer.written
    }

    /// The pass on the importing connection alone: it reads the samples and inserts the rows the worker
    /// computes from them meanwhile.
    static func read(
        _ connection: SQLiteConnection, jobs: RollupJobQueue, options: RollupOptions, sources: RollupFeed.Sources,
        timeZone: TimeZone, writer: inout RowWriter
    ) throws {
        let feed = try RollupFeed(connection, options: options, sources: sources)
        let worker = RollupWorker(periods: options.periods, timeZone: timeZone)
        do {
            while !worker.hasFailed, let job = jobs.take() {
                try feed.feed(job, to: worker) { for output in worker.takeOutput() { try writer.write(output) } }
            }
        } catch {
            _ = try? worker.finish()
            throw error
        }
        for output in try worker.finish() { try writer.write(output) }
    }

    /// The pass of a new database: two read-only connections read the samples on threads of their own, and
    /// the importing connection only inserts the rows. Reading is ~85 % of the pass (measured) and one
    /// SQLite connection reads on one thread; at this point of an import the decoder's core is free.
    static func readInParallel(
        from path: String, jobs: RollupJobQueue, options: RollupOptions, sources: RollupFeed.Sources,
        timeZone: TimeZone, writer: inout RowWriter
    ) throws {
        // The load's freed memory goes back to the system first: the readers and their workers allocate in
        // malloc arenas of their own, which cannot reuse what the load's threads freed in theirs.
        _ = mallocTrim(0)
        let readers = (0..<2).map { _ in
            RollupReader(path: path, jobs: jobs, options: options, sources: sources, timeZone: timeZone)
        }
        do {
            for reader in readers {
                while try !reader.waitUntilDone(seconds: 0.005) {
                    for reader in readers { for output in reader.worker.takeOutput() { try writer.write(output) } }
                }
            }
            for reader in readers { for output in try reader.worker.finish() { try writer.write(output) } }
        } catch {
            jobs.cancel()
            // The error to report is the one that stopped the pass: a reader that failed cancels the jobs, and
            // the other then stops with a CancellationError, which may be the first one joined here.
            var cause: Error? = error is CancellationError ? nil : error
            for reader in readers {
                reader.worker.cancel()
                var ended = false
                while !ended {
                    do { ended = try reader.waitUntilDone(seconds: 1) } catch {
                        if cause == nil && !(error is CancellationError) { cause = error }
                        ended = true
                    }
                }
            }
            throw cause ?? error
        }
    }

    /// Every type to roll up (with `only`, the changed ones), in table order, then by name.
    static func jobs(_ connection: SQLiteConnection, only: [String: Refresh]?) throws -> [RollupJob] {
        var jobs: [RollupJob] = []
        for (table, kind) in sampleTables {
            var names: [String] = []
            if let only {
                names = only.filter { $0.value.table == table }.keys.sorted()
            } else {
                let types = try connection.prepare(DataTypesTable.typesOfSampleTable(table))
                try types.forEachRow { names.append($0.text(0) ?? "") }
            }
            jobs += names.map { RollupJob(table: table, kind: kind, type: $0, refresh: only?[$0]) }
        }
        return jobs
    }

    /// UTC text that sorts like the instants ("" before all of them).
    static func utcText(_ seconds: Int64) -> String {
        seconds == Int64.min ? "" : TimestampFormatting.utcString(max(seconds, -62_135_596_800))
    }

    /// State of Mind: the average of `valence_percent` (the shifted scale as a percent), never of raw valence.
    static func rollUpStateOfMind(
        _ connection: SQLiteConnection, timeZone: TimeZone, options: RollupOptions, writer: inout RowWriter
    ) throws {
        let entries = try connection.prepare(
            """
            SELECT unixepoch(start_date), unixepoch(coalesce(end_date, start_date)), valence_percent, source_name
            FROM state_of_mind WHERE valence_percent IS NOT NULL AND start_date IS NOT NULL ORDER BY start_date
            """)
        var engine = RollupEngine(
            typeIdentifier: "StateOfMind", kind: .discrete, periods: options.periods, timeZone: timeZone)
        var output = RollupWorker.Output(type: "StateOfMind", kind: .discrete, unit: "%", keepFrom: .min, rows: [])
        try entries.forEachRow { row in
            let sample = RollupSample(
                start: row.integer(0), end: row.integer(1), value: row.double(2), sourceName: row.text(3) ?? "",
                sourceClass: 0)
            try engine.add(sample) { output.rows.append($0) }
        }
        engine.finish { output.rows.append($0) }
        try writer.write(output)
    }

    /// Inserts the engine's rows.
    struct RowWriter {
        let insert: SQLiteStatement
        var written = 0

        init(_ connection: SQLiteConnection) throws {
            // swift-format-ignore: NeverForceUnwrap
            insert = try connection.prepare(Schema.tables.first { $0.name == "rollups" }!.insertSQL())
        }

        mutating func write(_ output: RollupWorker.Output) throws {
            for row in output.rows where row.periodStart >= output.keepFrom {
                let rowUnit: String? =
                    switch (output.kind, row.statistic) {
                    case (.category, _): "hr"
                    case (_, RollupStatistic.count): "count"
                    default: output.unit
                    }
                try insert.run([
                    .text(row.period.rawValue), .text(row.label), .text(TimestampFormatting.utcString(row.periodStart)),
                    .text(output.type), .text(row.statistic),
                    .text(metricColumn(type: output.type, statistic: row.statistic)),
                    .real(row.value), rowUnit.map { .text($0) } ?? .null, .text(row.sources.joined(separator: "; ")),
                ])
                written += 1
            }
        }

        /// The metric column's name, worked out once per type and statistic: the name's string search (in
        /// Foundation) was 5 % of the rollup pass when it ran for every row.
        private var columnNames: (type: String, byStatistic: [String: String]) = ("", [:])

        private mutating func metricColumn(type: String, statistic: String) -> String {
            if columnNames.type != type { columnNames = (type, [:]) }
            if let name = columnNames.byStatistic[statistic] { return name }
            let name = RollupNaming.metricColumn(typeIdentifier: type, statistic: statistic)
            columnNames.byStatistic[statistic] = name
            return name
        }
    }
}

/// glibc's `malloc_trim` (in `<malloc.h>`, which the Glibc module does not export): gives the free pages of
/// every malloc arena back to the system.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
