import HealthModel
import HealthSchema

/// What this run did, per type: rows added, replaced, deleted and met unchanged, with the order-independent
/// fingerprint of the rows each type keeps (written as its anchor) and the earliest change (where its rollups
/// are rebuilt from).
///
/// Exports are grouped by type, so the current type's counts stay out of the dictionary while its rows stream
/// in: a row costs no hash lookup.
struct ChangeLedger {
    /// The changes by type; complete after `flush()`.
    private(set) var changes: [String: TypeChanges] = [:]
    private var current: (type: String, changes: TypeChanges)?

    /// The key a row is counted under: its type, except workouts, which are one type to HealthKit (their
    /// activity type varies).
    static func key(_ table: TrackedTable, type: String) -> String {
        table == .workouts ? TrackedTable.workoutType : type
    }

    /// Moves the current type's counts into `changes`.
    mutating func flush() {
        guard let current else { return }
        changes[current.type] = current.changes
        self.current = nil
    }

    /// Counts a row met in this export that an earlier run stored.
    mutating func countUnchanged(
        _ table: TrackedTable, type: String, identity: Int64, start: Timestamp?, end: Timestamp?, creation: Timestamp?
    ) {
        count(
            LedgerFact(
                kind: .unchanged, table: table, type: type, identity: identity, start: start, end: end,
                creation: creation))
    }

    /// Counts a row this run inserted; `replacing` when it took the place of an earlier run's row.
    mutating func countInserted(
        _ table: TrackedTable, type: String, identity: Int64, start: Timestamp?, end: Timestamp?, creation: Timestamp?,
        replacing: Bool
    ) {
        count(
            LedgerFact(
                kind: replacing ? .replaced : .added, table: table, type: type, identity: identity, start: start,
                end: end, creation: creation))
    }

    /// Counts a row a write reported (`WriteReport`): met unchanged, added or replacing an earlier run's.
    @inline(__always) mutating func count(_ fact: LedgerFact) {
        update(Self.key(fact.table, type: fact.type), table: fact.table) {
            switch fact.kind {
            case .unchanged: $0.unchanged += 1
            case .added, .replaced:
                if fact.kind == .replaced { $0.replaced += 1 } else { $0.added += 1 }
                $0.noteChange(start: fact.start)
            }
            $0.keep(identity: fact.identity, start: fact.start, end: fact.end, creation: fact.creation)
        }
    }

    /// Counts an earlier run's row that this export no longer has.
    mutating func countDeleted(_ removed: RemovedRow, table: TrackedTable) {
        update(removed.type, table: table) {
            $0.deleted += 1
            $0.noteChange(start: removed.start)
        }
    }

    /// Counts an earlier run's feed row replaced: by the export that now covers its time, or by a later feed
    /// file (FeedMerge.swift). Counted as `replaced`: the export's (or the newer file's) rows are the new version
    /// of the same stretch of time.
    mutating func countFeedReplaced(_ removed: RemovedRow, table: TrackedTable) {
        countFeedReplaced(type: removed.type, table: table, count: 1, earliest: removed.start)
    }

    mutating func countFeedReplaced(type: String, table: TrackedTable, count: Int, earliest: Int64?) {
        update(type, table: table) {
            $0.replaced += count
            $0.noteChange(start: earliest)
        }
    }

    /// Undoes the counts of a row removed again in this run (a higher sync version came after it).
    mutating func uncount(_ removed: RemovedRow, table: TrackedTable) {
        update(removed.type, table: table) {
            $0.noteChange(start: removed.start)
            if removed.wasPrevious {
                guard removed.wasSeen else { return }
                $0.unchanged -= 1
            } else {
                $0.added -= 1
            }
            $0.unkeep(identity: removed.identity)
        }
    }

    @inline(__always) private mutating func update(
        _ type: String, table: TrackedTable, _ body: (inout TypeChanges) -> Void
    ) {
        if current?.type != type {
            flush()
            current = (type, changes[type] ?? TypeChanges(table: table.name))
        }
        // swift-format-ignore: NeverForceUnwrap
        body(&current!.changes)
    }
}
