/// Where the pipeline's items end up (SQLite now; CSV and others later).
///
/// A sink makes its output durable only in `finish`; `abort` must leave any existing output exactly as it
/// was before the run.
public protocol ExportSink: AnyObject {
    func write(_ item: ExportItem) throws
    /// `write` for an item the caller hands over; a sink that keeps items (a queue) takes it without a copy.
    func write(handingOver item: consuming ExportItem) throws
    /// Makes the output durable; returns the summary with what the sink itself did at the end.
    func finish(_ summary: ImportSummary) throws -> ImportSummary
    func abort()
}

extension ExportSink {
    public func write(handingOver item: consuming ExportItem) throws { try write(item) }
}
