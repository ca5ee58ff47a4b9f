/// How a batch leaves its filler: weighed, cut, handed on with its vocabulary, and emptied for reuse.
extension SampleBatch {
    /// The weight a batch is cut at: about 4096 small rows, half a megabyte (`ItemQueue` bounds the sum).
    package static let fullWeight = 4096

    /// About how many small rows the batch becomes, the memory it holds: rows, metadata entries and beats, and
    /// `ExportItem.weight` of each other item (a workout's route points, an ECG's samples).
    package var weight: Int {
        var weight = rowCount + metadataKey.count + beatBPM.count
        for other in others { weight += other.item.weight }
        return weight
    }

    /// The weight of rows `..<rows` with their entries and beats.
    package func rowWeight(_ rows: Int) -> Int { rows + Int(metadataStart[rows]) + Int(beatStart[rows]) }

    /// Whether there is anything to hand on: a closed row or another item.
    package var hasContent: Bool { rowCount > 0 || !others.isEmpty }

    /// How far a batch being filled has been weighed, in document order.
    package struct Weighing {
        package var rows = 0
        package var others = 0
        package var weight = 0
        package init() {}
    }

    /// Weighs the rows and other items past `weighing`, in document order, each other item first changed by
    /// `resolve` (its side files read, which makes it heavy), until the weight reaches `fullWeight`: true when it
    /// did, with `weighing` at the cut. One call per parsed chunk (a row's weight read in place, not per access).
    package mutating func weigh(_ weighing: inout Weighing, resolve: (consuming ExportItem) -> ExportItem) -> Bool {
        while weighing.weight < Self.fullWeight {
            if weighing.others < others.count, others[weighing.others].beforeRow <= weighing.rows {
                changeOther(weighing.others, resolve)
                weighing.weight += others[weighing.others].item.weight
                weighing.others += 1
            } else if weighing.rows < rowCount {
                let next = weighing.rows + 1
                weighing.weight +=
                    1 + Int(metadataStart[next] - metadataStart[weighing.rows])
                    + Int(beatStart[next] - beatStart[weighing.rows])
                weighing.rows = next
            } else {
                return false
            }
        }
        return true
    }

    /// Hands on every full batch's worth of this batch, from its front, through `out` (emptied and lent to `body`
    /// each time), while the weight past `weighing` reaches `fullWeight`; `weighing` is left at what remains, to be
    /// continued when more rows come. Other items are changed by `resolve` as they are weighed (their side files
    /// read, which makes them heavy). The vocabulary `body` leaves in `out` is kept (a stage may add names).
    /// One cutting rule for the reader's batch and for each `--threads N` worker's.
    package mutating func handOnFullBatches(
        _ weighing: inout Weighing, through out: inout SampleBatch, resolve: (consuming ExportItem) -> ExportItem,
        _ body: (inout SampleBatch) throws -> Void
    ) rethrows {
        while weigh(&weighing, resolve: resolve) {
            moveFront(rows: weighing.rows, others: weighing.others, into: &out)
            try out.handOn(body)
            vocabulary = out.vocabulary
            weighing = Weighing()
        }
    }

    /// Replaces `others[index]` by what `change` makes of it (moved, not copied).
    package mutating func changeOther(_ index: Int, _ change: (consuming ExportItem) throws -> ExportItem) rethrows {
        others[index].item = try change(takeOther(index))
    }

    /// Lends the batch to `body` (which may swap it for a spare, as `BatchCutter` does), then empties what it
    /// left. The vocabulary `body` leaves is kept: a stage may have added a name (a canonical unit), and the
    /// filler continues from it, so an id means one text in every batch of a run.
    package mutating func handOn(_ body: (inout SampleBatch) throws -> Void) rethrows {
        try body(&self)
        removeAll(keepingCapacity: true)
    }

    /// Appends `item` (a sample as a row, anything else into `others`) and hands the batch on once `weight`, the
    /// weight appended since the last hand-on, reaches `fullWeight`: how sources that read items fill batches.
    package mutating func append(
        _ item: consuming ExportItem, weighing weight: inout Int, handOn body: (inout SampleBatch) throws -> Void
    ) rethrows {
        weight += item.weight
        append(item)
        if weight >= Self.fullWeight {
            try handOn(body)
            weight = 0
        }
    }

    /// Moves the closed rows `..<rows` and the other items `..<othersCount` (those before row `rows` in document
    /// order) into `front`, which is emptied first and gets the vocabulary; this batch keeps the rest and the open
    /// row's entries. The storage moves (a swap); only the rows after the cut are copied back, column by column.
    package mutating func moveFront(rows: Int, others othersCount: Int, into front: inout SampleBatch) {
        precondition(othersCount == others.count || others[othersCount].beforeRow >= rows, "cut inside the order")
        front.removeAll(keepingCapacity: true)
        swap(&self, &front)
        vocabulary = front.vocabulary
        if rows < front.rowCount { appendRows(of: front, rows..<front.rowCount) }
        if othersCount < front.others.count {
            for index in othersCount..<front.others.count {
                others.append((front.others[index].beforeRow - Int32(rows), front.takeOther(index)))
            }
            front.others.removeLast(front.others.count - othersCount)
        }
        takeOpenRow(from: &front)
        if rows < front.rowCount { front.removeRows(from: rows) }
    }

    /// Appends `other`'s closed rows `range` with their entries, beats and texts (ids are the same vocabulary's).
    /// This batch has no open row.
    package mutating func appendRows(of other: SampleBatch, _ range: Range<Int>) {
        precondition(openMetadataCount == 0 && openBeats.isEmpty, "rows appended behind an open row")
        type += other.type[range]
        source += other.source[range]
        unit += other.unit[range]
        rawUnit += other.rawUnit[range]
        creation += other.creation[range]
        creationOffset += other.creationOffset[range]
        start += other.start[range]
        startOffset += other.startOffset[range]
        end += other.end[range]
        endOffset += other.endOffset[range]
        value += other.value[range]
        rawValue += other.rawValue[range]
        text += other.text[range]
        presence += other.presence[range]
        flags += other.flags[range]
        line += other.line[range]
        identity += other.identity[range]
        for row in range {
            freeText.append(
                other.presence[row].contains(.freeText) ? other.withBytes(other.freeText[row]) { store($0) } : .empty)
            rawText.append(
                other.presence[row].contains(.rawText) ? other.withBytes(other.rawText[row]) { store($0) } : .empty)
        }
        let entries = Int(other.metadataStart[range.lowerBound])..<Int(other.metadataStart[range.upperBound])
        let entryShift = Int(metadataKey.count) - entries.lowerBound
        metadataKey += other.metadataKey[entries]
        metadataNumber += other.metadataNumber[entries]
        metadataHasNumber += other.metadataHasNumber[entries]
        metadataUnit += other.metadataUnit[entries]
        for index in entries { metadataValue.append(other.withBytes(other.metadataValue[index]) { store($0) }) }
        let beats = Int(other.beatStart[range.lowerBound])..<Int(other.beatStart[range.upperBound])
        let beatShift = beatBPM.count - beats.lowerBound
        beatBPM += other.beatBPM[beats]
        beatSecondOfDay += other.beatSecondOfDay[beats]
        beatSeconds += other.beatSeconds[beats]
        beatPresence += other.beatPresence[beats]
        for index in beats { beatRawTime.append(other.withBytes(other.beatRawTime[index]) { store($0) }) }
        for row in range {
            metadataStart.append(UInt32(Int(other.metadataStart[row + 1]) + entryShift))
            beatStart.append(UInt32(Int(other.beatStart[row + 1]) + beatShift))
        }
    }
}
