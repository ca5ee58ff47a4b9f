import Foundation
import HealthModel
import HealthSQLite

extension SQLiteSink {
    func writeItem(_ item: ExportItem, sampleIdentity: Int64? = nil) throws {
        switch item {
        case .sample(let sample): try writeTopLevelSample(sample, identity: sampleIdentity)
        case .correlation(let correlation): try writeCorrelation(correlation)
        case .workout(let workout): try writeWorkout(workout)
        case .header(_, let exportDate): try checkExportDate(exportDate)  // the rest goes to import_runs
        case .characteristics(let me):
            for (key, value) in me.attributes { try statements.me.run([.text(key), .text(value)]) }
            count("me", me.attributes.count)
        case .activitySummary(let summary): try writeActivitySummary(summary)
        case .clinicalRecord(let record): try writeClinicalRecord(record)
        case .audiogram(let audiogram): try writeAudiogram(audiogram)
        case .visionPrescription(let prescription): try writeVisionPrescription(prescription)
        case .electrocardiogram(let recording): try writeECG(recording)
        case .stateOfMind(let entry): try writeStateOfMind(entry)
        case .document(let document): try writeDocument(document)
        }
    }

    /// Correlation children are listed again at top level; only the types that can be children are
    /// remembered (blood pressure and dietary), which keeps the map small.
    static func mayBeCorrelationChild(_ type: String) -> Bool {
        type.hasPrefix("HKQuantityTypeIdentifierDietary") || type.hasPrefix("HKQuantityTypeIdentifierBloodPressure")
    }

    func writeTopLevelSample(_ sample: Sample, identity: Int64? = nil) throws {
        let identity = identity ?? SampleIdentity.fingerprint(sample)
        guard let (table, id) = try writeSample(sample, identity: identity) else { return }
        if lastKind?.correlationChild == true {
            try correlationCandidates.remember(identity, (table, id))
        }
    }

    /// Writes one sample with its metadata and beats; returns its table and id, or nil when it was not
    /// stored (an exact duplicate, or an older sync version). In a re-import, a sample already in the
    /// database is only looked up, never written.
    func writeSample(_ sample: Sample, identity fingerprint: Int64) throws -> (TrackedTable, Int64)? {
        if lastKind?.type != sample.type {
            let known = TypeCatalog.isKnown(sample.type) ? TypeCatalog.kind(of: sample) : nil
            lastKind = (sample.type, known, Self.mayBeCorrelationChild(sample.type))
        }
        if lastKind?.kind == nil { unknownTypes[sample.type, default: 0] += 1 }
        let statement: SQLiteStatement
        let tracked: TrackedTable
        let counter: WritableKeyPath<RowIDs, Int64>
        switch lastKind?.kind ?? TypeCatalog.kind(of: sample) {
        case .cumulative: (statement, tracked, counter) = (statements.cumulative, .cumulative, \.cumulative)
        case .discrete: (statement, tracked, counter) = (statements.discrete, .discrete, \.discrete)
        case .category: (statement, tracked, counter) = (statements.category, .category, \.category)
        }
        let table = tracked.name
        var identity = fingerprint
        // A record whose dates cannot be read is never anyone's duplicate: its fingerprint lacks the dates,
        // so records that differ only in them would collide (issue 14: 563 legacy records read, 353 stored).
        // Each copy is kept with the next free identity, as with --keep-duplicates.
        let duplicates = DuplicateRule(dropsDuplicates: options.dropExactDuplicates && !sample.flags.contains(.badDate))
        if !previous.isActive, sample.startDate == nil {
            // The UNIQUE index treats NULL starts as all different; look such a record up as a re-import does,
            // and give a kept copy the next free identity there too, so that a re-import meets them one by one.
            let find = lookups.findSample[tracked.rawValue]
            let placement = try duplicates.place(identity) { candidate in
                find.bind(1, sample.type)
                find.bindNull(2)
                find.bind(3, candidate)
                return try find.firstInteger() == nil ? .free : .taken
            }
            guard case .free(let free) = placement else {
                drops.add(.exactDuplicate)
                return nil
            }
            identity = free
        }
        if previous.isActive {
            switch try matchSample(tracked, type: sample.type, start: sample.startDate, identity: identity, duplicates) {
            case .matched(let id):
                ledger.countUnchanged(
                    tracked, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate, creation: sample.creationDate)
                return (tracked, id)
            case .duplicate:
                drops.add(.exactDuplicate)
                return nil
            case .free(let free): identity = free
            }
        }
        let sync = Self.syncKey(sample.metadata)
        var replacing = false
        if let sync {
            switch try syncDecision(source: sample.source.name, key: sync) {
            case .keep: break
            case .drop(let oldTable, let oldID, let version)
            where version == sync.version && isUnseenPreviousRow(table: oldTable, id: oldID):
                // The same version saying something else than an earlier run's row, which this export has not
                // shown (yet): the export's copy is the current one. Dropping it would lose the sample when the
                // old row turns out to be gone.
                replacing = try replaceSample(table: oldTable, id: oldID)
            case .drop:
                drops.add(.superseded)
                return nil
            case .replace(let oldTable, let oldID):
                replacing = try replaceSample(table: oldTable, id: oldID)
            }
        }
        ids[keyPath: counter] += 1
        let id = ids[keyPath: counter]
        try bindHeader(
            statement, id: id, type: sample.type, source: sample.source, start: sample.startDate, end: sample.endDate,
            creation: sample.creationDate, metadata: sample.metadata)
        if tracked == .category {
            statement.bind(10, sample.textValue)
            statement.bindNull(11)
            statement.bind(12, sample.rawTextValue ?? sample.textValue)
            statement.bindNull(13)
        } else {
            statement.bind(10, sample.value)
            statement.bind(11, sample.unit)
            if let value = sample.rawValue ?? sample.value {
                statement.bind(12, value)
            } else {
                statement.bind(12, sample.textValue)
            }
            statement.bind(13, sample.rawUnit ?? sample.unit)
        }
        statement.bind(14, Int64(sample.flags.rawValue) | (Self.isUserEntered(sample.metadata) ? Self.userEnteredFlag : 0))
        statement.bind(15, Int64(sample.line))
        // The insert is the look-up: the UNIQUE (type, start_date, identity) index refuses a taken identity.
        let placement = try duplicates.place(identity) { candidate in
            statement.bind(16, candidate)
            try statement.run()
            return connection.changes == 0 ? .taken : .free
        }
        guard case .free(let stored) = placement else {
            drops.add(.exactDuplicate)
            ids[keyPath: counter] -= 1  // the id was not used
            return nil
        }
        identity = stored
        count(table)
        ledger.countInserted(
            tracked, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate, creation: sample.creationDate,
            replacing: replacing)
        if let sync { try rememberSync(source: sample.source.name, key: sync, table: .samples(tracked), id: id) }
        try writeMetadata(sample.metadata, table: table, id: id)
        if !sample.beats.isEmpty { try writeBeats(sample.beats, sampleID: id) }
        return (tracked, id)
    }

    /// The `flags` bit of samples entered by hand; set here rather than in `SampleFlags`, which lists problems.
    static let userEnteredFlag: Int64 = 512

    static func isUserEntered(_ metadata: [MetadataEntry]) -> Bool {
        !metadata.isEmpty && metadata.contains { $0.key == "HKWasUserEntered" && $0.value == "1" }
    }

    func isUnseenPreviousRow(table synced: SyncedTable, id: Int64) -> Bool {
        guard previous.isActive, case .samples(let table) = synced else { return false }
        let rows = previous.tables[table.rawValue]
        return rows.isPrevious(id) && !rows.seen.contains(id)
    }

    /// Removes the row a higher sync version replaces; returns whether it was an earlier run's row (then it
    /// is archived as `replaced`, and the new row counts as a replacement rather than an addition).
    func replaceSample(table synced: SyncedTable, id: Int64) throws -> Bool {
        guard case .samples(let table) = synced, let removed = try remover.remove(table, id: id, reason: .replaced, previous: &previous)
        else { return false }
        ledger.uncount(removed, table: table)
        if !removed.wasPrevious {
            count(table.name, -1)
            drops.add(.replaced)
        }
        return removed.wasPrevious
    }
}
