/// A batch's closed rows (as `Sample`s) and its other items, taken out one at a time in document order: an item
/// of `others` comes before the row it preceded. For item-by-item reading (`ExportReader.next`, the chunk decoder
/// that hands items on as a list, tests); an import writes batches (until the sink takes them, `ImportJob`'s
/// writing loop walks a batch the same way, with each row's identity).
package struct BatchItemCursor {
    private var nextRow = 0
    private var nextOther = 0

    package init() {}

    /// The next item, or nil when every closed row and other item has been taken; then the caller empties the
    /// batch's closed rows and calls `reset`.
    package mutating func next(from batch: inout SampleBatch) -> ExportItem? {
        if nextOther < batch.others.count, batch.others[nextOther].beforeRow <= nextRow {
            // Moved out instead of copied: a copy would retain every string and array the item holds.
            let item = batch.takeOther(nextOther)
            nextOther += 1
            return item
        }
        guard nextRow < batch.rowCount else { return nil }
        nextRow += 1
        return .sample(batch.sample(at: nextRow - 1))
    }

    package mutating func reset() {
        nextRow = 0
        nextOther = 0
    }
}
