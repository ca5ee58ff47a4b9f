import CZlib
import HealthModel

/// The uncompressed bytes of one zip entry, inflated as they are read.
///
/// Compressed data is read with `pread` in 256 KiB chunks from the archive's shared descriptor, at this
/// stream's own offset, so any number of entry streams can be read side by side. Memory is the input chunk plus
/// zlib's 32 KiB window, whatever the entry's size.
///
/// When the deflate stream ends, the CRC-32 and size of the output are checked against the central directory.
/// The zip-bomb guards of `ZipArchive.Limits` are enforced as the bytes come out: the stream never produces
/// more than the declared size (it asks zlib for at most one byte past it, and fails if that byte appears), and
/// past the ratio threshold it fails if output ever exceeds `maxRatio` × the compressed bytes consumed.
///
/// Errors are sticky: after one, every later `read` throws the same error.
final class InflatingEntryStream: ByteStream {
    private static let inputChunkSize = 256 * 1024

    let expectedSize: UInt64?
    private let file: ZipFile
    private let entry: ZipEntry
    private let limits: ZipArchive.Limits
    private let dataStart: UInt64
    private let dataEnd: UInt64
    /// The absolute file offset of the next compressed byte to read from disk.
    private var readOffset: UInt64
    private var produced: UInt64 = 0
    private var checksum: UInt = 0
    private var finished = false
    private var failure: ImportError?

    // Lifetime: zlib keeps a back-pointer to its z_stream and rejects calls made with another address, so the
    // struct lives on the heap from init to deinit. nil for stored entries, which need no zlib state.
    private let inflater: UnsafeMutablePointer<z_stream>?
    private let input: UnsafeMutableRawBufferPointer?

    init(file: ZipFile, entry: ZipEntry, dataStart: UInt64, limits: ZipArchive.Limits) throws {
        self.file = file
        self.entry = entry
        self.limits = limits
        self.dataStart = dataStart
        // The caller checked that the data lies inside the file, so this cannot overflow.
        dataEnd = dataStart + entry.compressedSize
        readOffset = dataStart
        expectedSize = entry.uncompressedSize
        if entry.method == 8 {
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // Raw deflate (negative window bits): zip entries carry no zlib header or trailer.
            guard czlib_inflate_init2(stream, -MAX_WBITS) == Z_OK else {
                stream.deallocate()
                throw ImportError(.internal, "cannot start zlib inflate", file: file.path, entry: entry.name)
            }
            inflater = stream
            input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inputChunkSize, alignment: 1)
        } else {
            inflater = nil
            input = nil
        }
        checksum = crc32(0, nil, 0)
    }

    deinit {
        if let inflater {
            inflateEnd(inflater)
            inflater.deallocate()
        }
        input?.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let failure { throw failure }
        guard !finished, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        // At most one byte past the declared size: enough to notice an overrun, never enough to fill a disk.
        let allowed = entry.uncompressedSize - produced
        let room = Int(min(UInt64(buffer.count), allowed == .max ? allowed : allowed + 1, UInt64(UInt32.max)))
        do {
            if let inflater {
                return try inflate(into: base, room: room, stream: inflater)
            }
            return try copyStored(into: base, room: room)
        } catch let error as ImportError {
            failure = error
            throw error
        }
    }

    private func inflate(into base: UnsafeMutableRawPointer, room: Int, stream: UnsafeMutablePointer<z_stream>)
        throws -> Int
    {
        while true {
            if stream.pointee.avail_in == 0 && readOffset < dataEnd {
                try refill(stream)
            }
            stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(room)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let count = room - Int(stream.pointee.avail_out)
            switch status {
            case Z_OK, Z_STREAM_END, Z_BUF_ERROR:
                break
            case Z_MEM_ERROR:
                throw ImportError(.internal, "out of memory while inflating", file: file.path, entry: entry.name)
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw ImportError.zipCorrupt(
                    "zip entry is corrupt (invalid deflate data: \(detail))", file: file.path, entry: entry.name)
            }
            if count > 0 {
                let consumed = readOffset - UInt64(stream.pointee.avail_in) - dataStart
                try account(UnsafeRawPointer(base), count: count, consumed: consumed)
            }
            if status == Z_STREAM_END {
                try finish()
                return count
            }
            if count > 0 { return count }
            if stream.pointee.avail_in == 0 && readOffset >= dataEnd {
                throw ImportError.zipCutShort(
                    "at byte \(dataEnd): this entry's compressed data ends before its deflate stream does",
                    file: file.path, entry: entry.name)
            }
            if status == Z_BUF_ERROR && stream.pointee.avail_in > 0 {
                // No progress with input and room both available: zlib is stuck; never loop on it.
                throw ImportError.zipCorrupt(
                    "zip entry is corrupt (inflate made no progress)", file: file.path, entry: entry.name)
            }
        }
    }

    /// Reads the next chunk of compressed data into the input buffer.
    private func refill(_ stream: UnsafeMutablePointer<z_stream>) throws {
        guard let input, let base = input.baseAddress else { return }
        let length = Int(min(UInt64(input.count), dataEnd - readOffset))
        let count = try file.read(at: readOffset, into: UnsafeMutableRawBufferPointer(start: base, count: length))
        guard count > 0 else {
            throw ImportError.zipCutShort("at byte \(readOffset)", file: file.path, entry: entry.name)
        }
        readOffset += UInt64(count)
        stream.pointee.next_in = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(count)
    }

    private func copyStored(into base: UnsafeMutableRawPointer, room: Int) throws -> Int {
        guard readOffset < dataEnd else {
            try finish()
            return 0
        }
        let length = Int(min(UInt64(room), dataEnd - readOffset))
        let count = try file.read(at: readOffset, into: UnsafeMutableRawBufferPointer(start: base, count: length))
        guard count > 0 else {
            throw ImportError.zipCutShort("at byte \(readOffset)", file: file.path, entry: entry.name)
        }
        readOffset += UInt64(count)
        try account(UnsafeRawPointer(base), count: count, consumed: readOffset - dataStart)
        if readOffset == dataEnd { try finish() }
        return count
    }

    /// Adds freshly produced bytes to the checksum and enforces the zip-bomb limits.
    private func account(_ bytes: UnsafeRawPointer, count: Int, consumed: UInt64) throws {
        checksum = crc32(checksum, bytes.assumingMemoryBound(to: Bytef.self), UInt32(count))
        produced += UInt64(count)
        guard produced <= entry.uncompressedSize else {
            throw ImportError.zipCorrupt(
                "zip entry unpacks to more than the \(entry.uncompressedSize) bytes it declares (corrupt, or a zip "
                    + "bomb)", file: file.path, entry: entry.name)
        }
        if produced > limits.ratioCheckThreshold {
            let ceiling = consumed.multipliedReportingOverflow(by: limits.maxRatio)
            if !ceiling.overflow && produced > ceiling.partialValue {
                throw ImportError(
                    .input,
                    "zip entry expands more than \(limits.maxRatio)× (possible zip bomb); refusing to "
                        + "unpack it", file: file.path, entry: entry.name,
                    hint: "real Health exports expand 20–40×; check where the file came from")
            }
        }
    }

    /// Checks the finished output against the central directory.
    private func finish() throws {
        finished = true
        guard produced == entry.uncompressedSize else {
            throw ImportError.zipCorrupt(
                "zip entry is corrupt (it unpacked to \(produced) bytes, not the \(entry.uncompressedSize) it "
                    + "declares)", file: file.path, entry: entry.name)
        }
        guard UInt32(truncatingIfNeeded: checksum) == entry.crc32 else {
            throw ImportError.zipCorrupt("zip entry is corrupt (CRC mismatch)", file: file.path, entry: entry.name)
        }
    }
}
