/// A forward-only source of bytes: a plain file, or a zip entry being inflated.
///
/// Every reader in the library pulls from one of these in fixed-size chunks, which is what keeps memory flat
/// however large the export is. Errors thrown are `ImportError`s.
public protocol ByteStream: AnyObject {
    /// Fills `buffer` from the start with up to `buffer.count` bytes and returns how many were written;
    /// 0 means the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// How many bytes the stream will produce in all, when known (for progress and ratio checks).
    var expectedSize: UInt64? { get }
}

extension ByteStream {
    /// Reads the whole stream. Only for side files that are small by nature (FHIR JSON, ECG CSV), with a
    /// limit so a hostile entry cannot exhaust memory.
    public func readAll(limit: Int) throws -> [UInt8] {
        let tooLarge = ImportError(.input, "file is larger than the \(limit / 1_048_576) MB allowed for it")
        var result: [UInt8] = []
        if let size = expectedSize {
            // Refused before reading when its size is known; else sized once, not grown by doubling.
            guard size <= UInt64(limit) else { throw tooLarge }
            result.reserveCapacity(Int(size))
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return result }
            if result.count + count > limit { throw tooLarge }
            result.append(contentsOf: chunk[0..<count])
        }
    }
}
