import Foundation
import HealthModel
import HealthRollups
import HealthSQLite

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

    /// Replaces the rollups (all of them, or with `only`, those of the changed types from their first change
    /// on); returns the number of rows written.
    @discardableResult
    static func rebuild(
        _ connection: SQLiteConnection, timeZone: TimeZone, options: RollupOptions, only: [String: Refresh]? = nil
    ) throws -> Int {
        if let only {
            let delete = try connection.prepare("DELETE FROM rollups WHERE type = ?1 AND period_start >= ?2")
            for (type, refresh) in only { try delete.run([.text(type), .text(utcText(refresh.from))]) }
            try connection.execute("DELETE FROM rollups WHERE type = 'StateOfMind'")
        } else {
            try connection.execute("DELETE FROM rollups")
        }
        guard !options.periods.isEmpty else { return 0 }
        var sources: [Int64: (name: String, model: String?)] = [:]
        let sourceRows = try connection.prepare("SELECT id, name, device_model FROM sources")
        try sourceRows.forEachRow { sources[$0.integer(0)] = ($0.text(1) ?? "", $0.text(2)) }
        var writer = try RowWriter(connection)
        let worker = RollupWorker(periods: options.periods, timeZone: timeZone)
        do {
            try sendSamples(connection, only: only, options: options, sources: sources, to: worker, writer: &writer)
        } catch {
            _ = try? worker.finish()
            throw error
        }
        for output in try worker.finish() { try writer.write(output) }
        try rollUpStateOfMind(connection, timeZone: timeZone, options: options, writer: &writer)
        return writer.written
    }

    /// Reads every type's usable samples in start order and hands them to the worker in batches, inserting
    /// the rows it has computed meanwhile.
    static func sendSamples(
        _ connection: SQLiteConnection, only: [String: Refresh]?, options: RollupOptions,
        sources: [Int64: (name: String, model: String?)], to worker: RollupWorker, writer: inout RowWriter
    ) throws {
        let tables: [(String, TypeCatalog.SampleKind)] = [
            ("cumulative_samples", .cumulative), ("discrete_samples", .discrete), ("category_samples", .category),
        ]
        for (table, kind) in tables {
            var names: [String] = []
            if let only {
                names = only.filter { $0.value.table == table }.keys.sorted()
            } else {
                let types = try connection.prepare("SELECT DISTINCT type FROM \"\(table)\"")
                try types.forEachRow { names.append($0.text(0) ?? "") }
            }
            let unusable = kind == .category ? unusableCategory : unusableQuantity
            let samples = try connection.prepare(
                """
                SELECT start_date, end_date, value, source_id, flags, unit FROM "\(table)"
                WHERE type = ?1 AND start_date >= ?2 AND flags & \(unusable) = 0 ORDER BY start_date
                """)
            for type in names {
                let refresh = only?[type]
                let earliest = refresh.map { $0.from == Int64.min ? Int64.min : $0.from - $0.lookback } ?? Int64.min
                samples.bind(1, type)
                samples.bind(2, utcText(earliest))
                let priority = options.priorityByType[type] ?? options.priority
                var classes: [Int64: Int] = [:]
                var batch: [RollupSample] = []
                batch.reserveCapacity(RollupWorker.batchSize)
                var begun = false
                try samples.forEachRow { row in
                    guard let start = row.utcSeconds(0), let end = row.utcSeconds(1) else { return }
                    if !begun {
                        begun = true
                        worker.begin(
                            type: type, kind: kind, unit: kind == .category ? nil : row.text(5),
                            keepFrom: refresh?.from ?? Int64.min)
                    }
                    let sourceID = row.integer(3)
                    let userEntered = row.integer(4) & SQLiteSink.userEnteredFlag != 0
                    let key = sourceID * 2 + (userEntered ? 1 : 0)
                    let source = sources[sourceID] ?? ("", nil)
                    let sourceClass =
                        classes[key]
                        ?? priority.sourceClass(sourceName: source.name, deviceModel: source.model, userEntered: userEntered)
                    classes[key] = sourceClass
                    batch.append(
                        RollupSample(
                            start: start, end: end, value: kind == .category ? 0 : row.double(2),
                            category: kind == .category ? row.text(2) : nil, sourceName: source.name,
                            sourceClass: sourceClass))
                    if batch.count == RollupWorker.batchSize {
                        worker.add(batch)
                        batch.removeAll(keepingCapacity: true)
                        for output in worker.takeOutput() { try writer.write(output) }
                    }
                }
                guard begun else { continue }
                if !batch.isEmpty { worker.add(batch) }
                worker.end()
                for output in worker.takeOutput() { try writer.write(output) }
            }
        }
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
        var engine = RollupEngine(typeIdentifier: "StateOfMind", kind: .discrete, periods: options.periods, timeZone: timeZone)
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
