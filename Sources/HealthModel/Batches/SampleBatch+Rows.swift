/// How a row is written: its metadata entries and beats first, as the decoder meets them inside the element,
/// then the row itself when the element ends (`closeRow`), which closes its side ranges. Until then the row
/// is "open": its entries lie past the last closed range, so they can be counted (the decoder's limits),
/// anchored, dropped or carried over, without a `Sample` being built. `append(Sample)` writes through the same
/// functions, so there is one way rows come into being.
extension SampleBatch {
    /// A row's own fields (its side entries are appended before it is closed).
    package struct Row {
        package var type: UInt32
        /// `SampleSource.id`, as `Vocabulary.id(of:)` gives it.
        package var source: UInt32
        package var line: Int32
        /// Ids in `vocabulary.units`; 0: none.
        package var unit: UInt32 = 0
        package var rawUnit: UInt32 = 0
        package var creation: Timestamp?
        package var start: Timestamp?
        package var end: Timestamp?
        package var value: Double?
        package var rawValue: Double?
        /// A category value's id in `vocabulary.texts`; 0: none.
        package var text: UInt32 = 0
        /// The text value of a record that is not a category.
        package var freeText: String?
        package var rawText: String?
        package var flags: SampleFlags = []

        package init(type: UInt32, source: UInt32, line: Int32) {
            self.type = type
            self.source = source
            self.line = line
        }
    }

    /// Metadata entries of the open row so far.
    package var openMetadataCount: Int { metadataKey.count - Int(metadataStart[metadataStart.count - 1]) }

    /// The open row's beats, as indices of the beat columns.
    package var openBeats: Range<Int> { Int(beatStart[beatStart.count - 1])..<beatBPM.count }

    /// Adds a metadata entry to the open row; `value` is the decoded text.
    package mutating func appendMetadata(
        key: UInt32, value: UnsafeBufferPointer<UInt8>, number: Double?, numberUnit: UInt32
    ) {
        metadataKey.append(key)
        metadataValue.append(store(value))
        metadataNumber.append(number ?? 0)
        metadataHasNumber.append(number != nil)
        metadataUnit.append(numberUnit)
    }

    /// Adds a beat to the open row; `seconds` is set by anchoring (`setBeatSeconds`) once the row's start is known.
    package mutating func appendBeat(
        bpm: Double?, secondOfDay: Double?, seconds: Double? = nil, rawTime: UnsafeBufferPointer<UInt8>
    ) {
        var present: BeatPresence = []
        if bpm != nil { present.insert(.bpm) }
        if secondOfDay != nil { present.insert(.secondOfDay) }
        if seconds != nil { present.insert(.seconds) }
        beatPresence.append(present)
        beatBPM.append(bpm ?? 0)
        beatSecondOfDay.append(secondOfDay ?? 0)
        beatSeconds.append(seconds ?? 0)
        beatRawTime.append(store(rawTime))
    }

    /// A beat's time of day, if it has one.
    package func beatSecondOfDay(_ index: Int) -> Double? {
        beatPresence[index].contains(.secondOfDay) ? beatSecondOfDay[index] : nil
    }

    package mutating func setBeatSeconds(_ index: Int, _ seconds: Double) {
        beatSeconds[index] = seconds
        beatPresence[index].insert(.seconds)
    }

    /// Writes `row`'s fields and closes its side ranges: the open row becomes row `rowCount - 1`.
    package mutating func closeRow(_ row: Row) {
        var present: Presence = []
        type.append(row.type)
        source.append(row.source)
        unit.append(row.unit)
        rawUnit.append(row.rawUnit)
        Self.appendDate(row.creation, .creation, &creation, &creationOffset, &present)
        Self.appendDate(row.start, .start, &start, &startOffset, &present)
        Self.appendDate(row.end, .end, &end, &endOffset, &present)
        if row.value != nil { present.insert(.value) }
        value.append(row.value ?? 0)
        if row.rawValue != nil { present.insert(.rawNumber) }
        rawValue.append(row.rawValue ?? 0)
        if row.text != 0 { present.insert(.text) }
        text.append(row.text)
        if let freeText = row.freeText {
            present.insert(.freeText)
            self.freeText.append(store(freeText))
        } else {
            self.freeText.append(.empty)
        }
        if let rawTextValue = row.rawText {
            present.insert(.rawText)
            rawText.append(store(rawTextValue))
        } else {
            rawText.append(.empty)
        }
        presence.append(present)
        flags.append(row.flags.rawValue)
        line.append(row.line)
        identity.append(0)
        metadataStart.append(UInt32(metadataKey.count))
        beatStart.append(UInt32(beatBPM.count))
    }

    /// Drops the open row's entries (a record that is not kept). Their arena bytes stay until `removeAll`.
    package mutating func discardOpenRow() {
        truncateSides(metadata: Int(metadataStart[metadataStart.count - 1]), beats: Int(beatStart[beatStart.count - 1]))
    }

    /// Empties the closed rows and `others`, keeping the open row's entries: a batch handed on in the middle of
    /// a record (the parser's chunk ended there) must not lose what the record holds so far.
    package mutating func removeClosedRows() {
        let open = OpenEntries(self)
        removeAll(keepingCapacity: true)
        open.append(to: &self)
    }

    /// Moves `other`'s open row entries to this batch's open row (a record whose batch changed while it was
    /// open: a correlation began or ended inside it).
    package mutating func takeOpenRow(from other: inout SampleBatch) {
        OpenEntries(other).append(to: &self)
        other.discardOpenRow()
    }

    /// Moves `others[index]` out (a copy would retain everything the item holds), leaving a header in its place.
    package mutating func takeOther(_ index: Int) -> ExportItem {
        var item = ExportItem.header(locale: nil, exportDate: nil)
        swap(&item, &others[index].item)
        return item
    }

    private mutating func truncateSides(metadata: Int, beats: Int) {
        metadataKey.removeSubrange(metadata...)
        metadataValue.removeSubrange(metadata...)
        metadataNumber.removeSubrange(metadata...)
        metadataHasNumber.removeSubrange(metadata...)
        metadataUnit.removeSubrange(metadata...)
        beatPresence.removeSubrange(beats...)
        beatBPM.removeSubrange(beats...)
        beatSecondOfDay.removeSubrange(beats...)
        beatSeconds.removeSubrange(beats...)
        beatRawTime.removeSubrange(beats...)
    }

    static func appendDate(
        _ date: Timestamp?, _ flag: Presence, _ seconds: inout [Int64], _ offsets: inout [Int32],
        _ present: inout Presence
    ) {
        if date != nil { present.insert(flag) }
        seconds.append(date?.seconds ?? 0)
        offsets.append(date?.offsetSeconds ?? 0)
    }

    /// Copies a text's UTF-8 into the arena.
    mutating func store(_ text: String) -> ArenaSpan {
        var copy = text
        return copy.withUTF8 { store($0) }
    }

    mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> ArenaSpan {
        precondition(arena.count + bytes.count < Int(UInt32.max), "a batch's texts exceed 4 GiB")
        let span = ArenaSpan(offset: UInt32(arena.count), count: UInt32(bytes.count))
        arena.append(contentsOf: bytes)
        return span
    }
}

/// The open row's side entries, copied out of one batch to be appended to another (or to the same one,
/// emptied): rare, so plain arrays.
private struct OpenEntries {
    var metadata: [(key: UInt32, value: [UInt8], number: Double?, unit: UInt32)] = []
    var beats: [(bpm: Double?, secondOfDay: Double?, seconds: Double?, rawTime: [UInt8])] = []

    init(_ batch: SampleBatch) {
        for index in Int(batch.metadataStart[batch.metadataStart.count - 1])..<batch.metadataKey.count {
            metadata.append(
                (
                    batch.metadataKey[index], batch.withBytes(batch.metadataValue[index]) { Array($0) },
                    batch.metadataHasNumber[index] ? batch.metadataNumber[index] : nil, batch.metadataUnit[index]
                ))
        }
        for index in batch.openBeats {
            let present = batch.beatPresence[index]
            beats.append(
                (
                    present.contains(.bpm) ? batch.beatBPM[index] : nil, batch.beatSecondOfDay(index),
                    present.contains(.seconds) ? batch.beatSeconds[index] : nil,
                    batch.withBytes(batch.beatRawTime[index]) { Array($0) }
                ))
        }
    }

    func append(to batch: inout SampleBatch) {
        for entry in metadata {
            entry.value.withUnsafeBufferPointer {
                batch.appendMetadata(key: entry.key, value: $0, number: entry.number, numberUnit: entry.unit)
            }
        }
        for beat in beats {
            beat.rawTime.withUnsafeBufferPointer {
                batch.appendBeat(bpm: beat.bpm, secondOfDay: beat.secondOfDay, seconds: beat.seconds, rawTime: $0)
            }
        }
    }
}
