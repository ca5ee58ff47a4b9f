/// One transform between the reader and the sinks: a small value that sees each item once and passes on
/// zero, one or more items. Stages report what they changed or dropped through `report`, so nothing
/// disappears without a count.
///
/// Items are handed over (`consuming`), not lent: a stage that changes a sample changes the only copy, and
/// passing one on moves it, instead of retaining and releasing every string and array it holds, for each of
/// millions of items and each stage.
///
/// An import hands stages batches (`process(_ batch:)`): the records as columns, every other item in `others`.
/// A stage that changes or drops records implements the batch form over the columns, with the same results
/// and counts as its item form; the default runs `others` alone through the item form.
public protocol ExportStage {
    var name: String { get }
    mutating func process(_ item: consuming ExportItem, emit: (consuming ExportItem) throws -> Void) throws
    /// The batch form: rows and `others` changed or dropped in place, in document order.
    mutating func process(_ batch: inout SampleBatch) throws
    /// Called after the last item: a stage that holds items back (a dedup window) emits them here.
    mutating func finish(emit: (consuming ExportItem) throws -> Void) throws
    /// Counts for the run summary (`dropped exact duplicates: 12`).
    var report: [String: Int] { get }
}

extension ExportStage {
    public mutating func finish(emit: (consuming ExportItem) throws -> Void) throws {}

    public mutating func process(_ batch: inout SampleBatch) throws {
        try batch.processOthers { try process($0, emit: $1) }
    }
}

extension SampleBatch {
    /// Runs every item of `others` through an item stage's `process`, in order: what it emits takes the item's
    /// place (before the same row), what it drops is gone. Rows are left alone.
    package mutating func processOthers(
        _ process: (consuming ExportItem, (consuming ExportItem) throws -> Void) throws -> Void
    ) rethrows {
        guard !others.isEmpty else { return }
        var emitted: [(beforeRow: Int32, item: ExportItem)] = []
        emitted.reserveCapacity(others.count)
        for index in others.indices {
            let row = others[index].beforeRow
            try process(takeOther(index)) { emitted.append((row, $0)) }
        }
        others = emitted
    }
}
