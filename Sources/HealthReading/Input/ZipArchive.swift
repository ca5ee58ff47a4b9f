import Glibc
import HealthModel

/// A zip archive read from its central directory, whose entries can be streamed one by one or side by side.
///
/// Only the end records and the central directory are read when the archive is opened, never the entries, so
/// opening a 4 GB export costs a few kilobytes. All reads go through `pread` on one shared descriptor: each open
/// entry stream keeps its own offset, so the main XML can stream while small GPX entries are read alongside.
///
/// Every offset and length read from the file is checked against the file's real size before it is used, so a
/// damaged or hostile zip produces an `ImportError`, never a crash, a hang or a huge allocation.
public final class ZipArchive {
    /// Limits that keep a hostile zip (a "zip bomb") from filling the disk or running forever.
    ///
    /// Deflate cannot expand data more than about 1032×, and real Health XML compresses 20–40×, so an entry
    /// that keeps expanding more than `maxRatio`× once it is past `ratioCheckThreshold` bytes is refused while
    /// it is being inflated. An entry also never produces more than the uncompressed size its central directory
    /// declares (checked as the bytes come out), and one that declares more than `maxEntrySize` is refused before
    /// any byte is inflated.
    public struct Limits: Sendable {
        /// The largest uncompressed size accepted for one entry (default 64 GiB).
        public var maxEntrySize: UInt64
        /// Output size after which the expansion ratio is checked (default 64 MiB); small entries may be
        /// extremely compressible (a file of spaces) without being a threat.
        public var ratioCheckThreshold: UInt64
        /// The largest accepted output/input ratio once past the threshold (default 1000).
        public var maxRatio: UInt64
        /// The most entries accepted in the central directory (default one million; an export has thousands).
        public var maxEntryCount: Int

        public init(
            maxEntrySize: UInt64 = 64 << 30, ratioCheckThreshold: UInt64 = 64 << 20, maxRatio: UInt64 = 1000,
            maxEntryCount: Int = 1_000_000
        ) {
            self.maxEntrySize = maxEntrySize
            self.ratioCheckThreshold = ratioCheckThreshold
            self.maxRatio = maxRatio
            self.maxEntryCount = maxEntryCount
        }
    }

    public let path: String
    /// The entries in central directory order, folders included.
    public let entries: [ZipEntry]
    /// Names that appear more than once, each listed once; `entry(named:)` returns the first of them.
    public let duplicateNames: [String]
    public let limits: Limits

    private let file: ZipFile
    private let indexByName: [String: Int]

    public init(path: String, limits: Limits = Limits()) throws {
        self.path = path
        self.limits = limits
        file = try ZipFile(path: path)
        guard file.size > 0 else {
            throw ImportError(
                .input, "the file is empty", file: path, hint: "the export did not finish; export it again")
        }
        let directory = try CentralDirectoryLocator(file: file).locate()
        entries = try CentralDirectoryParser(file: file, directory: directory, limits: limits).parse()

        var index: [String: Int] = [:]
        var duplicates: [String] = []
        for (position, entry) in entries.enumerated() {
            if index[entry.name] == nil {
                index[entry.name] = position
            } else if !duplicates.contains(entry.name) {
                duplicates.append(entry.name)
            }
        }
        indexByName = index
        duplicateNames = duplicates
    }

    /// The first entry with exactly this name (Swift string equality, so NFC and NFD spellings match).
    public func entry(named name: String) -> ZipEntry? {
        indexByName[name].map { entries[$0] }
    }

    /// A stream of the entry's uncompressed bytes, verified against its CRC and size when it ends.
    ///
    /// The stream keeps the file open by itself, so it may outlive the archive object.
    public func open(_ entry: ZipEntry) throws -> ByteStream {
        guard !entry.isEncrypted else {
            throw ImportError(
                .input, "zip entry is encrypted, which is not supported", file: path, entry: entry.name,
                hint: "unzip it with its password and import the folder")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw ImportError(
                .input,
                "zip entry uses compression method \(entry.method); only stored (0) and deflate (8) are "
                    + "supported", file: path, entry: entry.name, hint: "re-export from the Health app")
        }
        guard entry.uncompressedSize <= limits.maxEntrySize else {
            throw ImportError(
                .input,
                "zip entry declares \(entry.uncompressedSize) bytes uncompressed, more than the "
                    + "\(limits.maxEntrySize) allowed (possible zip bomb)", file: path, entry: entry.name,
                hint: "no real Health export is this large; check where the file came from")
        }
        let dataStart = try locateData(of: entry)
        if entry.method == 0 && entry.compressedSize != entry.uncompressedSize {
            throw ImportError.zipCorrupt(
                "zip entry is corrupt (stored, but its sizes differ)", file: path, entry: entry.name)
        }
        return try InflatingEntryStream(file: file, entry: entry, dataStart: dataStart, limits: limits)
    }

    /// The offset of the entry's first data byte, after its local header.
    ///
    /// The local header's name and extra lengths are used, not the central directory's: they may differ
    /// (Info-ZIP writes a longer `UT` extra field locally than centrally).
    private func locateData(of entry: ZipEntry) throws -> UInt64 {
        let headerSize = 30
        guard entry.localHeaderOffset < file.size, file.size - entry.localHeaderOffset >= UInt64(headerSize) else {
            throw ImportError.zipCutShort(
                "at byte \(file.size): this entry's header is missing", file: path, entry: entry.name)
        }
        let header = try file.bytes(at: entry.localHeaderOffset, count: headerSize)
        guard header.count == headerSize, header.hasSignature(ZipSignature.localHeader, at: 0) else {
            throw ImportError.zipCorrupt(
                "zip entry is corrupt (no local header at byte \(entry.localHeaderOffset))", file: path,
                entry: entry.name)
        }
        let variableLength = UInt64(header.littleEndian16(at: 26)) + UInt64(header.littleEndian16(at: 28))
        // Cannot overflow: the offset is below the file size and the rest is at most 30 + 2 × 65535.
        let dataStart = entry.localHeaderOffset + UInt64(headerSize) + variableLength
        guard dataStart <= file.size, entry.compressedSize <= file.size - dataStart else {
            throw ImportError.zipCutShort(
                "at byte \(file.size): this entry's data needs \(entry.compressedSize) bytes from byte "
                    + "\(dataStart)", file: path, entry: entry.name)
        }
        return dataStart
    }
}

/// The archive's one file descriptor, shared by the archive and every entry stream it opened.
///
/// `pread` keeps no file position, so streams never disturb each other; the descriptor is closed when the
/// last of them goes away.
final class ZipFile {
    let path: String
    let size: UInt64
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "the file does not exist" : "cannot open the file"
            throw ImportError(.input, "\(reason): \(SystemError.last)", file: path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 0 else {
            close(fd)
            throw ImportError(.input, "not a regular file, so not a zip", file: path)
        }
        size = UInt64(info.st_size)
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var total = 0
        while total < buffer.count {
            let position = offset.addingReportingOverflow(UInt64(total))
            guard !position.overflow, position.partialValue < UInt64(Int64.max) else { break }
            let count = pread(
                descriptor, buffer.baseAddress.map { $0 + total }, buffer.count - total,
                off_t(position.partialValue))
            if count > 0 {
                total += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw ImportError(.input, "read failed: \(SystemError.last)", file: path)
            }
        }
        return total
    }

    /// Up to `count` bytes at `offset`, fewer only at the end of the file. `count` must be a real, small
    /// length (the caller bounds it), since that much is allocated.
    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        let got = try result.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        result.removeLast(count - got)
        return result
    }
}
