import HealthModel

/// Where the central directory is, as the end records say.
struct CentralDirectory {
    var offset: UInt64
    var size: UInt64
    var entryCount: UInt64
}

/// Finds the central directory through the end-of-central-directory record (and its ZIP64 twin).
///
/// The end record is the last thing in a zip, followed only by a comment of at most 65535 bytes, so the search
/// reads at most the last 65557 bytes of the file and scans them backwards.
struct CentralDirectoryLocator {
    let file: ZipFile

    private static let endRecordSize = 22
    private static let zip64LocatorSize = 20
    private static let zip64EndRecordSize = 56

    func locate() throws -> CentralDirectory {
        let tailLength = Int(min(file.size, UInt64(Self.endRecordSize + 65535)))
        let tailStart = file.size - UInt64(tailLength)
        let tail = try file.bytes(at: tailStart, count: tailLength)
        guard let position = Self.findEndRecord(in: tail) else {
            throw try missingEndRecord()
        }
        let record = Array(tail[position..<(position + Self.endRecordSize)])
        let recordOffset = tailStart + UInt64(position)

        var directory = CentralDirectory(
            offset: UInt64(record.littleEndian32(at: 16)), size: UInt64(record.littleEndian32(at: 12)),
            entryCount: UInt64(record.littleEndian16(at: 10)))
        // The central directory must end before the first end record that follows it.
        var directoryEnd = recordOffset
        if let zip64 = try zip64Directory(endRecordOffset: recordOffset) {
            directory = zip64.directory
            directoryEnd = zip64.recordOffset
        } else if directory.offset == 0xFFFF_FFFF || directory.size == 0xFFFF_FFFF {
            throw ImportError.zipCorrupt("the zip is corrupt (its zip64 end record is missing)", file: file.path)
        } else if record.littleEndian16(at: 4) != 0 || record.littleEndian16(at: 6) != 0 {
            throw ImportError(
                .input, "multi-part (split) zip archives are not supported", file: file.path,
                hint: "join the parts into one zip first")
        }

        guard directory.offset <= file.size, directory.size <= file.size - directory.offset else {
            throw ImportError.zipCutShort(
                "at byte \(file.size): its central directory should start at byte \(directory.offset) and be "
                    + "\(directory.size) bytes long", file: file.path)
        }
        guard directory.offset + directory.size <= directoryEnd else {
            throw ImportError.zipCorrupt(
                "the zip is corrupt (its central directory overlaps its end record)", file: file.path)
        }
        return directory
    }

    /// The position of the end record in `tail`: the last signature whose comment ends exactly at the end of
    /// the file or, failing that, the last one whose comment fits (some tools append junk after the zip).
    private static func findEndRecord(in tail: [UInt8]) -> Int? {
        guard tail.count >= endRecordSize else { return nil }
        var fallback: Int?
        for position in stride(from: tail.count - endRecordSize, through: 0, by: -1)
        where tail.hasSignature(ZipSignature.endOfCentralDirectory, at: position) {
            let end = position + endRecordSize + Int(tail.littleEndian16(at: position + 20))
            if end == tail.count { return position }
            if end < tail.count && fallback == nil { fallback = position }
        }
        return fallback
    }

    /// A file that begins like a zip but has no end record was almost certainly cut short while being
    /// copied; anything else is not a zip at all.
    private func missingEndRecord() throws -> ImportError {
        if try file.bytes(at: 0, count: 4).hasSignature(ZipSignature.localHeader, at: 0) {
            return ImportError.zipCutShort(
                "at byte \(file.size): it has no end-of-central-directory record", file: file.path)
        }
        return ImportError(
            .input,
            "not a zip file (no end-of-central-directory record); is this the export.zip from the "
                + "Health app?", file: file.path)
    }

    /// The ZIP64 end record's view of the central directory, when a ZIP64 locator precedes the end record.
    ///
    /// A locator whose record is missing or damaged is ignored; the caller then fails only if the 32-bit end
    /// record cannot stand on its own.
    private func zip64Directory(
        endRecordOffset: UInt64
    ) throws -> (directory: CentralDirectory, recordOffset: UInt64)? {
        guard endRecordOffset >= UInt64(Self.zip64LocatorSize) else { return nil }
        let locatorOffset = endRecordOffset - UInt64(Self.zip64LocatorSize)
        let locator = try file.bytes(at: locatorOffset, count: Self.zip64LocatorSize)
        guard locator.count == Self.zip64LocatorSize, locator.hasSignature(ZipSignature.zip64Locator, at: 0) else {
            return nil
        }
        let recordOffset = locator.littleEndian64(at: 8)
        guard recordOffset <= locatorOffset, locatorOffset - recordOffset >= UInt64(Self.zip64EndRecordSize) else {
            return nil
        }
        let record = try file.bytes(at: recordOffset, count: Self.zip64EndRecordSize)
        guard record.count == Self.zip64EndRecordSize,
            record.hasSignature(ZipSignature.zip64EndOfCentralDirectory, at: 0)
        else { return nil }
        guard record.littleEndian32(at: 16) == 0, record.littleEndian32(at: 20) == 0 else {
            throw ImportError(
                .input, "multi-part (split) zip archives are not supported", file: file.path,
                hint: "join the parts into one zip first")
        }
        let directory = CentralDirectory(
            offset: record.littleEndian64(at: 48), size: record.littleEndian64(at: 40),
            entryCount: record.littleEndian64(at: 32))
        return (directory, recordOffset)
    }
}

/// Reads the entries of the central directory.
struct CentralDirectoryParser {
    let file: ZipFile
    let directory: CentralDirectory
    let limits: ZipArchive.Limits

    private static let headerSize = 46

    func parse() throws -> [ZipEntry] {
        guard directory.entryCount <= UInt64(max(0, limits.maxEntryCount)) else {
            throw ImportError(
                .input,
                "the zip lists \(directory.entryCount) entries, more than the \(limits.maxEntryCount) "
                    + "allowed", file: file.path, hint: "a Health export has a few thousand at most")
        }
        // Also bounds the memory reserved below by the real size of the directory, not a claimed count.
        guard directory.entryCount <= directory.size / UInt64(Self.headerSize) else {
            throw ImportError.zipCorrupt(
                "the zip is corrupt (its central directory is too small for \(directory.entryCount) entries)",
                file: file.path)
        }
        var reader = ChunkedReader(file: file, offset: directory.offset, end: directory.offset + directory.size)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(directory.entryCount))
        for index in 0..<Int(directory.entryCount) {
            entries.append(try parseEntry(number: index + 1, reader: &reader))
        }
        return entries
    }

    private func parseEntry(number: Int, reader: inout ChunkedReader) throws -> ZipEntry {
        let header = try reader.take(Self.headerSize)
        guard header.hasSignature(ZipSignature.centralHeader, at: 0) else {
            throw ImportError.zipCorrupt(
                "the zip is corrupt (entry \(number) of its central directory has no signature)", file: file.path)
        }
        let nameLength = Int(header.littleEndian16(at: 28))
        let extraLength = Int(header.littleEndian16(at: 30))
        let commentLength = Int(header.littleEndian16(at: 32))
        let variable = try reader.take(nameLength + extraLength + commentLength)
        let name = ZipEntry.decodeName(Array(variable[0..<nameLength]))
        let extra = Array(variable[nameLength..<(nameLength + extraLength)])

        let compressed32 = header.littleEndian32(at: 20)
        let uncompressed32 = header.littleEndian32(at: 24)
        let offset32 = header.littleEndian32(at: 42)
        var sizes = (compressed: UInt64(compressed32), uncompressed: UInt64(uncompressed32), offset: UInt64(offset32))
        if compressed32 == 0xFFFF_FFFF || uncompressed32 == 0xFFFF_FFFF || offset32 == 0xFFFF_FFFF {
            // APPNOTE 4.5.3: the field holds only the values whose 32-bit slots are saturated, in this order.
            guard let field = Self.zip64Field(in: extra) else {
                throw ImportError.zipCorrupt(
                    "zip entry is corrupt (its zip64 extra field is missing)", file: file.path, entry: name)
            }
            var cursor = 0
            func next() throws -> UInt64 {
                guard field.count - cursor >= 8 else {
                    throw ImportError.zipCorrupt(
                        "zip entry is corrupt (its zip64 extra field is too short)", file: file.path, entry: name)
                }
                defer { cursor += 8 }
                return field.littleEndian64(at: cursor)
            }
            if uncompressed32 == 0xFFFF_FFFF { sizes.uncompressed = try next() }
            if compressed32 == 0xFFFF_FFFF { sizes.compressed = try next() }
            if offset32 == 0xFFFF_FFFF { sizes.offset = try next() }
        }
        return ZipEntry(
            name: name, method: header.littleEndian16(at: 10), flags: header.littleEndian16(at: 8),
            crc32: header.littleEndian32(at: 16), compressedSize: sizes.compressed,
            uncompressedSize: sizes.uncompressed, localHeaderOffset: sizes.offset)
    }

    /// The data of the ZIP64 extended-information field (id 0x0001), if the extra area has a well-formed one.
    private static func zip64Field(in extra: [UInt8]) -> [UInt8]? {
        var position = 0
        while extra.count - position >= 4 {
            let id = extra.littleEndian16(at: position)
            let size = Int(extra.littleEndian16(at: position + 2))
            let start = position + 4
            guard size <= extra.count - start else { return nil }
            if id == 0x0001 { return Array(extra[start..<(start + size)]) }
            position = start + size
        }
        return nil
    }
}

/// Reads the central directory in chunks of at most 1 MiB, so memory does not follow the size it claims.
struct ChunkedReader {
    let file: ZipFile
    private(set) var offset: UInt64
    let end: UInt64
    private var buffer: [UInt8] = []
    private var position = 0

    init(file: ZipFile, offset: UInt64, end: UInt64) {
        self.file = file
        self.offset = offset
        self.end = end
    }

    mutating func take(_ count: Int) throws -> [UInt8] {
        if buffer.count - position < count {
            guard end - offset >= UInt64(count) else {
                throw ImportError.zipCorrupt(
                    "the zip is corrupt (its central directory ends in the middle of an entry)", file: file.path)
            }
            let length = Int(min(end - offset, UInt64(max(count, 1 << 20))))
            buffer = try file.bytes(at: offset, count: length)
            position = 0
            guard buffer.count >= count else {
                throw ImportError.zipCutShort("at byte \(file.size)", file: file.path)
            }
        }
        defer {
            position += count
            offset += UInt64(count)
        }
        return Array(buffer[position..<(position + count)])
    }
}
