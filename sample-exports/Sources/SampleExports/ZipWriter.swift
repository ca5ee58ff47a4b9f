import CZlib
import Glibc

/// An error while writing a zip: the file cannot be written, or the writer was used out of order.
public struct ZipWriterError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) { self.description = description }
}

/// A streaming zip writer that lays entries out as Apple's Health exporter does.
///
/// By default every entry is deflated with general-purpose flag bit 3 set: the local header carries CRC 0 and
/// compressed size 0, and a data descriptor (with its `PK\7\8` signature) follows the data. This is the
/// layout a reader must cope with, so the generator produces it. Entries are streamed through zlib with
/// bounded buffers, so multi-gigabyte entries cost no more memory than small ones; ZIP64 records appear
/// automatically once a size or offset reaches 4 GiB, or always with `forceZip64`.
///
/// Stored (method 0) entries are buffered in memory and written with their sizes in the local header, since
/// most readers reject stored entries with data descriptors; use them only for small data.
public final class ZipWriter {
    public struct Options: Sendable {
        /// Flag bit 3, as Apple writes it; off means the local header is patched with the real CRC and sizes.
        public var useDataDescriptor = true
        /// Write ZIP64 extra fields and end records even when nothing needs them.
        public var forceZip64 = false
        /// Set flag bit 11 (UTF-8 names); off writes the same UTF-8 bytes unflagged, as some macOS tools do.
        public var utf8Names = true
        public var compressionLevel: Int32 = 6

        public init() {}
    }

    private struct CentralRecord {
        var name: [UInt8]
        var flags: UInt16
        var method: UInt16
        var crc: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var offset: UInt64
    }

    public let path: String
    private let options: Options
    private var descriptor: Int32
    private var output: [UInt8] = []
    private var offset: UInt64 = 0
    private var records: [CentralRecord] = []
    /// The entry being written, its running CRC, and (stored entries only) its data.
    private var current: CentralRecord?
    private var checksum: UInt = 0
    private var storedData: [UInt8] = []
    private var finished = false

    private static let outputBufferSize = 1 << 20
    private static let deflateChunkSize = 256 * 1024
    private static let max32: UInt64 = 0xFFFF_FFFF
    /// 1980-01-01 00:00, the DOS epoch: a fixed timestamp keeps generated zips byte-for-byte reproducible.
    private static let dosTime: UInt16 = 0
    private static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1

    // Lifetime: zlib keeps a back-pointer to its z_stream, so the struct lives on the heap until deinit.
    private let deflater: UnsafeMutablePointer<z_stream>
    private let deflated: UnsafeMutableRawBufferPointer

    public init(path: String, options: Options = .init()) throws {
        self.path = path
        self.options = options
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ZipWriterError("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        deflater = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        deflater.initialize(to: z_stream())
        deflated = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.deflateChunkSize, alignment: 1)
        output.reserveCapacity(Self.outputBufferSize)
        // Raw deflate (negative window bits): zip entries carry no zlib header or trailer.
        guard czlib_deflate_init2(deflater, options.compressionLevel, -MAX_WBITS) == Z_OK else {
            throw ZipWriterError("\(path): cannot start zlib deflate (level \(options.compressionLevel))")
        }
    }

    deinit {
        deflateEnd(deflater)
        deflater.deallocate()
        deflated.deallocate()
        if descriptor >= 0 { close(descriptor) }
    }

    /// Starts an entry; names ending in "/" are folders. Method 8 deflates, 0 stores.
    public func beginEntry(name: String, method: UInt16 = 8) throws {
        guard !finished else { throw ZipWriterError("\(path): beginEntry after finish") }
        guard current == nil else { throw ZipWriterError("\(path): beginEntry while \(name) is still open") }
        guard method == 0 || method == 8 else { throw ZipWriterError("\(path): unsupported method \(method)") }
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= 0xFFFF else { throw ZipWriterError("\(path): entry name too long") }
        let flags: UInt16 = (options.utf8Names ? 1 << 11 : 0) | (method == 8 && options.useDataDescriptor ? 1 << 3 : 0)
        let record = CentralRecord(
            name: nameBytes, flags: flags, method: method, crc: 0, compressedSize: 0, uncompressedSize: 0,
            offset: offset)
        current = record
        checksum = crc32(0, nil, 0)
        if method == 8 {
            guard deflateReset(deflater) == Z_OK else { throw ZipWriterError("\(path): deflateReset failed") }
            // Sizes are not known yet: zeros (descriptor) or placeholders patched in endEntry.
            try writeLocalHeader(record, zip64: options.forceZip64)
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var record = current else { throw ZipWriterError("\(path): write outside an entry") }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        while start < bytes.count {
            // zlib counts in 32 bits, so very large buffers go through in slices.
            let length = min(bytes.count - start, 1 << 30)
            let slice = UnsafeRawBufferPointer(start: base + start, count: length)
            let pointer = slice.baseAddress?.assumingMemoryBound(to: Bytef.self)
            checksum = crc32(checksum, pointer, uInt(length))
            record.uncompressedSize += UInt64(length)
            if record.method == 0 {
                storedData.append(contentsOf: slice)
            } else {
                record.compressedSize += try deflate(slice, flush: Z_NO_FLUSH)
            }
            start += length
        }
        current = record
    }

    public func endEntry() throws {
        guard var record = current else { throw ZipWriterError("\(path): endEntry without beginEntry") }
        current = nil
        record.crc = UInt32(truncatingIfNeeded: checksum)
        if record.method == 0 {
            record.compressedSize = record.uncompressedSize
            try writeLocalHeader(record, zip64: options.forceZip64 || record.uncompressedSize >= Self.max32)
            try append(storedData)
            storedData = []
        } else {
            record.compressedSize += try deflate(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
            if record.flags & (1 << 3) != 0 {
                // 8-byte sizes when the local header announced zip64, or once they no longer fit (as Go does).
                let big = record.uncompressedSize >= Self.max32 || record.compressedSize >= Self.max32
                try writeDataDescriptor(record, zip64: options.forceZip64 || big)
            } else {
                try patchLocalHeader(record, zip64: options.forceZip64)
            }
        }
        records.append(record)
    }

    public func addEntry(name: String, data: [UInt8], method: UInt16 = 8) throws {
        try beginEntry(name: name, method: method)
        try write(data)
        try endEntry()
    }

    /// Writes the central directory and end records, then closes the file.
    public func finish() throws {
        guard !finished else { return }
        if current != nil { try endEntry() }
        finished = true
        let directoryOffset = offset
        for record in records {
            try writeCentralHeader(record)
        }
        let directorySize = offset - directoryOffset
        let count = UInt64(records.count)
        let zip64 =
            options.forceZip64 || count >= 0xFFFF || directorySize >= Self.max32 || directoryOffset >= Self.max32
        if zip64 {
            let recordOffset = offset
            var end = Bytes()
            end.u32(0x0606_4b50)
            end.u64(44)  // the size of the rest of this record
            end.u16(45, 45)  // versions
            end.u32(0, 0)  // disks
            end.u64(count, count, directorySize, directoryOffset)
            end.u32(0x0706_4b50, 0)  // the locator
            end.u64(recordOffset)
            end.u32(1)
            try append(end.bytes)
        }
        var end = Bytes()
        end.u32(0x0605_4b50)
        end.u16(0, 0)  // disks
        end.u16(zip64 ? 0xFFFF : UInt16(count), zip64 ? 0xFFFF : UInt16(count))
        end.u32(zip64 ? 0xFFFF_FFFF : UInt32(directorySize), zip64 ? 0xFFFF_FFFF : UInt32(directoryOffset))
        end.u16(0)  // comment
        try append(end.bytes)
        try flush()
        let status = close(descriptor)
        descriptor = -1
        guard status == 0 else {
            throw ZipWriterError("\(path): close failed: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: - Records

    private static func needsZip64(_ record: CentralRecord) -> Bool {
        record.uncompressedSize >= max32 || record.compressedSize >= max32 || record.offset >= max32
    }

    private func writeLocalHeader(_ record: CentralRecord, zip64: Bool) throws {
        var header = Bytes()
        header.u32(0x0403_4b50)
        header.u16(zip64 ? 45 : 20, record.flags, record.method, Self.dosTime, Self.dosDate)
        // APPNOTE 4.5.3: a local zip64 field holds both sizes, and both 32-bit slots are saturated.
        header.u32(
            record.crc, zip64 ? 0xFFFF_FFFF : UInt32(record.compressedSize),
            zip64 ? 0xFFFF_FFFF : UInt32(record.uncompressedSize))
        header.u16(UInt16(record.name.count), zip64 ? 20 : 0)
        header.bytes += record.name
        if zip64 {
            header.u16(0x0001, 16)
            header.u64(record.uncompressedSize, record.compressedSize)
        }
        try append(header.bytes)
    }

    /// Fills in the CRC and sizes of a deflated entry written without a data descriptor.
    private func patchLocalHeader(_ record: CentralRecord, zip64: Bool) throws {
        var patch = Bytes()
        patch.u32(record.crc)
        if zip64 {
            try pwriteAll(patch.bytes, at: record.offset + 14)
            patch = Bytes()
            patch.u64(record.uncompressedSize, record.compressedSize)
            try pwriteAll(patch.bytes, at: record.offset + 30 + UInt64(record.name.count) + 4)
        } else {
            guard !Self.needsZip64(record) else {
                throw ZipWriterError("\(path): entry reached 4 GiB without a data descriptor; set forceZip64")
            }
            patch.u32(UInt32(record.compressedSize), UInt32(record.uncompressedSize))
            try pwriteAll(patch.bytes, at: record.offset + 14)
        }
    }

    private func writeDataDescriptor(_ record: CentralRecord, zip64: Bool) throws {
        var descriptor = Bytes()
        descriptor.u32(0x0807_4b50, record.crc)
        if zip64 {
            descriptor.u64(record.compressedSize, record.uncompressedSize)
        } else {
            descriptor.u32(UInt32(record.compressedSize), UInt32(record.uncompressedSize))
        }
        try append(descriptor.bytes)
    }

    private func writeCentralHeader(_ record: CentralRecord) throws {
        let force = options.forceZip64
        let bigUncompressed = force || record.uncompressedSize >= Self.max32
        let bigCompressed = force || record.compressedSize >= Self.max32
        let bigOffset = force || record.offset >= Self.max32
        var extra = Bytes()
        if bigUncompressed { extra.u64(record.uncompressedSize) }
        if bigCompressed { extra.u64(record.compressedSize) }
        if bigOffset { extra.u64(record.offset) }
        let zip64 = !extra.bytes.isEmpty
        let isFolder = record.name.last == UInt8(ascii: "/")

        var header = Bytes()
        header.u32(0x0201_4b50)
        // Made by Unix, like Apple's archiver.
        header.u16((3 << 8) | (zip64 ? 45 : 20), zip64 ? 45 : 20, record.flags, record.method)
        header.u16(Self.dosTime, Self.dosDate)
        header.u32(
            record.crc, bigCompressed ? 0xFFFF_FFFF : UInt32(record.compressedSize),
            bigUncompressed ? 0xFFFF_FFFF : UInt32(record.uncompressedSize))
        // Name and extra lengths, then no comment, disk 0, no internal attributes.
        header.u16(UInt16(record.name.count), zip64 ? UInt16(4 + extra.bytes.count) : 0, 0, 0, 0)
        header.u32(isFolder ? (0o040755 << 16) | 0x10 : 0o100644 << 16)  // Unix mode
        header.u32(bigOffset ? 0xFFFF_FFFF : UInt32(record.offset))
        header.bytes += record.name
        if zip64 {
            header.u16(0x0001, UInt16(extra.bytes.count))
            header.bytes += extra.bytes
        }
        try append(header.bytes)
    }

    // MARK: - Output

    /// Deflates `input` (or finishes the stream) and appends the compressed bytes; returns how many.
    private func deflate(_ input: UnsafeRawBufferPointer, flush: Int32) throws -> UInt64 {
        let stream = deflater
        // Lifetime: zlib reads next_in only during the CZlib.deflate calls below, while `input` is valid.
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        var total: UInt64 = 0
        while true {
            stream.pointee.next_out = deflated.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(deflated.count)
            let status = CZlib.deflate(stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw ZipWriterError("\(path): deflate failed (\(status))")
            }
            let produced = deflated.count - Int(stream.pointee.avail_out)
            try append(UnsafeRawBufferPointer(rebasing: deflated[0..<produced]))
            total += UInt64(produced)
            if flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_out != 0 { break }
        }
        stream.pointee.next_in = nil
        return total
    }

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    private func append(_ bytes: UnsafeRawBufferPointer) throws {
        offset += UInt64(bytes.count)
        if output.count + bytes.count > Self.outputBufferSize { try flush() }
        if bytes.count >= Self.outputBufferSize {
            try writeAll(bytes)
        } else {
            output.append(contentsOf: bytes)
        }
    }

    private func flush() throws {
        try output.withUnsafeBytes { try writeAll($0) }
        output.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw ZipWriterError("\(path): write failed: \(String(cString: strerror(errno)))")
            }
            done += count
        }
    }

    private func pwriteAll(_ bytes: [UInt8], at position: UInt64) throws {
        try flush()
        let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(position)) }
        guard count == bytes.count else {
            throw ZipWriterError("\(path): write failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// A little-endian record being assembled.
private struct Bytes {
    var bytes: [UInt8] = []

    mutating func u16(_ values: UInt16...) { append(values.map(UInt64.init), width: 2) }
    mutating func u32(_ values: UInt32...) { append(values.map(UInt64.init), width: 4) }
    mutating func u64(_ values: UInt64...) { append(values, width: 8) }

    private mutating func append(_ values: [UInt64], width: Int) {
        for value in values {
            for shift in stride(from: 0, to: width * 8, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
    }
}
