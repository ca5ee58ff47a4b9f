import Foundation

extension SQLiteSink {
    func writeItem(_ item: ExportItem) throws {
        switch item {
        case .sample(let sample): try writeTopLevelSample(sample)
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
        case .document(let name, let bytes):
            try statements.document.run([.text(name), .blob(bytes)])
            count("documents")
        }
    }

    /// Correlation children are listed again at top level; only the types that can be children are
    /// remembered (blood pressure and dietary), which keeps the map small.
    static func mayBeCorrelationChild(_ type: String) -> Bool {
        type.hasPrefix("HKQuantityTypeIdentifierDietary") || type.hasPrefix("HKQuantityTypeIdentifierBloodPressure")
    }

    func writeTopLevelSample(_ sample: Sample) throws {
        let identity = SampleIdentity.fingerprint(sample)
        guard let (table, id) = try writeSample(sample, identity: identity) else { return }
        if lastKind?.correlationChild == true {
            correlationCandidates[identity] = (table, id)
        }
    }

    /// Writes one sample with its metadata and beats; returns its table and id, or nil when it was not
    /// stored (an exact duplicate, or an older sync version). In a re-import, a sample already in the
    /// database is only looked up, never written.
    func writeSample(_ sample: Sample, identity fingerprint: Int64) throws -> (String, Int64)? {
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
        if !previous.isActive, sample.startDate == nil, options.dropExactDuplicates {
            // The UNIQUE index treats NULL starts as all different; look such a record up as a re-import does.
            let find = lookups.findSample[tracked.rawValue]
            find.bind(1, sample.type)
            find.bindNull(2)
            find.bind(3, identity)
            if try find.firstInteger() != nil {
                dropped["exact duplicate records", default: 0] += 1
                return nil
            }
        }
        if previous.isActive {
            switch try matchSample(tracked, type: sample.type, start: sample.startDate, identity: identity) {
            case .unchanged(let id):
                countUnchanged(
                    tracked, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate, creation: sample.creationDate)
                return (table, id)
            case .duplicate:
                dropped["exact duplicate records", default: 0] += 1
                return nil
            case .new(let free): identity = free
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
                dropped["records superseded by a higher sync version", default: 0] += 1
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
            statement.bind(12, sample.textValue)
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
        statement.bind(16, identity)
        try statement.run()
        if connection.changes == 0 {
            guard !options.dropExactDuplicates else {
                dropped["exact duplicate records", default: 0] += 1
                ids[keyPath: counter] -= 1  // the id was not used
                return nil
            }
            // Keeping duplicates: the copy gets the next free identity so the table stays unique.
            repeat {
                identity &+= 1
                statement.bind(16, identity)
                try statement.run()
            } while connection.changes == 0
        }
        count(table)
        countInserted(
            tracked, type: sample.type, identity: identity, start: sample.startDate, end: sample.endDate, creation: sample.creationDate,
            replacing: replacing)
        if let sync { try rememberSync(source: sample.source.name, key: sync, table: table, id: id) }
        try writeMetadata(sample.metadata, table: table, id: id)
        if !sample.beats.isEmpty { try writeBeats(sample.beats, sampleID: id) }
        return (table, id)
    }

    /// The `flags` bit of samples entered by hand; set here rather than in `SampleFlags`, which lists problems.
    static let userEnteredFlag: Int64 = 512

    static func isUserEntered(_ metadata: [MetadataEntry]) -> Bool {
        !metadata.isEmpty && metadata.contains { $0.key == "HKWasUserEntered" && $0.value == "1" }
    }

    func isUnseenPreviousRow(table name: String, id: Int64) -> Bool {
        guard previous.isActive, let table = TrackedTable(name: name) else { return false }
        let rows = previous.tables[table.rawValue]
        return rows.isPrevious(id) && !rows.seen.contains(id)
    }

    /// Removes the row a higher sync version replaces; returns whether it was an earlier run's row (then it
    /// is archived as `replaced`, and the new row counts as a replacement rather than an addition).
    func replaceSample(table name: String, id: Int64) throws -> Bool {
        guard let table = TrackedTable(name: name), let removed = try removeRow(table, id: id, reason: "replaced")
        else { return false }
        uncount(removed, table: table)
        if !removed.wasPrevious {
            count(name, -1)
            dropped["records replaced by a higher sync version", default: 0] += 1
        }
        return removed.wasPrevious
    }

    /// The `sources` row of a source, written (or, in a re-import, found) the first time it is met. Source
    /// ids of the decoder are per run; the database's are stable across runs.
    @discardableResult
    func writeSource(_ source: SampleSource) throws -> Int64 {
        if source.id < sourceRowIDs.count, sourceRowIDs[source.id] != 0 { return sourceRowIDs[source.id] }
        if source.id >= sourceRowIDs.count {
            sourceRowIDs.append(contentsOf: repeatElement(0, count: source.id - sourceRowIDs.count + 1))
        }
        let device = source.device
        let key = Self.sourceKey(source.name, source.version, device?.key)
        if let existing = previous.sourceIDs[key] {
            sourceRowIDs[source.id] = existing
            return existing
        }
        previous.lastSourceID += 1
        let id = previous.lastSourceID
        previous.sourceIDs[key] = id
        sourceRowIDs[source.id] = id
        try statements.source.run([
            .integer(id), .text(source.name), text(source.version), text(device?.name),
            text(device?.manufacturer), text(device?.model), text(device?.hardware), text(device?.software),
            text(device?.key),
        ])
        count("sources")
        return id
    }

    /// A 32-byte scratch area per parameter position (mod 16), so the several dates of one row never share
    /// one: they are bound without copying and read by SQLite only when the row is stepped.
    @inline(__always) func scratchSlot(_ parameter: Int32) -> UnsafeMutablePointer<UInt8> {
        scratch + Int(parameter & 15) * 32
    }

    func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    func real(_ value: Double?) -> SQLiteValue { value.map { $0.isFinite ? .real($0) : .null } ?? .null }

    /// Binds the columns every sample-like table starts with: id, type, source_id, source_name, start, end,
    /// creation, utc_offset and local_date (parameters 1…9), writing the source first if it is new.
    func bindHeader(
        _ statement: SQLiteStatement, id: Int64, type: String, source: SampleSource, start: Timestamp?,
        end: Timestamp?, creation: Timestamp?, metadata: [MetadataEntry]
    ) throws {
        try writeSource(source)
        statement.bind(1, id)
        statement.bind(2, type)
        bindSource(statement, 3, source)
        let zone = metadata.isEmpty ? nil : metadata.first { $0.key == "HKTimeZone" }?.value
        bindTimes(statement, 5, start: start, end: end, creation: creation, zone: zone)
    }

    func bindSource(_ statement: SQLiteStatement, _ index: Int32, _ source: SampleSource) {
        statement.bind(index, sourceRowIDs[source.id])
        statement.bind(index + 1, source.name)
    }

    /// Binds start, end, creation, utc_offset and local_date at `index`…`index + 4`.
    func bindTimes(
        _ statement: SQLiteStatement, _ index: Int32, start: Timestamp?, end: Timestamp?, creation: Timestamp?,
        zone: String?
    ) {
        bindInstant(statement, index, start)
        bindInstant(statement, index + 1, end)
        bindInstant(statement, index + 2, creation)
        if let any = start ?? end ?? creation {
            if any.offsetSeconds != lastOffset.seconds {
                lastOffset = (any.offsetSeconds, TimestampFormatting.offsetString(any.offsetSeconds))
            }
            statement.bind(index + 3, lastOffset.text)
        } else {
            statement.bindNull(index + 3)
        }
        if let day = start ?? end {
            let number = localDates.day(of: day, zoneName: zone)
            let slot = scratchSlot(index + 4)
            TimestampFormatting.writeDay(number, into: slot)
            statement.bindStaticText(index + 4, slot, count: TimestampFormatting.dateLength)
        } else {
            statement.bindNull(index + 4)
        }
    }

    func bindInstant(_ statement: SQLiteStatement, _ index: Int32, _ instant: Timestamp?) {
        guard let instant else {
            statement.bindNull(index)
            return
        }
        let slot = scratchSlot(index)
        utcWriter.write(instant.seconds, into: slot)
        statement.bindStaticText(index, slot, count: TimestampFormatting.utcLength)
    }

    func instantText(_ instant: Timestamp?) -> SQLiteValue {
        instant.map { .text(TimestampFormatting.utcString($0.seconds)) } ?? .null
    }

    func writeMetadata(_ entries: [MetadataEntry], table: String, id: Int64) throws {
        guard !entries.isEmpty else { return }
        let statement = statements.metadata
        for entry in entries {
            statement.bind(1, table)
            statement.bind(2, id)
            statement.bind(3, entry.key)
            statement.bind(4, entry.value)
            statement.bind(5, entry.number)
            statement.bind(6, entry.numberUnit)
            try statement.run()
        }
        count("metadata", entries.count)
    }

    func writeBeats(_ beats: [HeartbeatReading], sampleID: Int64) throws {
        let statement = statements.beat
        for (sequence, beat) in beats.enumerated() {
            statement.bind(1, sampleID)
            statement.bind(2, sequence)
            statement.bind(3, beat.bpm)
            statement.bind(4, beat.seconds.map(Self.fractionalUTC))
            statement.bind(5, beat.rawTime)
            try statement.run()
        }
        count("hrv_beats", beats.count)
    }

    /// `2019-06-18T01:07:11.94Z`.
    static func fractionalUTC(_ seconds: Double) -> String {
        let whole = seconds.rounded(.down)
        let centis = Int(((seconds - whole) * 100).rounded())
        var text = TimestampFormatting.utcString(Int64(whole) + (centis >= 100 ? 1 : 0))
        if centis > 0, centis < 100 {
            text.removeLast()
            text += "." + (centis < 10 ? "0" : "") + String(centis) + "Z"
        }
        return text
    }
}
