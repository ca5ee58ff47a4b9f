/// Rows to and from `Sample`s: how the feed readers and the tests fill a batch, and how the stages and writers
/// that still take `Sample`s read one (docs/batches.md, steps 3 and 5).
extension SampleBatch {
    /// Appends an item: a sample as a row, anything else into `others` before the next row.
    package mutating func append(_ item: ExportItem) {
        if case .sample(let sample) = item {
            append(sample)
        } else {
            others.append((Int32(rowCount), item))
        }
    }

    /// Appends a sample as a row; its names are interned in the vocabulary.
    package mutating func append(_ sample: Sample) {
        var present: Presence = []
        type.append(vocabulary.types.id(sample.type))
        source.append(vocabulary.id(of: sample.source))
        unit.append(sample.unit.map { vocabulary.units.id($0) } ?? 0)
        rawUnit.append(sample.rawUnit.map { vocabulary.units.id($0) } ?? 0)
        Self.appendDate(sample.creationDate, .creation, &creation, &creationOffset, &present)
        Self.appendDate(sample.startDate, .start, &start, &startOffset, &present)
        Self.appendDate(sample.endDate, .end, &end, &endOffset, &present)
        if sample.value != nil { present.insert(.value) }
        value.append(sample.value ?? 0)
        if sample.rawValue != nil { present.insert(.rawNumber) }
        rawValue.append(sample.rawValue ?? 0)
        if let textValue = sample.textValue, sample.isCategory {
            present.insert(.text)
            text.append(vocabulary.texts.id(textValue))
            freeText.append(.empty)
        } else if let textValue = sample.textValue {
            present.insert(.freeText)
            text.append(0)
            freeText.append(store(textValue))
        } else {
            text.append(0)
            freeText.append(.empty)
        }
        if let rawTextValue = sample.rawTextValue {
            present.insert(.rawText)
            rawText.append(store(rawTextValue))
        } else {
            rawText.append(.empty)
        }
        presence.append(present)
        flags.append(sample.flags.rawValue)
        line.append(sample.line)
        identity.append(0)
        for entry in sample.metadata {
            metadataKey.append(vocabulary.keys.id(entry.key))
            metadataValue.append(store(entry.value))
            metadataNumber.append(entry.number ?? 0)
            metadataHasNumber.append(entry.number != nil)
            metadataUnit.append(entry.numberUnit.map { vocabulary.units.id($0) } ?? 0)
        }
        metadataStart.append(UInt32(metadataKey.count))
        for beat in sample.beats {
            var beatPresent: BeatPresence = []
            if beat.bpm != nil { beatPresent.insert(.bpm) }
            if beat.secondOfDay != nil { beatPresent.insert(.secondOfDay) }
            if beat.seconds != nil { beatPresent.insert(.seconds) }
            beatPresence.append(beatPresent)
            beatBPM.append(beat.bpm ?? 0)
            beatSecondOfDay.append(beat.secondOfDay ?? 0)
            beatSeconds.append(beat.seconds ?? 0)
            beatRawTime.append(store(beat.rawTime))
        }
        beatStart.append(UInt32(beatBPM.count))
    }

    /// The row as the `Sample` it was appended as: same strings, the same shared `SampleSource`, the same bits.
    package func sample(at row: Int) -> Sample {
        let present = presence[row]
        var sample = Sample(
            type: vocabulary.types.string(type[row]), source: vocabulary.source(source[row]), line: line[row])
        if unit[row] != 0 { sample.unit = vocabulary.units.string(unit[row]) }
        if rawUnit[row] != 0 { sample.rawUnit = vocabulary.units.string(rawUnit[row]) }
        if present.contains(.creation) {
            sample.creationDate = Timestamp(seconds: creation[row], offsetSeconds: creationOffset[row])
        }
        if present.contains(.start) {
            sample.startDate = Timestamp(seconds: start[row], offsetSeconds: startOffset[row])
        }
        if present.contains(.end) { sample.endDate = Timestamp(seconds: end[row], offsetSeconds: endOffset[row]) }
        if present.contains(.value) { sample.value = value[row] }
        if present.contains(.rawNumber) { sample.rawValue = rawValue[row] }
        if present.contains(.text) { sample.textValue = vocabulary.texts.string(text[row]) }
        if present.contains(.freeText) { sample.textValue = string(freeText[row]) }
        if present.contains(.rawText) { sample.rawTextValue = string(rawText[row]) }
        sample.flags = SampleFlags(rawValue: flags[row])
        sample.metadata = metadataRange(row).map(metadataEntry)
        sample.beats = beatRange(row).map { index in
            let beatPresent = beatPresence[index]
            return HeartbeatReading(
                bpm: beatPresent.contains(.bpm) ? beatBPM[index] : nil,
                secondOfDay: beatPresent.contains(.secondOfDay) ? beatSecondOfDay[index] : nil,
                seconds: beatPresent.contains(.seconds) ? beatSeconds[index] : nil,
                rawTime: string(beatRawTime[index]))
        }
        return sample
    }

    /// The indices of row `row`'s metadata entries in the metadata columns.
    package func metadataRange(_ row: Int) -> Range<Int> { Int(metadataStart[row])..<Int(metadataStart[row + 1]) }

    /// The indices of row `row`'s beats in the beat columns.
    package func beatRange(_ row: Int) -> Range<Int> { Int(beatStart[row])..<Int(beatStart[row + 1]) }

    /// Metadata entry `index` (of `metadataRange`) as the `Sample` form has it.
    package func metadataEntry(_ index: Int) -> MetadataEntry {
        MetadataEntry(
            key: vocabulary.keys.string(metadataKey[index]), value: string(metadataValue[index]),
            number: metadataHasNumber[index] ? metadataNumber[index] : nil,
            numberUnit: metadataUnit[index] == 0 ? nil : vocabulary.units.string(metadataUnit[index]))
    }

    private static func appendDate(
        _ date: Timestamp?, _ flag: Presence, _ seconds: inout [Int64], _ offsets: inout [Int32],
        _ present: inout Presence
    ) {
        if date != nil { present.insert(flag) }
        seconds.append(date?.seconds ?? 0)
        offsets.append(date?.offsetSeconds ?? 0)
    }

    /// Copies a text's UTF-8 into the arena.
    private mutating func store(_ text: String) -> ArenaSpan {
        var copy = text
        return copy.withUTF8 { bytes in
            precondition(arena.count + bytes.count < Int(UInt32.max), "a batch's texts exceed 4 GiB")
            let span = ArenaSpan(offset: UInt32(arena.count), count: UInt32(bytes.count))
            arena.append(contentsOf: bytes)
            return span
        }
    }
}
