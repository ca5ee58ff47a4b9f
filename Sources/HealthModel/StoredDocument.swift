/// A side file kept as it is (`export_cda.xml`), on its way from the reader to the sink without its bytes.
///
/// A CDA document of a heavy user runs to hundreds of megabytes, so it never crosses the item queue as a
/// buffer: the reader opens the file (a missing or unreadable one stays the reader's warning) and hands over
/// the open stream with the size the zip's central directory (or the file system) announces; the sink reads
/// the stream in chunks straight into an incremental blob of that size (`DocumentWriter` in HealthStore).
///
/// `@unchecked Sendable`: the stream is used by one thread at a time. The reader thread opens it and never
/// touches it again once the item is in `ItemQueue`, whose lock orders that hand-over; the writing thread
/// then reads it to the end, once.
public final class StoredDocument: @unchecked Sendable {
    /// The path relative to the export (`export_cda.xml`), the `documents.name` it is stored under.
    public let name: String
    /// The byte count announced before reading: the zip entry's uncompressed size, or the file's size.
    public let size: UInt64
    /// The export the user named and the entry to name in messages (as `ImportError` places them).
    public let file: String
    public let entry: String
    package let stream: ByteStream

    package init(name: String, size: UInt64, stream: ByteStream, file: String, entry: String) {
        self.name = name
        self.size = size
        self.stream = stream
        self.file = file
        self.entry = entry
    }
}
