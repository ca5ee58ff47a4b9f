import HealthModel
import HealthSQLite

/// A batch as the sample writer reads it while writing its rows: the batch (borrowed by the sink for the
/// whole write, hence the pointer) and what is taken once per batch — the vocabulary's unit and text tables,
/// and which metadata keys are the ones the writers read (`WriterMetadataKey`, by key id).
final class BatchRows {
    let batch: UnsafePointer<SampleBatch>
    let units: InternedTexts
    let texts: InternedTexts
    /// By key id: `WriterMetadataKey.rawValue`, or 0 for any other key (only the ids this batch uses are set).
    let keyRoles: [Int8]

    init(_ batch: UnsafePointer<SampleBatch>, keyRoles: [Int8]) {
        self.batch = batch
        let vocabulary = batch.pointee.vocabulary
        units = vocabulary.units
        texts = vocabulary.texts
        self.keyRoles = keyRoles
    }

    /// The roles of the keys `batch` uses, into `roles` (reused), compared as `String`s as the `Sample` form's
    /// look-ups compare them: each key used is compared once per batch, never per entry.
    static func keyRoles(_ batch: borrowing SampleBatch, into roles: inout [Int8]) {
        let keys = batch.vocabulary.keys
        roles.removeAll(keepingCapacity: true)
        roles.append(contentsOf: repeatElement(-1, count: keys.count + 1))
        for key in batch.metadataKey where roles[Int(key)] < 0 {
            let name = keys.string(key)
            roles[Int(key)] = WriterMetadataKey.allCases.first { $0.name == name }?.rawValue ?? 0
        }
    }
}

/// Row `row` of a batch, read from its columns: no `Sample` is made (but for the feed's merge rule).
struct BatchRow: SampleFields {
    unowned(unsafe) let rows: BatchRows
    let row: Int
    /// The type's name, from the writer's cache by type id.
    let type: String

    private var batch: UnsafePointer<SampleBatch> { rows.batch }
    private var present: SampleBatch.Presence { batch.pointee.presence[row] }

    var source: SampleSource { batch.pointee.vocabulary.source(batch.pointee.source[row]) }
    var line: Int32 { batch.pointee.line[row] }
    var flags: SampleFlags { SampleFlags(rawValue: batch.pointee.flags[row]) }

    var startDate: Timestamp? {
        present.contains(.start)
            ? Timestamp(seconds: batch.pointee.start[row], offsetSeconds: batch.pointee.startOffset[row]) : nil
    }
    var endDate: Timestamp? {
        present.contains(.end)
            ? Timestamp(seconds: batch.pointee.end[row], offsetSeconds: batch.pointee.endOffset[row]) : nil
    }
    var creationDate: Timestamp? {
        present.contains(.creation)
            ? Timestamp(seconds: batch.pointee.creation[row], offsetSeconds: batch.pointee.creationOffset[row]) : nil
    }

    var value: Double? { present.contains(.value) ? batch.pointee.value[row] : nil }
    var rawValue: Double? { present.contains(.rawNumber) ? batch.pointee.rawValue[row] : nil }
    var unit: String? { unitString(batch.pointee.unit[row]) }
    var rawUnit: String? { unitString(batch.pointee.rawUnit[row]) }

    /// `rawUnit ?? unit` is there and differs from `unit` (as `String`s).
    var hasRawUnitOtherThanUnit: Bool {
        let raw = batch.pointee.rawUnit[row]
        let unit = batch.pointee.unit[row]
        return raw != 0 && raw != unit && (unit == 0 || rows.units.string(raw) != rows.units.string(unit))
    }

    /// The text value as the `Sample` form has it (a category value, or a free text).
    var textValue: String? {
        if present.contains(.text) { return rows.texts.string(batch.pointee.text[row]) }
        if present.contains(.freeText) { return batch.pointee.string(batch.pointee.freeText[row]) }
        return nil
    }
    var hasTextValue: Bool { !present.isDisjoint(with: [.text, .freeText]) }
    var rawTextValue: String? {
        present.contains(.rawText) ? batch.pointee.string(batch.pointee.rawText[row]) : nil
    }

    /// Binds `textValue` (NULL when there is none) without making a `String` of a free text.
    func bindTextValue(_ statement: SQLiteStatement, _ index: Int32) {
        if present.contains(.text) {
            statement.bind(index, rows.texts.string(batch.pointee.text[row]))
        } else if present.contains(.freeText) {
            Self.bindArena(batch.pointee, batch.pointee.freeText[row], statement, index)
        } else {
            statement.bindNull(index)
        }
    }

    private func unitString(_ id: UInt32) -> String? { id == 0 ? nil : rows.units.string(id) }

    func metadataValue(_ key: WriterMetadataKey) -> String? {
        let batch = batch
        for entry in batch.pointee.metadataRange(row)
        where rows.keyRoles[Int(batch.pointee.metadataKey[entry])] == key.rawValue {
            return batch.pointee.string(batch.pointee.metadataValue[entry])
        }
        return nil
    }

    func hasMetadata(_ key: WriterMetadataKey, value: String) -> Bool {
        let batch = batch
        for entry in batch.pointee.metadataRange(row)
        where rows.keyRoles[Int(batch.pointee.metadataKey[entry])] == key.rawValue
            && batch.pointee.string(batch.pointee.metadataValue[entry]) == value
        {
            return true
        }
        return false
    }

    var asSample: Sample { batch.pointee.sample(at: row) }

    func bind(
        into writer: inout SampleRowWriter, id: Int64, typeID: Int64, sourceID: Int64, localDay: Int32?, flags: Int64,
        origin: RowOrigin
    ) {
        writer.bind(self, id: id, typeID: typeID, sourceID: sourceID, localDay: localDay, flags: flags, origin: origin)
    }

    func writeMetadata(_ common: CommonRows, parent: MetadataParent, id: Int64, into report: inout WriteReport) throws {
        let entries = batch.pointee.metadataRange(row)
        guard !entries.isEmpty else { return }
        try common.writeMetadata(batch, entries: entries, units: rows.units, parent: parent, id: id, into: &report)
    }

    func writeBeats(_ beats: BeatWriter, sampleID: Int64) throws -> Int {
        let range = batch.pointee.beatRange(row)
        guard !range.isEmpty else { return 0 }
        try beats.write(batch, range, sampleID: sampleID)
        return range.count
    }

    /// Binds the arena's bytes as text (copied: the statement is stepped after the closure).
    static func bindArena(_ batch: borrowing SampleBatch, _ span: ArenaSpan, _ statement: SQLiteStatement, _ index: Int32) {
        batch.withBytes(span) { bytes in
            if let base = bytes.baseAddress, !bytes.isEmpty {
                statement.bindText(index, base, count: bytes.count)
            } else {
                statement.bind(index, "")
            }
        }
    }
}
