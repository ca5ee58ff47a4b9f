import HealthModel
import HealthSQLite

/// A batch as the sample writer reads it while writing its rows: its columns, taken once per batch (reading
/// them through the batch value per row made the compiler copy the whole batch — every column retained — at
/// each read), the vocabulary's unit and text tables, and which metadata keys are the ones the writers read
/// (`WriterMetadataKey`, by key id).
final class BatchRows {
    let vocabulary: Vocabulary
    let units: InternedTexts
    let texts: InternedTexts
    /// By key id: `WriterMetadataKey.rawValue`, or 0 for any other key (only the ids this batch uses are set).
    let keyRoles: [Int8]
    let type: [UInt32], source: [UInt32], unit: [UInt32], rawUnit: [UInt32]
    let creation: [Int64], start: [Int64], end: [Int64]
    let creationOffset: [Int32], startOffset: [Int32], endOffset: [Int32]
    let value: [Double], rawValue: [Double]
    let text: [UInt32]
    let freeText: [ArenaSpan], rawText: [ArenaSpan]
    let presence: [SampleBatch.Presence]
    let flags: [UInt16]
    let line: [Int32]
    let metadataStart: [UInt32], metadataKey: [UInt32], metadataValue: [ArenaSpan], metadataNumber: [Double]
    let metadataHasNumber: [Bool], metadataUnit: [UInt32]
    let beatStart: [UInt32], beatBPM: [Double], beatSeconds: [Double]
    let beatPresence: [SampleBatch.BeatPresence], beatRawTime: [ArenaSpan]
    let arena: [UInt8]
    /// Kept for the feed's `Sample` (`BatchRow.asSample`).
    let batch: SampleBatch

    init(_ batch: borrowing SampleBatch, keyRoles: [Int8]) {
        let copy = copy batch
        self.batch = copy
        vocabulary = copy.vocabulary
        units = vocabulary.units
        texts = vocabulary.texts
        self.keyRoles = keyRoles
        (type, source, unit, rawUnit) = (copy.type, copy.source, copy.unit, copy.rawUnit)
        (creation, start, end) = (copy.creation, copy.start, copy.end)
        (creationOffset, startOffset, endOffset) = (copy.creationOffset, copy.startOffset, copy.endOffset)
        (value, rawValue, text, freeText, rawText) = (copy.value, copy.rawValue, copy.text, copy.freeText, copy.rawText)
        (presence, flags, line) = (copy.presence, copy.flags, copy.line)
        (metadataStart, metadataKey, metadataValue) = (copy.metadataStart, copy.metadataKey, copy.metadataValue)
        (metadataNumber, metadataHasNumber, metadataUnit) =
            (copy.metadataNumber, copy.metadataHasNumber, copy.metadataUnit)
        (beatStart, beatBPM, beatSeconds) = (copy.beatStart, copy.beatBPM, copy.beatSeconds)
        (beatPresence, beatRawTime, arena) = (copy.beatPresence, copy.beatRawTime, copy.arena)
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

    func metadataRange(_ row: Int) -> Range<Int> { Int(metadataStart[row])..<Int(metadataStart[row + 1]) }
    func beatRange(_ row: Int) -> Range<Int> { Int(beatStart[row])..<Int(beatStart[row + 1]) }

    /// The arena's `span` as a `String`.
    func string(_ span: ArenaSpan) -> String {
        let range = Int(span.offset)..<Int(span.offset + span.count)
        return arena.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
        }
    }

    /// Binds the arena's `span` as text (copied: the statement is stepped after the closure).
    func bindArena(_ span: ArenaSpan, _ statement: SQLiteStatement, _ index: Int32) {
        guard span.count > 0 else {
            statement.bind(index, "")
            return
        }
        arena.withUnsafeBufferPointer { bytes in
            // swift-format-ignore: NeverForceUnwrap
            // A non-empty span lies in a non-empty arena.
            statement.bindText(index, bytes.baseAddress! + Int(span.offset), count: Int(span.count))
        }
    }
}

/// Row `row` of a batch, read from its columns: no `Sample` is made (but for the feed's merge rule).
struct BatchRow: SampleFields {
    let rows: BatchRows
    let row: Int
    /// The type's name, from the writer's cache by type id.
    let type: String

    private var present: SampleBatch.Presence { rows.presence[row] }

    var source: SampleSource { rows.vocabulary.source(rows.source[row]) }
    var line: Int32 { rows.line[row] }
    var flags: SampleFlags { SampleFlags(rawValue: rows.flags[row]) }

    var startDate: Timestamp? {
        present.contains(.start)
            ? Timestamp(seconds: rows.start[row], offsetSeconds: rows.startOffset[row]) : nil
    }
    var endDate: Timestamp? {
        present.contains(.end)
            ? Timestamp(seconds: rows.end[row], offsetSeconds: rows.endOffset[row]) : nil
    }
    var creationDate: Timestamp? {
        present.contains(.creation)
            ? Timestamp(seconds: rows.creation[row], offsetSeconds: rows.creationOffset[row]) : nil
    }

    var value: Double? { present.contains(.value) ? rows.value[row] : nil }
    var rawValue: Double? { present.contains(.rawNumber) ? rows.rawValue[row] : nil }
    var unit: String? { unitString(rows.unit[row]) }
    var rawUnit: String? { unitString(rows.rawUnit[row]) }

    var rawUnitOtherThanUnit: String? {
        let raw = rows.rawUnit[row]
        let unit = rows.unit[row]
        guard raw != 0, raw != unit else { return nil }
        let exported = rows.units.string(raw)
        return unit == 0 || exported != rows.units.string(unit) ? exported : nil
    }

    /// The text value as the `Sample` form has it (a category value, or a free text).
    var textValue: String? {
        if present.contains(.text) { return rows.texts.string(rows.text[row]) }
        if present.contains(.freeText) { return rows.string(rows.freeText[row]) }
        return nil
    }
    var hasTextValue: Bool { !present.isDisjoint(with: [.text, .freeText]) }
    var rawTextValue: String? {
        present.contains(.rawText) ? rows.string(rows.rawText[row]) : nil
    }

    /// Binds `textValue` (NULL when there is none) without making a `String` of a free text.
    func bindTextValue(_ statement: SQLiteStatement, _ index: Int32) {
        if present.contains(.text) {
            statement.bind(index, rows.texts.string(rows.text[row]))
        } else if present.contains(.freeText) {
            rows.bindArena(rows.freeText[row], statement, index)
        } else {
            statement.bindNull(index)
        }
    }

    private func unitString(_ id: UInt32) -> String? { id == 0 ? nil : rows.units.string(id) }

    func metadataValue(_ key: WriterMetadataKey) -> String? {
        for entry in rows.metadataRange(row)
        where rows.keyRoles[Int(rows.metadataKey[entry])] == key.rawValue {
            return rows.string(rows.metadataValue[entry])
        }
        return nil
    }

    func hasMetadata(_ key: WriterMetadataKey, value: String) -> Bool {
        for entry in rows.metadataRange(row)
        where rows.keyRoles[Int(rows.metadataKey[entry])] == key.rawValue
            && rows.string(rows.metadataValue[entry]) == value
        {
            return true
        }
        return false
    }

    var asSample: Sample { rows.batch.sample(at: row) }

    func writeMetadata(_ common: CommonRows, parent: MetadataParent, id: Int64, into report: inout WriteReport) throws {
        let entries = rows.metadataRange(row)
        guard !entries.isEmpty else { return }
        try common.writeMetadata(rows, entries: entries, parent: parent, id: id, into: &report)
    }

    func writeBeats(_ beats: BeatWriter, sampleID: Int64) throws -> Int {
        let range = rows.beatRange(row)
        guard !range.isEmpty else { return 0 }
        try beats.write(rows, range, sampleID: sampleID)
        return range.count
    }
}
