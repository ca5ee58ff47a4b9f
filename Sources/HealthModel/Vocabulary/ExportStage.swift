/// One transform between the reader and the sinks: a small value that sees each item once and passes on
/// zero, one or more items. Stages report what they changed or dropped through `report`, so nothing
/// disappears without a count.
public protocol ExportStage {
    var name: String { get }
    mutating func process(_ item: ExportItem, emit: (ExportItem) throws -> Void) throws
    /// Called after the last item: a stage that holds items back (a dedup window) emits them here.
    mutating func finish(emit: (ExportItem) throws -> Void) throws
    /// Counts for the run summary (`dropped exact duplicates: 12`).
    var report: [String: Int] { get }
}

extension ExportStage {
    public mutating func finish(emit: (ExportItem) throws -> Void) throws {}
}
