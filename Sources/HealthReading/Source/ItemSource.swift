import HealthModel

/// What the decoding thread reads from: an export (`ExportReader`) or a feed file (a `FeedReader`, such as
/// `HealthAutoExportReader`).
///
/// An import takes batches (`produceBatches`); a source that yields items one at a time (the feed readers)
/// implements `produce`, and the default `produceBatches` collects its items into batches on the same thread.
public protocol ItemSource: AnyObject {
    /// Pushes every item, one at a time, in order, into `body`.
    func produce(_ body: (consuming ExportItem) throws -> Void) throws
    /// Pushes every item, as batches in order, into `body`: records as rows, everything else in `others`. A
    /// batch is lent: `body` may swap it for an empty spare, and leaves in it the vocabulary to continue from
    /// (with any name a stage added). A batch's names are its own copy of the vocabulary, readable on another
    /// thread while the source adds names to its own.
    func produceBatches(_ body: (inout SampleBatch) throws -> Void) throws
    /// Bytes read so far, and the total when known.
    var progress: (done: UInt64, total: UInt64?) { get }
    var removedControlCharacters: Int { get }
    /// Counted warnings.
    var warnings: [String: Int] { get }
}

extension ItemSource {
    /// Items appended into batches (a sample as a row, anything else into `others`) cut at
    /// `SampleBatch.fullWeight`. One vocabulary for the whole run: sources keep the ids their reader gave them.
    public func produceBatches(_ body: (inout SampleBatch) throws -> Void) throws {
        var batch = SampleBatch(vocabulary: Vocabulary())
        var weight = 0
        try produce { item in try batch.append(item, weighing: &weight, handOn: body) }
        if batch.hasContent { try batch.handOn(body) }
    }
}
