extension SampleBatch {
    /// Keeps the rows whose `keep` is true, in order, with their metadata and beats; `others` stay where they
    /// were among the kept rows. In place, without allocating: a filter stage's drop is one pass. The arena is
    /// not compacted (the kept rows' spans stay valid; it is emptied with the batch).
    package mutating func retain(_ keep: [Bool]) {
        precondition(keep.count == rowCount, "a mask of \(keep.count) for \(rowCount) rows")
        var kept = 0
        var metadataKept = 0
        var beatsKept = 0
        var other = 0
        // The starts are overwritten as rows move down; each row's own range is read before that.
        var metadataFrom = 0
        var beatsFrom = 0
        for row in 0..<keep.count {
            while other < others.count, others[other].beforeRow <= row {
                others[other].beforeRow = Int32(kept)
                other += 1
            }
            let metadataTo = Int(metadataStart[row + 1])
            let beatsTo = Int(beatStart[row + 1])
            defer {
                metadataFrom = metadataTo
                beatsFrom = beatsTo
            }
            guard keep[row] else { continue }
            if kept != row { moveRow(row, to: kept) }
            for index in metadataFrom..<metadataTo {
                if index != metadataKept { moveMetadata(index, to: metadataKept) }
                metadataKept += 1
            }
            for index in beatsFrom..<beatsTo {
                if index != beatsKept { moveBeat(index, to: beatsKept) }
                beatsKept += 1
            }
            kept += 1
            metadataStart[kept] = UInt32(metadataKept)
            beatStart[kept] = UInt32(beatsKept)
        }
        while other < others.count {
            others[other].beforeRow = Int32(kept)
            other += 1
        }
        truncate(rows: kept, metadata: metadataKept, beats: beatsKept)
    }

    /// Drops the rows from `row` on with their entries and beats (and an open row's); `others` are left alone.
    package mutating func removeRows(from row: Int) {
        truncate(rows: row, metadata: Int(metadataStart[row]), beats: Int(beatStart[row]))
    }

    private mutating func moveRow(_ from: Int, to: Int) {
        type[to] = type[from]
        source[to] = source[from]
        unit[to] = unit[from]
        rawUnit[to] = rawUnit[from]
        creation[to] = creation[from]
        creationOffset[to] = creationOffset[from]
        start[to] = start[from]
        startOffset[to] = startOffset[from]
        end[to] = end[from]
        endOffset[to] = endOffset[from]
        value[to] = value[from]
        rawValue[to] = rawValue[from]
        text[to] = text[from]
        freeText[to] = freeText[from]
        rawText[to] = rawText[from]
        presence[to] = presence[from]
        flags[to] = flags[from]
        line[to] = line[from]
        identity[to] = identity[from]
    }

    private mutating func moveMetadata(_ from: Int, to: Int) {
        metadataKey[to] = metadataKey[from]
        metadataValue[to] = metadataValue[from]
        metadataNumber[to] = metadataNumber[from]
        metadataHasNumber[to] = metadataHasNumber[from]
        metadataUnit[to] = metadataUnit[from]
    }

    private mutating func moveBeat(_ from: Int, to: Int) {
        beatBPM[to] = beatBPM[from]
        beatSecondOfDay[to] = beatSecondOfDay[from]
        beatSeconds[to] = beatSeconds[from]
        beatPresence[to] = beatPresence[from]
        beatRawTime[to] = beatRawTime[from]
    }

    private mutating func truncate(rows: Int, metadata: Int, beats: Int) {
        let rowsGone = rowCount - rows
        type.removeLast(rowsGone)
        source.removeLast(rowsGone)
        unit.removeLast(rowsGone)
        rawUnit.removeLast(rowsGone)
        creation.removeLast(rowsGone)
        creationOffset.removeLast(rowsGone)
        start.removeLast(rowsGone)
        startOffset.removeLast(rowsGone)
        end.removeLast(rowsGone)
        endOffset.removeLast(rowsGone)
        value.removeLast(rowsGone)
        rawValue.removeLast(rowsGone)
        text.removeLast(rowsGone)
        freeText.removeLast(rowsGone)
        rawText.removeLast(rowsGone)
        presence.removeLast(rowsGone)
        flags.removeLast(rowsGone)
        line.removeLast(rowsGone)
        identity.removeLast(rowsGone)
        metadataStart.removeLast(rowsGone)
        beatStart.removeLast(rowsGone)
        let metadataGone = metadataKey.count - metadata
        metadataKey.removeLast(metadataGone)
        metadataValue.removeLast(metadataGone)
        metadataNumber.removeLast(metadataGone)
        metadataHasNumber.removeLast(metadataGone)
        metadataUnit.removeLast(metadataGone)
        let beatsGone = beatBPM.count - beats
        beatBPM.removeLast(beatsGone)
        beatSecondOfDay.removeLast(beatsGone)
        beatSeconds.removeLast(beatsGone)
        beatPresence.removeLast(beatsGone)
        beatRawTime.removeLast(beatsGone)
    }
}
