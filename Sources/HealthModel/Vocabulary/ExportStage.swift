/// One transform between the reader and the sinks: a small value that sees each item once and passes on
/// zero, one or more items. Stages report what they changed or dropped through `report`, so nothing
/// disappears without a count.
///
/// Items are handed over (`consuming`), not lent: a stage that changes a sample changes the only copy, and
/// passing one on moves it, instead of retaining and releasing every string and array it holds, for each of
/// millions of items and each stage.
public protocol ExportStage {
    var name: String { get }
    mutating func process(_ item: consuming ExportItem, emit: (consuming ExportItem) throws -> Void) throws
    /// Called after the last item: a stage that holds items back (a dedup window) emits them here.
    mutating func finish(emit: (consuming ExportItem) throws -> Void) throws
    /// Counts for the run summary (`dropped exact duplicates: 12`).
    var report: [String: Int] { get }
}

extension ExportStage {
    public mutating func finish(emit: (consuming ExportItem) throws -> Void) throws {}
}
