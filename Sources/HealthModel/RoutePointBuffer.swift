import Glibc

/// The points of one route, in order, in bounded memory whatever their number.
///
/// A 1 Hz route of a long activity has hundreds of thousands of points (a 24-hour race: 86,400), and a crafted
/// export can claim billions; as a `[RoutePoint]` they were held whole until their workout was written (1 M
/// inline `Location`s: 154 MB). Here they are packed (`recordSize` bytes each, against 112 for a `RoutePoint`)
/// and kept in memory up to `spillThreshold`; past it they move to a temporary file that is owner-only and has
/// no name from the moment it exists (`O_TMPFILE`; where that is not supported, a `mkstemp` file unlinked at
/// once), and the sink reads them back in order, a chunk at a time (`forEachChunk`). The file goes away with
/// its descriptor, also when the process is killed. Real routes stay below the threshold (a marathon at 1 Hz
/// is ~15,000 points) and never touch the disk.
///
/// A value type: copies share their storage until one of them appends (copy on write). Points are appended on
/// one thread (the decoder's, or the one reading the route's GPX file); once the route is handed over, the
/// storage is only read, with `pread`, which keeps no shared file position. `@unchecked Sendable` rests on that.
public struct RoutePointBuffer: @unchecked Sendable {
    /// Points kept in memory before a route moves to a temporary file: ~1 MiB packed, 4.5 hours at 1 Hz.
    public static let defaultSpillThreshold = 16_384
    /// More points than this in one route is not a recording but a crafted file (at 1 Hz, 578 days; 3.3 GB of
    /// temporary file): appending refuses it.
    public static let maximumCount = 50_000_000
    /// Bytes of one packed point: a byte of flags for the optional fields, then eight `Double`s.
    static let recordSize = 65
    /// Points per chunk handed to `forEachChunk` (a multiple of the sink's 32 rows per statement step), and
    /// per write to the temporary file once spilled.
    static let chunkPoints = 1024

    /// Points in the route.
    public private(set) var count = 0
    /// Points kept in memory; the next one moves them all to a temporary file. 0 spills from the first point.
    public var spillThreshold: Int
    /// `maximumCount`, lowered by tests.
    var countLimit = RoutePointBuffer.maximumCount
    private var storage: Storage?

    public init(spillThreshold: Int = RoutePointBuffer.defaultSpillThreshold) {
        self.spillThreshold = max(0, spillThreshold)
    }

    /// The points of `points`, in memory (for tests and small routes).
    public init(_ points: [RoutePoint], spillThreshold: Int = RoutePointBuffer.defaultSpillThreshold) throws {
        self.init(spillThreshold: spillThreshold)
        for point in points { try append(point) }
    }

    public var isEmpty: Bool { count == 0 }

    /// Whether the points are in a temporary file.
    public var isSpilled: Bool { (storage?.descriptor ?? -1) >= 0 }

    /// The temporary file's descriptor once spilled (for tests).
    var spillDescriptor: Int32? { isSpilled ? storage?.descriptor : nil }

    /// Points held in memory (those not yet in the temporary file): what the route weighs in a queue.
    public var residentCount: Int { storage.map { $0.used / Self.recordSize } ?? 0 }

    /// Appends a point. Throws an `ImportError` past `maximumCount` (`.input`), or when the temporary file
    /// cannot be made or written (`.output`: a full disk).
    public mutating func append(_ point: RoutePoint) throws {
        try append(Record(point))
    }

    /// Appends a point already in the packed layout (what a GPX reader fills field by field); throws as
    /// `append(_: RoutePoint)` does.
    package mutating func append(_ record: Record) throws {
        guard count < countLimit else {
            throw ImportError(
                .input,
                "a route with more than \(DigitGrouping.grouped(countLimit)) points: past this limit it is not a "
                    + "recording",
                hint: "a 24-hour race at one point per second has 86,400")
        }
        if storage == nil {
            storage = Storage()
        } else if !isKnownUniquelyReferenced(&storage) {
            // swift-format-ignore: NeverForceUnwrap
            storage = try storage!.copy()
        }
        // swift-format-ignore: NeverForceUnwrap
        let storage = storage!
        if storage.descriptor >= 0 {
            if storage.used >= Self.chunkPoints * Self.recordSize { try storage.flush() }
        } else if count >= spillThreshold {
            try storage.spill()  // before packing: memory never grows past the threshold
        }
        storage.pack(record)
        count += 1
    }

    /// Done appending: a spilled route writes its last points and frees its write buffer, a route in memory
    /// gives back the slack of its last growth. Appending again is allowed, only slower.
    public mutating func finishAppending() throws {
        guard storage != nil, isKnownUniquelyReferenced(&storage) else { return }
        // swift-format-ignore: NeverForceUnwrap
        let storage = storage!
        if storage.descriptor >= 0 { try storage.flush() }
        storage.shrinkToFit()
    }

    /// Calls `body` with the points in order, `chunkPoints` at a time (the last chunk fewer). The buffer is
    /// only valid during the call. Throws what `body` throws, or an `ImportError` when the temporary file
    /// cannot be read.
    public func forEachChunk(_ body: (UnsafeBufferPointer<RoutePoint>) throws -> Void) throws {
        var points: [RoutePoint] = []
        points.reserveCapacity(min(count, Self.chunkPoints))
        try forEachPackedChunk { chunk in
            points.removeAll(keepingCapacity: true)
            for index in 0..<chunk.count { points.append(chunk.point(index)) }
            try points.withUnsafeBufferPointer { try body($0) }
        }
    }

    /// `forEachChunk` without unpacking: the points as they are stored, for a sink that binds their fields
    /// one by one (no `RoutePoint` is made).
    package func forEachPackedChunk(_ body: (PackedPoints) throws -> Void) throws {
        guard let storage, count > 0 else { return }
        let fileCount = storage.fileCount
        let size = Self.recordSize
        var raw: UnsafeMutableRawPointer?
        defer { raw?.deallocate() }
        if fileCount > 0 { raw = .allocate(byteCount: min(count, Self.chunkPoints) * size, alignment: 8) }
        var first = 0
        while first < count {
            let end = min(first + Self.chunkPoints, count)
            if first < fileCount, let raw {
                // A chunk that starts in the file is put together in `raw`: its file part, then any points
                // still in the write buffer (chunks stay whole multiples of `chunkPoints`).
                let fromFile = min(end, fileCount) - first
                try storage.read(records: first, count: fromFile, into: raw)
                (raw + fromFile * size).copyMemory(from: storage.bytes, byteCount: (end - first - fromFile) * size)
                try body(PackedPoints(base: raw, count: end - first))
            } else {
                try body(PackedPoints(base: storage.bytes + (first - fileCount) * size, count: end - first))
            }
            first = end
        }
    }

    /// All the points (for tests and small routes; a spilled route is read back whole).
    public func array() throws -> [RoutePoint] {
        var all: [RoutePoint] = []
        all.reserveCapacity(count)
        try forEachChunk { all.append(contentsOf: $0) }
        return all
    }

    // MARK: - Packing

    /// The optional fields of a point, by their slot in a packed record (after latitude and longitude).
    package enum Field: Int, CaseIterable, Sendable {
        case elevation = 2, time, speed, course, horizontalAccuracy, verticalAccuracy

        /// The field's bit in the record's flags byte.
        @inline(__always) var flag: UInt8 { 1 << UInt8(rawValue - 2) }
    }

    /// One point in the packed layout (a byte of flags, then latitude, longitude and the six optional fields
    /// as `Double`s, 0 when absent), filled field by field without making a `RoutePoint`.
    package struct Record {
        fileprivate var flags: UInt8 = 0
        fileprivate var values: (Double, Double, Double, Double, Double, Double, Double, Double)

        @inline(__always)
        package init(latitude: Double, longitude: Double) {
            values = (latitude, longitude, 0, 0, 0, 0, 0, 0)
        }

        init(_ point: RoutePoint) {
            self.init(latitude: point.latitude, longitude: point.longitude)
            self[.elevation] = point.elevation
            self[.time] = point.time
            self[.speed] = point.speed
            self[.course] = point.course
            self[.horizontalAccuracy] = point.horizontalAccuracy
            self[.verticalAccuracy] = point.verticalAccuracy
        }

        /// A field's value; setting nil marks it absent.
        package subscript(field: Field) -> Double? {
            @inline(__always) get {
                guard flags & field.flag != 0 else { return nil }
                return withUnsafeBytes(of: values) { $0.load(fromByteOffset: field.rawValue * 8, as: Double.self) }
            }
            @inline(__always) set {
                withUnsafeMutableBytes(of: &values) {
                    $0.storeBytes(of: newValue ?? 0, toByteOffset: field.rawValue * 8, as: Double.self)
                }
                if newValue != nil { flags |= field.flag } else { flags &= ~field.flag }
            }
        }

        @inline(__always)
        fileprivate func store(at record: UnsafeMutableRawPointer) {
            record.storeBytes(of: flags, as: UInt8.self)
            withUnsafeBytes(of: values) {
                UnsafeMutableRawBufferPointer(start: record + 1, count: 64).copyMemory(from: $0)
            }
        }
    }

    /// A chunk of packed points, read in place: valid only during the `forEachPackedChunk` call.
    package struct PackedPoints {
        let base: UnsafeRawPointer
        package let count: Int

        @inline(__always) package func latitude(_ index: Int) -> Double {
            base.loadUnaligned(fromByteOffset: index * RoutePointBuffer.recordSize + 1, as: Double.self)
        }

        @inline(__always) package func longitude(_ index: Int) -> Double {
            base.loadUnaligned(fromByteOffset: index * RoutePointBuffer.recordSize + 9, as: Double.self)
        }

        /// An optional field of point `index`; nil when absent.
        @inline(__always) package func value(_ field: Field, _ index: Int) -> Double? {
            let record = base + index * RoutePointBuffer.recordSize
            guard record.load(as: UInt8.self) & field.flag != 0 else { return nil }
            return record.loadUnaligned(fromByteOffset: 1 + field.rawValue * 8, as: Double.self)
        }

        func point(_ index: Int) -> RoutePoint {
            RoutePoint(
                latitude: latitude(index), longitude: longitude(index), elevation: value(.elevation, index),
                time: value(.time, index), speed: value(.speed, index), course: value(.course, index),
                horizontalAccuracy: value(.horizontalAccuracy, index),
                verticalAccuracy: value(.verticalAccuracy, index))
        }
    }

    // MARK: - Storage

    /// Packed points in memory (`bytes`, `used`), and once spilled the temporary file's descriptor and the
    /// number of points in it; `bytes` is then the write buffer.
    private final class Storage {
        private(set) var bytes: UnsafeMutableRawPointer
        private var capacity: Int
        private(set) var used = 0
        private(set) var descriptor: Int32 = -1
        private(set) var fileCount = 0

        init() {
            capacity = 64 * RoutePointBuffer.recordSize
            bytes = .allocate(byteCount: capacity, alignment: 8)
        }

        deinit {
            bytes.deallocate()
            if descriptor >= 0 { close(descriptor) }
        }

        @inline(__always)
        func pack(_ record: Record) {
            if used + RoutePointBuffer.recordSize > capacity {
                resize(to: max(capacity * 2, used + RoutePointBuffer.recordSize))
            }
            record.store(at: bytes + used)
            used += RoutePointBuffer.recordSize
        }

        private func resize(to newCapacity: Int) {
            let resized = UnsafeMutableRawPointer.allocate(byteCount: max(newCapacity, 1), alignment: 8)
            resized.copyMemory(from: bytes, byteCount: used)
            bytes.deallocate()
            bytes = resized
            capacity = max(newCapacity, 1)
        }

        func shrinkToFit() {
            if capacity > used { resize(to: used) }
        }

        /// Moves the points in memory to a new temporary file; memory keeps a write buffer of one chunk.
        func spill() throws {
            descriptor = try Self.makeTemporaryFile()
            try flush()
            resize(to: RoutePointBuffer.chunkPoints * RoutePointBuffer.recordSize)
        }

        /// Writes the points in memory to the end of the file.
        func flush() throws {
            try append(bytes, byteCount: used)
            used = 0
        }

        /// Writes packed points to the end of the file.
        private func append(_ records: UnsafeRawPointer, byteCount: Int) throws {
            var offset = 0
            while offset < byteCount {
                let written = write(descriptor, records + offset, byteCount - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ImportError(
                        .output, "cannot write a route's temporary file: \(SystemError.last)", hint: Self.hint)
                }
                offset += written
            }
            fileCount += byteCount / RoutePointBuffer.recordSize
        }

        /// Reads `count` points from the file, starting with point `first`, into `buffer`.
        func read(records first: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws {
            let size = RoutePointBuffer.recordSize
            var done = 0
            while done < count * size {
                let got = pread(descriptor, buffer + done, count * size - done, off_t(first * size + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    let reason = got < 0 ? SystemError.last : "it ends early"
                    throw ImportError(.output, "cannot read a route's temporary file back: \(reason)", hint: Self.hint)
                }
                done += got
            }
        }

        /// A storage of its own with the same points (copy on write).
        func copy() throws -> Storage {
            let copy = Storage()
            copy.resize(to: used)
            copy.bytes.copyMemory(from: bytes, byteCount: used)
            copy.used = used
            guard descriptor >= 0 else { return copy }
            copy.descriptor = try Self.makeTemporaryFile()
            let chunk = RoutePointBuffer.chunkPoints
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk * RoutePointBuffer.recordSize, alignment: 8)
            defer { buffer.deallocate() }
            var first = 0
            while first < fileCount {
                let count = min(chunk, fileCount - first)
                try read(records: first, count: count, into: buffer)
                try copy.append(buffer, byteCount: count * RoutePointBuffer.recordSize)
                first += count
            }
            return copy
        }

        static let hint =
            "healthetl keeps very long routes in a temporary file in $TMPDIR (or /tmp): check its free space"

        /// An owner-only file without a name in `$TMPDIR` (else /tmp): `O_TMPFILE`, or where the file system
        /// does not support it, a `mkstemp` file unlinked at once.
        static func makeTemporaryFile() throws -> Int32 {
            var directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
            if directory.isEmpty { directory = "/tmp" }
            // O_TMPFILE is `__O_TMPFILE | O_DIRECTORY`; the macro is not imported into Swift.
            let temporaryFile: Int32 = 0o20000000 | O_DIRECTORY
            let descriptor = open(directory, O_RDWR | O_CLOEXEC | temporaryFile, 0o600)
            if descriptor >= 0 { return descriptor }
            var template = Array((directory + "/healthetl-route-XXXXXX").utf8CString)
            // swift-format-ignore: NeverForceUnwrap
            let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard named >= 0 else {
                throw ImportError(
                    .output, "cannot make a temporary file for a long route: \(SystemError.last)", hint: hint)
            }
            // swift-format-ignore: NeverForceUnwrap
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(named, F_SETFD, FD_CLOEXEC)
            fchmod(named, 0o600)
            return named
        }
    }
}
