import HealthModel

/// `Record`s, straight from the attribute bytes into batch rows (docs/batches.md, step 5): names interned in
/// the vocabulary, dates as `Timestamp`s, values as doubles, metadata and beats into the side columns as the
/// children arrive. A top-level record becomes a row of `batch`; a correlation's records become rows of
/// `correlationRecords`, read back as its children when it ends. There is no other way a record is read.
extension ExportDecoder {
    func startRecord(_ attributes: XMLAttributes) {
        // A record inside a record (no real export has one) replaces it, as a reused `Sample` did.
        if openRecord != nil { withOpenRecordBatch { $0.discardOpenRow() } }
        openRecordInCorrelation = correlation != nil
        var common = commonAttributes(attributes)
        // Interned in the order `SampleBatch.append(Sample)` interns them: type, source, unit.
        let type = common.type.map { XMLText.intern($0, in: &vocabulary.types) } ?? vocabulary.types.id("")
        var row = SampleBatch.Row(type: type, source: vocabulary.id(of: common.source), line: line)
        row.unit = common.unit.map { XMLText.intern($0, in: &vocabulary.units) } ?? 0
        row.creation = common.creationDate
        row.start = common.startDate
        row.end = common.endDate
        if common.type == nil { common.flags.insert(.missingType) }
        if common.isLegacy { legacyRecords += 1 }
        let category = isCategory(type)
        var average: Double?
        if common.hasOtherAttributes {
            average = addAttributeMetadata(attributes, isCategory: category, unit: row.unit)
        }
        if common.rawValue == nil, !category, let average {
            // An iOS 8/9 aggregate of a discrete type has no `value`: it stands for `recordCount` samples
            // whose mean is `average` (kept, with min and max, in its metadata).
            row.value = average
        } else if let raw = common.rawValue {
            if category {
                row.text = XMLText.intern(raw, in: &vocabulary.texts)
                if common.isLegacy { nameLegacyCategoryValue(&row) }
            } else if let number = NumberParsing.parseDouble(raw) {
                row.value = number
            } else {
                row.freeText = XMLText.decode(raw)
                common.flags.insert(.badValue)
            }
        } else if !category {
            common.flags.insert(.badValue)
        }
        if !category, row.unit == 0, row.value != nil { common.flags.insert(.missingUnit) }
        row.flags = common.flags
        openRecord = row
    }

    func endRecord() {
        guard let row = openRecord else { return }
        openRecord = nil
        withOpenRecordBatch { BeatTimes.anchorOpenRow(&$0, to: row.start) }
        if correlation != nil {
            guard admits(correlationRecords.rowCount, .record, in: .correlation, limit: Self.maximumChildrenPerElement)
            else { return withOpenRecordBatch { $0.discardOpenRow() } }
            // A correlation that began inside the record (never in a real export) takes it as a child.
            if !openRecordInCorrelation { correlationRecords.takeOpenRow(from: &batch) }
            correlationRecords.closeRow(row)
        } else {
            if openRecordInCorrelation { batch.takeOpenRow(from: &correlationRecords) }
            batch.closeRow(row)
        }
    }

    /// The open correlation's records as its children; the rows are emptied for the next correlation.
    func takeCorrelationRecords() -> [Sample] {
        defer { correlationRecords.removeClosedRows() }
        // Lent, not copied: a copy would make the next new name copy the vocabulary's arrays.
        swap(&correlationRecords.vocabulary, &batch.vocabulary)
        defer { swap(&correlationRecords.vocabulary, &batch.vocabulary) }
        return (0..<correlationRecords.rowCount).map { correlationRecords.sample(at: $0) }
    }

    /// A `MetadataEntry` of the open record, into its batch's side columns.
    func addRecordMetadata(key: XMLBytes, value: XMLBytes?) {
        let keyID = XMLText.intern(key, in: &vocabulary.keys)
        XMLText.withDecoded(value ?? XMLBytes(start: nil, count: 0)) { decoded in
            let (number, unit) = MetadataValue.quantity(decoded)
            let unitID = unit.map { vocabulary.units.id($0) } ?? 0
            withOpenRecordBatch { $0.appendMetadata(key: keyID, value: decoded, number: number, numberUnit: unitID) }
        }
    }

    func addBeat(_ attributes: XMLAttributes) {
        guard openRecord != nil else {
            warn("InstantaneousBeatsPerMinute outside a Record (ignored)")
            return
        }
        guard admits(withOpenRecordBatch { $0.openBeats.count }, .beat, in: .record, limit: Self.maximumBeatsPerRecord)
        else { return }
        var bpm: Double?
        var secondOfDay: Double?
        var rawTime = XMLBytes(start: nil, count: 0)
        for index in 0..<attributes.count {
            switch attributeNameLookup(attributes, index) {
            case .bpm: bpm = NumberParsing.parseLocalizedDouble(attributes.value(index))
            case .time:
                rawTime = attributes.value(index)
                secondOfDay = BeatTimes.secondsOfDay(rawTime)
            default: break
            }
        }
        withOpenRecordBatch { $0.appendBeat(bpm: bpm, secondOfDay: secondOfDay, rawTime: rawTime) }
    }

    /// Metadata entries of the open record so far; nil when no record is open.
    var openRecordMetadataCount: Int? {
        openRecord == nil ? nil : withOpenRecordBatch { $0.openMetadataCount }
    }

    /// Runs `body` on the batch that holds the open record's side entries.
    func withOpenRecordBatch<Result>(_ body: (inout SampleBatch) -> Result) -> Result {
        openRecordInCorrelation ? body(&correlationRecords) : body(&batch)
    }

    /// Whether type `id` is a category type, decided once per type.
    private func isCategory(_ id: UInt32) -> Bool {
        while categoryByType.count <= Int(id) {
            let next = UInt32(categoryByType.count)
            categoryByType.append(next != 0 && Sample.isCategory(type: vocabulary.types.string(next)))
        }
        return categoryByType[Int(id)]
    }
}
