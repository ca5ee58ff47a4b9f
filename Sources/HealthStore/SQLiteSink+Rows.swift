import Foundation
import HealthModel
import HealthSQLite
import HealthSchema

extension SQLiteSink {
    func writeItem(_ item: ExportItem, sampleIdentity: Int64? = nil) throws {
        switch item {
        case .sample(let sample): try writeTopLevelSample(sample, identity: sampleIdentity)
        case .correlation(let correlation): try writeCorrelation(correlation)
        case .workout(let workout): try writeWorkout(workout)
        case .header(_, let exportDate): try checkExportDate(exportDate)  // the rest goes to import_runs
        case .characteristics(let me):
            for (key, value) in me.attributes {
                try statements.me.run([
                    "key": .text(key),
                    "value": .text(value),
                ])
            }
            count(.me, me.attributes.count)
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
            lastKind = (sample.type, known, Self.mayBeCorrelationChild(sample.type), try typeNames.id(of: sample.type))
        }
        // swift-format-ignore: NeverForceUnwrap
        // Set just above.
        let current = lastKind!
        if current.kind == nil { unknownTypes[sample.type, default: 0] += 1 }
        let tracked: TrackedTable
        let counter: WritableKeyPath<RowIDs, Int64>
        switch current.kind ?? TypeCatalog.kind(of: sample) {
        case .cumulative: (tracked, counter) = (.cumulative, \.cumulative)
        case .discrete: (tracked, counter) = (.discrete, \.discrete)
        case .category: (tracked, counter) = (.category, \.category)
        }
        let typeID = current.typeID
        var identity = fingerprint
        // A record whose dates cannot be read is never anyone's duplicate: its fingerprint lacks the dates,
        // so records that differ only in them would collide (issue 14: 563 legacy records read, 353 stored).
        // Each copy is kept with the next free identity, as with --keep-duplicates.
        let duplicates = DuplicateRule(dropsDuplicates: options.dropExactDuplicates && !sample.flags.contains(.badDate))
        if options.feed {  // Health Auto Export feed: the merge rule decides (FeedMerge.swift)
            switch try placeFeedPoint(sample, table: tracked, identity: identity) {
            case .skip: return nil
            case .kept(let id): return (tracked, id)
            case .insert: break
            }
        }
        if !previous.isActive, sample.startDate == nil {
            // The UNIQUE index treats NULL starts as all different; look such a record up as a re-import does,
            // and give a kept copy the next free identity there too, so that a re-import meets them one by one.
            let placement = try duplicates.place(identity) { candidate in
                try sampleWriters[tracked.rawValue].find(typeID: typeID, start: nil, identity: candidate) == nil
                    ? .free : .taken
            }
            guard case .free(let free) = placement else {
                drops.add(.exactDuplicate)
                return nil
            }
            identity = free
        }
        if previous.isActive, !options.feed {
            switch try matchSample(tracked, typeID: typeID, start: sample.startDate, identity: identity, duplicates) {
            case .matched(let id):
                ledger.countUnchanged(
                    tracked, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate,
                    creation: sample.creationDate)
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
        let sourceID = try writeSource(sample.source)
        let localDay = (sample.startDate ?? sample.endDate).map { day in
            localDates.day(of: day, zoneName: Self.timeZoneName(sample.metadata))
        }
        let flags = Int64(sample.flags.rawValue) | (Self.isUserEntered(sample.metadata) ? Self.userEnteredFlag : 0)
        sampleWriters[tracked.rawValue].bind(
            sample, id: id, typeID: typeID, sourceID: sourceID, localDay: localDay, flags: flags,
            origin: feedOrigin)
        // The insert is the look-up: the UNIQUE (type_id, start_date, identity) index refuses a taken identity.
        let placement = try duplicates.place(identity) { candidate in
            try sampleWriters[tracked.rawValue].store(identity: candidate, connection) ? .free : .taken
        }
        guard case .free(let stored) = placement else {
            drops.add(.exactDuplicate)
            ids[keyPath: counter] -= 1  // the id was not used
            return nil
        }
        identity = stored
        count(WrittenTable(tracked))
        ledger.countInserted(
            tracked, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate,
            creation: sample.creationDate,
            replacing: replacing)
        if let sync { try rememberSync(source: sample.source.name, key: sync, table: .samples(tracked), id: id) }
        try writeMetadata(sample.metadata, parent: MetadataParent(tracked), id: id)
        if !sample.beats.isEmpty {
            try beatWriter.write(sample.beats, sampleID: id)
            count(.hrvBeats, sample.beats.count)
        }
        return (tracked, id)
    }

    /// The sample's own time zone (`HKTimeZone` metadata), which decides its `local_date` before the import's.
    static func timeZoneName(_ metadata: [MetadataEntry]) -> String? {
        metadata.isEmpty ? nil : metadata.first { $0.key == "HKTimeZone" }?.value
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
        guard case .samples(let table) = synced,
            let removed = try remover.remove(table, id: id, reason: .replaced, previous: &previous)
        else { return false }
        ledger.uncount(removed, table: table)
        if !removed.wasPrevious {
            count(WrittenTable(table), -1)
            drops.add(.replaced)
        }
        return removed.wasPrevious
    }
}
