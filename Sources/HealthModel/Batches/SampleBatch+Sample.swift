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
        // The row's names first, then its entries', in the order the decoder interns them.
        var row = Row(
            type: vocabulary.types.id(sample.type), source: vocabulary.id(of: sample.source), line: sample.line)
        row.unit = sample.unit.map { vocabulary.units.id($0) } ?? 0
        row.rawUnit = sample.rawUnit.map { vocabulary.units.id($0) } ?? 0
        row.creation = sample.creationDate
        row.start = sample.startDate
        row.end = sample.endDate
        row.value = sample.value
        row.rawValue = sample.rawValue
        if let textValue = sample.textValue, sample.isCategory {
            row.text = vocabulary.texts.id(textValue)
        } else {
            row.freeText = sample.textValue
        }
        row.rawText = sample.rawTextValue
        row.flags = sample.flags
        for entry in sample.metadata {
            var value = entry.value
            let key = vocabulary.keys.id(entry.key)
            let numberUnit = entry.numberUnit.map { vocabulary.units.id($0) } ?? 0
            value.withUTF8 { appendMetadata(key: key, value: $0, number: entry.number, numberUnit: numberUnit) }
        }
        for beat in sample.beats {
            var rawTime = beat.rawTime
            rawTime.withUTF8 {
                appendBeat(bpm: beat.bpm, secondOfDay: beat.secondOfDay, seconds: beat.seconds, rawTime: $0)
            }
        }
        closeRow(row)
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
        // Loops, not `map` with closures: a closure capturing `self` copied the whole batch (every column
        // retained) for each row.
        let entries = metadataRange(row)
        if !entries.isEmpty {
            sample.metadata.reserveCapacity(entries.count)
            for index in entries { sample.metadata.append(metadataEntry(index)) }
        }
        let beats = beatRange(row)
        if !beats.isEmpty {
            sample.beats.reserveCapacity(beats.count)
            for index in beats {
                let beatPresent = beatPresence[index]
                sample.beats.append(
                    HeartbeatReading(
                        bpm: beatPresent.contains(.bpm) ? beatBPM[index] : nil,
                        secondOfDay: beatPresent.contains(.secondOfDay) ? beatSecondOfDay[index] : nil,
                        seconds: beatPresent.contains(.seconds) ? beatSeconds[index] : nil,
                        rawTime: string(beatRawTime[index])))
            }
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
}
