import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

/// Where a feed point goes (`FeedMerge.place`).
enum FeedPlacement: Equatable {
    /// Not stored: the last export covers its time.
    case skip
    /// Already in the database as it is (this row).
    case kept(Int64)
    /// Stored as a new row.
    case insert
}

/// The merge rule of Health Auto Export's feed (docs/incremental.md), and all of its bookkeeping:
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
final class FeedMerge {
    /// A run of the feed (an export run only retires the feed rows it covers, at its end).
    let isFeed: Bool
    /// The newest `ExportDate` imported (UTC seconds): the feed fills only what lies after it.
    let cutoff: Int64?
    let cutoffText: String?
    private let connection: SQLiteConnection
    private let session: ReimportSession
    /// The feed's rows, found through the `_feed` partial indexes.
    private let feedRows: FeedRows
    /// Per type: the newest feed start in the database, this run's rows included.
    private var newest: [String: Int64] = [:]
    /// The table of each type met in this run.
    private var tables: [String: TrackedTable] = [:]
    /// Per tracked table: the last id given out before the current file (its own rows are above it).
    private var fileFirstID = [Int64](repeating: Int64.max, count: TrackedTable.allCases.count)
    /// Per type: the newest start inserted from the current file.
    private var fileNewest: [String: Int64] = [:]
    /// The last type's newest starts, kept out of the dictionaries while its points stream in (a feed comes
    /// metric by metric): the common point costs no hash lookup.
    private var cached: (type: String, newest: Int64, fileNewest: Int64)?
    /// Per tracked table: rows of earlier files or runs that the current file repeated exactly. A bit per row
    /// id, not a list: a year of per-minute feed sent again repeats a million rows (a list of them and the set
    /// made of it at the file's end took 30 MB).
    private var kept = [SeenRows](repeating: SeenRows(), count: TrackedTable.allCases.count)
    /// What the rule did, for the summary.
    private(set) var beforeExport = 0
    private(set) var duplicatesInFile = 0
    private(set) var resent = 0
    private(set) var inserted = 0
    private(set) var unchanged = 0

    init(_ connection: SQLiteConnection, isFeed: Bool, session: ReimportSession) throws {
        self.connection = connection
        feedRows = FeedRows(connection)
        self.isFeed = isFeed
        self.session = session
        let text = try connection.scalar(
            "SELECT max(export_date) FROM import_runs WHERE outcome IN ('ok', 'unchanged')"
        ).text
        cutoffText = text
        cutoff = text.flatMap { StoredInstant.seconds($0) }
    }

    // MARK: Points and workouts

    /// Where a feed point goes. The common case, a point later than every feed row of its type, costs no
    /// lookup; an earlier one is looked up (an identical row is kept; a second point at the same start in the
    /// same file replaces the first).
    /// A repeated earlier row is reported met, and a row of this run the file replaces, taken out, in `report`.
    func place(_ sample: Sample, table: TrackedTable, identity: Int64, into report: inout WriteReport) throws
        -> FeedPlacement
    {
        guard let start = sample.startDate?.seconds else { return .insert }
        if let cutoff, start < cutoff {
            beforeExport += 1
            return .skip
        }
        let type = sample.type
        if insertsInOrder(type, start: start) { return .insert }
        if tables[type] == nil { tables[type] = table }
        if start > (try newestStart(type, table: table)) {
            noteInsert(type, start: start)
            return .insert
        }
        if let id = try feedRows.identical(table, type: type, start: start, identity: identity) {
            keep(
                table, id: id, type: type, start: sample.startDate, end: sample.endDate, identity: identity,
                into: &report)
            return .kept(id)
        }
        if start <= newestInFile(type) {
            for (id, value) in try feedRows.rows(table, type: type, start: start)
            where id > fileFirstID[table.rawValue] && (table != .category || value == sample.textValue) {
                try session.removeFeedRow(table, id: id, reason: .feedResent, into: &report)
                duplicatesInFile += 1
            }
        }
        noteInsert(type, start: start)
        return .insert
    }

    /// Whether a feed workout is to be written: not when the last export covers its start, nor when the
    /// database has it already.
    func placeWorkout(_ workout: Workout, identity: Int64, into report: inout WriteReport) throws -> Bool {
        guard let start = workout.startDate?.seconds else { return true }
        if let cutoff, start < cutoff {
            beforeExport += 1
            return false
        }
        tables[TrackedTable.workoutType] = .workouts
        if let id = try feedRows.identicalWorkout(identity) {
            keep(
                .workouts, id: id, type: workout.activityType, start: workout.startDate, end: workout.endDate,
                identity: identity, into: &report)
            return false
        }
        inserted += 1
        return true
    }

    /// Whether `state_of_mind` holds this entry already (same id, or same source and start): the feed sends
    /// an entry again in every file that covers its day.
    func hasStateOfMind(_ entry: StateOfMindEntry) throws -> Bool {
        let found: SQLiteValue
        if let identifier = entry.identifier {
            found = try connection.scalar("SELECT 1 FROM state_of_mind WHERE identifier = ?1", [.text(identifier)])
        } else {
            found = try connection.scalar(
                "SELECT 1 FROM state_of_mind WHERE source_name = ?1 AND start_date IS ?2",
                [.text(entry.source), .instant(entry.startDate)])
        }
        return found != .null
    }

    /// A feed row the point repeats exactly: an earlier run's is met (unchanged); either stays.
    private func keep(
        _ table: TrackedTable, id: Int64, type: String, start: Timestamp?, end: Timestamp?, identity: Int64,
        into report: inout WriteReport
    ) {
        if session.markSeen(table, id: id) {
            report.countUnchanged(table, type: type, identity: identity, start: start, end: end, creation: nil)
            unchanged += 1
        }
        _ = kept[table.rawValue].insert(id)
    }

    // MARK: Files

    /// Starts a feed file: rows with ids above `lastIDs` (per tracked table) are the file's own.
    func beginFile(lastIDs: [Int64]) {
        fileFirstID = lastIDs
        flushCache()
        fileNewest = [:]
        kept = [SeenRows](repeating: SeenRows(), count: TrackedTable.allCases.count)
    }

    /// Ends a feed file: per type, the feed rows of earlier files or runs inside the time the file covers
    /// (`spans`: its first and last start per type) that it did not repeat are replaced by its points.
    func endFile(spans: [String: (start: Int64, end: Int64)], into report: inout WriteReport) throws {
        for (type, span) in spans.sorted(by: { $0.key < $1.key }) {
            guard let table = tables[type] else { continue }
            let from = max(span.start, cutoff ?? Int64.min)
            guard from <= span.end else { continue }
            // Only the rows to replace are collected: a file sent again repeats all of them.
            let (fileFirstID, kept) = (fileFirstID[table.rawValue], kept[table.rawValue])
            let replaced = try feedRows.rows(table, type: type, from: from, through: span.end) { id in
                id <= fileFirstID && !kept.contains(id)
            }
            for id in replaced {
                try session.removeFeedRow(table, id: id, reason: .feedResent, into: &report)
                resent += 1
            }
        }
    }

    // MARK: The end of a run

    /// A feed run reports what the rule did; an export run retires the feed rows its `ExportDate` covers
    /// (unless the export itself met them).
    func finish(_ summary: inout ImportSummary, into report: inout WriteReport) throws {
        if isFeed {
            self.report(into: &summary)
            return
        }
        guard let exportDate = summary.exportDate, session.isActive else { return }
        var retired = 0
        for table in TrackedTable.sampleTables {
            retired += try session.removeFeedRows(table, before: exportDate, reason: .feedSuperseded)
        }
        // Workouts, few, go one by one: statistics, events and metadata hang off them.
        for id in try feedRows.rows(.workouts, before: exportDate) where !session.wasSeen(.workouts, id: id) {
            try session.removeFeedRow(.workouts, id: id, reason: .feedSuperseded, into: &report)
            retired += 1
        }
        if retired > 0 {
            summary.stages["feed", default: [:]][
                "feed rows this export covers, replaced by its own (in deleted_samples)"] = retired
        }
    }

    private func report(into summary: inout ImportSummary) {
        var report: [String: Int] = [:]
        if beforeExport > 0 {
            summary.warnings[
                "feed points before the last export's ExportDate \(cutoffText ?? "") "
                    + "(the export covers them; not stored)"] = beforeExport
            if inserted == 0 && unchanged == 0 && resent == 0 {
                summary.warnings[
                    "this feed lies entirely before the last export (ExportDate \(cutoffText ?? "")): "
                        + "nothing changed"] = 1
            }
        }
        if resent > 0 {
            report["feed rows sent again by a later file, replaced (earlier runs' in deleted_samples)"] = resent
        }
        if duplicatesInFile > 0 {
            report["points given twice in one file (the later kept)"] = duplicatesInFile
        }
        if !report.isEmpty { summary.stages["feed", default: [:]].merge(report, uniquingKeysWith: +) }
    }

    // MARK: The order of the points

    /// A point of the cached type later than every feed row of it: noted, true; else false.
    @inline(__always) private func insertsInOrder(_ type: String, start: Int64) -> Bool {
        guard let cached, cached.type == type, start > cached.newest else { return false }
        self.cached = (type, start, max(cached.fileNewest, start))
        inserted += 1
        return true
    }

    /// Puts the cached type's starts back into the dictionaries.
    private func flushCache() {
        guard let cached else { return }
        newest[cached.type] = cached.newest
        fileNewest[cached.type] = cached.fileNewest
        self.cached = nil
    }

    /// The newest feed start of `type` in the database (Int64.min for none), read once per run.
    private func newestStart(_ type: String, table: TrackedTable) throws -> Int64 {
        flushCache()
        if let known = newest[type] { return known }
        let found = try feedRows.newestStart(type, table: table)
        newest[type] = found
        return found
    }

    private func noteInsert(_ type: String, start: Int64) {
        flushCache()
        cached = (type, max(newest[type] ?? Int64.min, start), max(fileNewest[type] ?? Int64.min, start))
        inserted += 1
    }

    /// The newest start of `type` inserted from the current file.
    private func newestInFile(_ type: String) -> Int64 {
        flushCache()
        return fileNewest[type] ?? Int64.min
    }
}
