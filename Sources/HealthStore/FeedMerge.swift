import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// Where a feed point goes (`SQLiteSink.placeFeedPoint`).
enum FeedPlacement {
    /// Not stored: the last export covers its time.
    case skip
    /// Already in the database as it is (this row).
    case kept(Int64)
    /// Stored as a new row.
    case insert
}

/// The merge rule of Health Auto Export's feed (docs/incremental.md), as the sink applies it:
///
/// - per type, the newest full export covers everything up to its `ExportDate`; a feed point that starts
///   before it is not stored (`cutoff`);
/// - a feed file covers, per type, the time from its first point to its last; feed rows already stored in that
///   time are replaced by the file's points (kept when identical), never added to. So the same file twice
///   changes nothing, and the day a daily automation sends again replaces the day it sent before;
/// - an export run retires the feed rows before its `ExportDate` (`deleted_samples`, reason
///   `feed_superseded`): its own rows are the complete version of that time.
///
/// Rows are found through the `_feed` partial indexes (`FeedSchema`), so a database of exports only pays nothing.
struct FeedMerge {
    /// The newest `ExportDate` imported (UTC seconds): the feed fills only what lies after it.
    let cutoff: Int64?
    let cutoffText: String?
    private let connection: SQLiteConnection
    private var statements: [String: SQLiteStatement] = [:]
    /// Per type: the newest feed start in the database, this run's rows included.
    private var newest: [String: Int64] = [:]
    /// The table of each type met in this run.
    var tables: [String: TrackedTable] = [:]
    /// Per tracked table: the last id given out before the current file (its own rows are above it).
    var fileFirstID = [Int64](repeating: Int64.max, count: TrackedTable.allCases.count)
    /// Per type: the newest start inserted from the current file.
    private(set) var fileNewest: [String: Int64] = [:]
    /// The last type's newest starts, kept out of the dictionaries while its points stream in (a feed comes
    /// metric by metric): the common point costs no hash lookup.
    private var cached: (type: String, newest: Int64, fileNewest: Int64)?
    /// Per tracked table: rows of earlier files or runs that the current file repeated exactly. A bit per row
    /// id, not a list: a year of per-minute feed sent again repeats a million rows (a list of them and the set
    /// made of it at the file's end took 30 MB).
    var kept = [SeenRows](repeating: SeenRows(), count: TrackedTable.allCases.count)
    /// What the rule did, for the summary.
    var beforeExport = 0
    var duplicatesInFile = 0
    var resent = 0
    var inserted = 0
    var unchanged = 0

    init(_ connection: SQLiteConnection) throws {
        self.connection = connection
        let text = try connection.scalar(
            "SELECT max(export_date) FROM import_runs WHERE outcome IN ('ok', 'unchanged')"
        ).text
        cutoffText = text
        cutoff = text.flatMap { text in
            Array(text.utf8).withUnsafeBufferPointer { TimestampFormatting.parseUTC($0) }
        }
    }

    private mutating func statement(_ sql: String) throws -> SQLiteStatement {
        if let prepared = statements[sql] { return prepared }
        let prepared = try connection.prepare(sql)
        statements[sql] = prepared
        return prepared
    }

    /// A point of the cached type later than every feed row of it: noted, true; else false.
    @inline(__always) mutating func insertsInOrder(_ type: String, start: Int64) -> Bool {
        guard let cached, cached.type == type, start > cached.newest else { return false }
        self.cached = (type, start, max(cached.fileNewest, start))
        inserted += 1
        return true
    }

    /// Puts the cached type's starts back into the dictionaries.
    mutating func flushCache() {
        guard let cached else { return }
        newest[cached.type] = cached.newest
        fileNewest[cached.type] = cached.fileNewest
        self.cached = nil
    }

    mutating func resetFile() {
        flushCache()
        fileNewest = [:]
        kept = [SeenRows](repeating: SeenRows(), count: TrackedTable.allCases.count)
    }

    /// The newest feed start of `type` in the database (Int64.min for none), read once per run.
    mutating func newestStart(_ type: String, table: TrackedTable) throws -> Int64 {
        flushCache()
        if let known = newest[type] { return known }
        let query = try statement(
            "SELECT max(start_date) FROM \"\(table.name)\" WHERE origin = 1 AND \(table.typeColumn) = ?1")
        query.bind(1, type)
        var found = Int64.min
        try query.forEachRow { row in found = row.utcSeconds(0) ?? Int64.min }
        newest[type] = found
        return found
    }

    mutating func noteInsert(_ type: String, start: Int64) {
        flushCache()
        cached = (type, max(newest[type] ?? Int64.min, start), max(fileNewest[type] ?? Int64.min, start))
        inserted += 1
    }

    /// The newest start of `type` inserted from the current file.
    mutating func newestInFile(_ type: String) -> Int64 {
        flushCache()
        return fileNewest[type] ?? Int64.min
    }

    /// A feed row that says exactly what the point says.
    mutating func identical(_ table: TrackedTable, type: String, start: Int64, identity: Int64) throws -> Int64? {
        let query = try statement(
            "SELECT id FROM \"\(table.name)\" WHERE start_date = ?1 AND type = ?2 AND identity = ?3 AND origin = 1")
        query.bind(1, TimestampFormatting.utcString(start))
        query.bind(2, type)
        query.bind(3, identity)
        return try query.firstInteger()
    }

    /// The feed rows of `type` starting at `start`: (id, category value).
    mutating func rows(_ table: TrackedTable, type: String, start: Int64) throws -> [(Int64, String?)] {
        let query = try statement(
            "SELECT id, \(table == .category ? "value" : "NULL") FROM \"\(table.name)\" "
                + "WHERE start_date = ?1 AND type = ?2 AND origin = 1")
        query.bind(1, TimestampFormatting.utcString(start))
        query.bind(2, type)
        var found: [(Int64, String?)] = []
        try query.forEachRow { found.append(($0.integer(0), $0.text(1))) }
        return found
    }

    /// The feed rows of `type` whose start lies in [from, through].
    mutating func rows(
        _ table: TrackedTable, type: String, from: Int64, through: Int64, where include: (Int64) -> Bool
    ) throws -> [Int64] {
        let typed = table == .workouts ? "?3 IS NOT NULL" : "type = ?3"
        let query = try statement(
            "SELECT id FROM \"\(table.name)\" WHERE start_date >= ?1 AND start_date <= ?2 AND \(typed) "
                + "AND origin = 1")
        query.bind(1, TimestampFormatting.utcString(from))
        query.bind(2, TimestampFormatting.utcString(through))
        query.bind(3, type)
        // In id order, sorted here among the few kept rather than by SQLite among all (its sorter took 16 MB
        // when a year of per-minute feed was sent again).
        return try query.integers(where: include).sorted()
    }

    /// A feed workout with this identity.
    mutating func identicalWorkout(_ identity: Int64) throws -> Int64? {
        let query = try statement("SELECT id FROM workouts WHERE identity = ?1 AND origin = 1 ORDER BY id")
        query.bind(1, identity)
        return try query.firstInteger()
    }

    /// The feed rows of a table that start before `date` (UTC text), in id order.
    mutating func rows(_ table: TrackedTable, before date: String) throws -> [Int64] {
        let query = try statement(
            "SELECT id FROM \"\(table.name)\" WHERE start_date < ?1 AND origin = 1 ORDER BY id")
        query.bind(1, date)
        return try query.integers()
    }
}

extension SQLiteSink {
    /// Whether `state_of_mind` holds this entry already (same id, or same source and start): the feed sends
    /// an entry again in every file that covers its day.
    func feedHasStateOfMind(_ entry: StateOfMindEntry) throws -> Bool {
        let found: SQLiteValue
        if let identifier = entry.identifier {
            found = try connection.scalar("SELECT 1 FROM state_of_mind WHERE identifier = ?1", [.text(identifier)])
        } else {
            found = try connection.scalar(
                "SELECT 1 FROM state_of_mind WHERE source_name = ?1 AND start_date IS ?2",
                [
                    .text(entry.source),
                    entry.startDate.map { .text(TimestampFormatting.utcString($0.seconds)) } ?? .null,
                ])
        }
        return found != .null
    }

    /// The `origin` of the rows this run writes.
    var feedOrigin: Int64 { options.feed ? 1 : 0 }

    /// Where a feed point goes. The common case, a point later than every feed row of its type, costs no
    /// lookup; an earlier one is looked up (an identical row is kept; a second point at the same start in the
    /// same file replaces the first).
    func placeFeedPoint(_ sample: Sample, table: TrackedTable, identity: Int64) throws -> FeedPlacement {
        guard let start = sample.startDate?.seconds else { return .insert }
        if let cutoff = feedMerge.cutoff, start < cutoff {
            feedMerge.beforeExport += 1
            return .skip
        }
        let type = sample.type
        if feedMerge.insertsInOrder(type, start: start) { return .insert }
        if feedMerge.tables[type] == nil { feedMerge.tables[type] = table }
        if start > (try feedMerge.newestStart(type, table: table)) {
            feedMerge.noteInsert(type, start: start)
            return .insert
        }
        if let id = try feedMerge.identical(table, type: type, start: start, identity: identity) {
            keepFeedRow(table, id: id, type: type, start: sample.startDate, end: sample.endDate, identity: identity)
            return .kept(id)
        }
        if start <= feedMerge.newestInFile(type) {
            for (id, value) in try feedMerge.rows(table, type: type, start: start)
            where id > feedMerge.fileFirstID[table.rawValue] && (table != .category || value == sample.textValue) {
                try removeFeedRow(table, id: id, reason: .feedResent)
                feedMerge.duplicatesInFile += 1
            }
        }
        feedMerge.noteInsert(type, start: start)
        return .insert
    }

    /// Whether a feed workout is to be written: not when the last export covers its start, nor when the
    /// database has it already.
    func placeFeedWorkout(_ workout: Workout, identity: Int64) throws -> Bool {
        guard let start = workout.startDate?.seconds else { return true }
        if let cutoff = feedMerge.cutoff, start < cutoff {
            feedMerge.beforeExport += 1
            return false
        }
        let type = TrackedTable.workoutType
        feedMerge.tables[type] = .workouts
        if let id = try feedMerge.identicalWorkout(identity) {
            keepFeedRow(
                .workouts, id: id, type: workout.activityType, start: workout.startDate, end: workout.endDate,
                identity: identity)
            _ = feedMerge.kept[TrackedTable.workouts.rawValue].insert(id)
            return false
        }
        feedMerge.inserted += 1
        return true
    }

    private func keepFeedRow(
        _ table: TrackedTable, id: Int64, type: String, start: Timestamp?, end: Timestamp?, identity: Int64
    ) {
        if previous.isActive, previous.tables[table.rawValue].isPrevious(id),
            previous.tables[table.rawValue].seen.insert(id)
        {
            ledger.countUnchanged(table, type: type, identity: identity, start: start, end: end, creation: nil)
            feedMerge.unchanged += 1
        }
        if table != .workouts { _ = feedMerge.kept[table.rawValue].insert(id) }
    }

    /// Takes a feed row out: an earlier run's is archived in `deleted_samples` with `reason` and counted as
    /// replaced; one of this run (an earlier file) simply leaves again.
    private func removeFeedRow(_ table: TrackedTable, id: Int64, reason: RemovalReason) throws {
        guard let removed = try remover.remove(table, id: id, reason: reason, previous: &previous) else { return }
        if removed.wasPrevious {
            ledger.countFeedReplaced(removed, table: table)
        } else {
            ledger.uncount(removed, table: table)
            count(WrittenTable(table), -1)
        }
    }

    /// Starts a feed file: rows written from here on are the file's own.
    public func beginFeedFile() {
        feedMerge.fileFirstID = [ids.cumulative, ids.discrete, ids.category, ids.correlation, ids.workout]
        feedMerge.resetFile()
    }

    /// Ends a feed file: per type, the feed rows of earlier files or runs inside the time the file covers
    /// (`spans`: its first and last start per type) that it did not repeat are replaced by its points.
    public func endFeedFile(spans: [String: (start: Int64, end: Int64)]) throws {
        do {
            for (type, span) in spans.sorted(by: { $0.key < $1.key }) {
                guard let table = feedMerge.tables[type] else { continue }
                let from = max(span.start, feedMerge.cutoff ?? Int64.min)
                guard from <= span.end else { continue }
                // Only the rows to replace are collected: a file sent again repeats all of them.
                let (fileFirstID, kept) = (feedMerge.fileFirstID[table.rawValue], feedMerge.kept[table.rawValue])
                let replaced = try feedMerge.rows(table, type: type, from: from, through: span.end) { id in
                    id <= fileFirstID && !kept.contains(id)
                }
                for id in replaced {
                    try removeFeedRow(table, id: id, reason: .feedResent)
                    feedMerge.resent += 1
                }
            }
        } catch let error as SQLiteError {
            throw runError(error)
        }
    }

    /// The end of a run. A feed run reports what the rule did; an export run retires the feed rows its
    /// `ExportDate` covers (unless the export itself met them).
    func finishFeedMerge(_ summary: inout ImportSummary) throws {
        if options.feed {
            var report: [String: Int] = [:]
            if feedMerge.beforeExport > 0 {
                summary.warnings[
                    "feed points before the last export's ExportDate \(feedMerge.cutoffText ?? "") "
                        + "(the export covers them; not stored)"] = feedMerge.beforeExport
                if feedMerge.inserted == 0 && feedMerge.unchanged == 0 && feedMerge.resent == 0 {
                    summary.warnings[
                        "this feed lies entirely before the last export (ExportDate \(feedMerge.cutoffText ?? "")): "
                            + "nothing changed"] = 1
                }
            }
            if feedMerge.resent > 0 {
                report["feed rows sent again by a later file, replaced (earlier runs' in deleted_samples)"] =
                    feedMerge.resent
            }
            if feedMerge.duplicatesInFile > 0 {
                report["points given twice in one file (the later kept)"] = feedMerge.duplicatesInFile
            }
            if !report.isEmpty { summary.stages["feed", default: [:]].merge(report, uniquingKeysWith: +) }
            return
        }
        guard let exportDate = summary.exportDate, previous.isActive else { return }
        var retired = 0
        for table in [TrackedTable.cumulative, .discrete, .category] {
            for (type, count, earliest) in try remover.removeFeedRows(
                table, before: exportDate, reason: .feedSuperseded)
            {
                ledger.countFeedReplaced(type: type, table: table, count: count, earliest: earliest)
                previous.tables[table.rawValue].previousCount -= count
                retired += count
            }
        }
        // Workouts, few, go one by one: statistics, events and metadata hang off them.
        for id in try feedMerge.rows(.workouts, before: exportDate)
        where !previous.tables[TrackedTable.workouts.rawValue].seen.contains(id) {
            try removeFeedRow(.workouts, id: id, reason: .feedSuperseded)
            retired += 1
        }
        if retired > 0 {
            summary.stages["feed", default: [:]][
                "feed rows this export covers, replaced by its own (in deleted_samples)"] = retired
        }
    }
}
