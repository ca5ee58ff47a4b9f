import HealthModel

/// What the decoding thread reads items from: an export (`ExportReader`) or a feed file (a `FeedReader`, such
/// as `HealthAutoExportReader`). The source pushes its items, one at a time, into `body`.
public protocol ItemSource: AnyObject {
    func produce(_ body: (consuming ExportItem) throws -> Void) throws
    /// Bytes read so far, and the total when known.
    var progress: (done: UInt64, total: UInt64?) { get }
    var removedControlCharacters: Int { get }
    /// Counted warnings.
    var warnings: [String: Int] { get }
}

extension ExportReader: ItemSource {
    public func produce(_ body: (consuming ExportItem) throws -> Void) throws {
        while let item = try next() { try body(item) }
    }
}
