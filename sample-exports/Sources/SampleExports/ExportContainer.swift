import Glibc

/// Receives the export's files one at a time, streamed, in the order they are produced. Paths are relative to
/// `apple_health_export/`.
protocol ExportContainer: AnyObject {
    func begin(_ relativePath: String) throws -> ByteSink
    func end() throws
    /// Closes everything; returns the bytes of output produced.
    func finish() throws -> Int
    var writesSideFiles: Bool { get }
}

/// A plain file written with `write(2)` in large chunks.
final class FileSink: ByteSink {
    private var descriptor: Int32
    private(set) var bytes = 0

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw GeneratorError.io("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
    }

    func write(_ buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw GeneratorError.io("write failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        bytes += buffer.count
    }

    func close() throws {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw GeneratorError.io("close failed: \(String(cString: strerror(errno)))") }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}

/// Creates every missing folder along `path` (like `mkdir -p`).
func makeDirectories(_ path: String) throws {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        current += "/" + component
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw GeneratorError.io("\(current): cannot create folder: \(String(cString: strerror(errno)))")
        }
    }
}

/// The unzipped layout: `<root>/apple_health_export/…`.
final class FolderContainer: ExportContainer {
    private let base: String
    private var current: FileSink?
    private var total = 0
    let writesSideFiles = true

    init(root: String) throws {
        base = root + "/apple_health_export"
        try makeDirectories(base)
    }

    func begin(_ relativePath: String) throws -> ByteSink {
        if let slash = relativePath.lastIndex(of: "/") {
            try makeDirectories(base + "/" + relativePath[..<slash])
        }
        let sink = try FileSink(path: base + "/" + relativePath)
        current = sink
        return sink
    }

    func end() throws {
        if let current {
            total += current.bytes
            try current.close()
        }
        current = nil
    }

    func finish() throws -> Int { total }
}

/// Only the main XML at an exact path; side files are skipped.
final class BareXMLContainer: ExportContainer {
    private let path: String
    private var sink: FileSink?
    let writesSideFiles = false

    init(path: String) {
        self.path = path
    }

    func begin(_ relativePath: String) throws -> ByteSink {
        let sink = try FileSink(path: path)
        self.sink = sink
        return sink
    }

    func end() throws { try sink?.close() }

    func finish() throws -> Int { sink?.bytes ?? 0 }
}

/// Health.app's zip: deflated entries with data descriptors under `apple_health_export/`.
final class ZipContainer: ExportContainer, ByteSink {
    private let zip: ZipWriter
    private let path: String
    let writesSideFiles = true

    init(path: String, level: Int32) throws {
        var options = ZipWriter.Options()
        options.compressionLevel = level
        zip = try ZipWriter(path: path, options: options)
        self.path = path
    }

    func begin(_ relativePath: String) throws -> ByteSink {
        try zip.beginEntry(name: "apple_health_export/" + relativePath, method: 8)
        return self
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try zip.write(bytes)
    }

    func end() throws { try zip.endEntry() }

    func finish() throws -> Int {
        try zip.finish()
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }
}

/// Discards everything (day-count calibration for `targetXMLBytes`).
final class NullContainer: ExportContainer {
    let writesSideFiles = false
    func begin(_ relativePath: String) throws -> ByteSink { NullSink() }
    func end() throws {}
    func finish() throws -> Int { 0 }
}
