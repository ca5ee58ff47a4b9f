/// Where the pipeline's items end up (SQLite now; CSV and others later).
///
/// A sink makes its output durable only in `finish`; `abort` must leave any existing output exactly as it
/// was before the run.
public protocol ExportSink: AnyObject {
    func write(_ item: ExportItem) throws
    /// Makes the output durable; returns the summary with what the sink itself did at the end.
    func finish(_ summary: ImportSummary) throws -> ImportSummary
    func abort()
}
