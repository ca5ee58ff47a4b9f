import Foundation
import HealthModel

/// The export as the user handed it over: `export.zip`, an unzipped `apple_health_export/` folder, or a bare
/// `export.xml`. It finds the main XML by content (its name is localised: `导出.xml`, `Export.xml`, …) and
/// opens side files (GPX routes, FHIR JSON, ECG CSVs) by their path relative to the export folder, refusing
/// any path that would leave it.
public final class ExportContainer {
    public enum Kind: String, Sendable { case zip, folder, xml }

    /// What the user named, for messages.
    public let path: String
    public let kind: Kind
    /// The main XML: the zip entry name, or the path relative to the folder.
    public let mainEntry: String
    /// Size of the main XML when known (uncompressed), for progress.
    public let mainSize: UInt64?
    /// Total size of the input on disk.
    public let inputSize: UInt64

    private let archive: ZipArchive?
    /// The directory side-file paths are relative to: a prefix inside the zip (`apple_health_export/`) or a
    /// directory on disk.
    private let root: String

    public init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(.input, "no such file or folder", file: path)
        }
        if isDirectory.boolValue {
            let nested = (path as NSString).appendingPathComponent("apple_health_export")
            var nestedIsDirectory: ObjCBool = false
            let folder =
                FileManager.default.fileExists(atPath: nested, isDirectory: &nestedIsDirectory)
                    && nestedIsDirectory.boolValue ? nested : path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let candidates = names.filter(Self.isMainXMLCandidate).sorted()
            guard
                let main = try candidates.first(where: {
                    try Self.looksLikeExport(FileStream(path: (folder as NSString).appendingPathComponent($0)))
                })
            else {
                throw ImportError(
                    .input, "no Apple Health export XML (root element <HealthData>) in this folder", file: path,
                    hint: "point at the export.zip or the unzipped apple_health_export folder")
            }
            kind = .folder
            archive = nil
            root = folder
            mainEntry = main
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: (folder as NSString).appendingPathComponent(main))
            mainSize = (attributes?[.size] as? NSNumber)?.uint64Value
            inputSize = mainSize ?? 0
            return
        }
        let file = try FileStream(path: path)
        inputSize = file.expectedSize ?? 0
        guard inputSize > 0 else { throw ImportError(.input, "the file is empty", file: path) }
        var magic = [UInt8](repeating: 0, count: 4)
        let count = try magic.withUnsafeMutableBytes { try file.read(into: $0) }
        if count == 4, magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06] {
            let zip = try ZipArchive(path: path)
            let candidates = zip.entries.filter { !$0.isDirectory && Self.isMainXMLCandidate($0.name) }
                .sorted { Self.depth($0.name) < Self.depth($1.name) }
            var found: ZipEntry?
            for candidate in candidates where try Self.looksLikeExport(zip.open(candidate)) {
                found = candidate
                break
            }
            guard let found else {
                throw ImportError(
                    .input, "no Apple Health export XML (root element <HealthData>) in this zip", file: path,
                    hint: "is this the export.zip from Health › Profile › Export All Health Data?")
            }
            kind = .zip
            archive = zip
            mainEntry = found.name
            mainSize = found.uncompressedSize
            root = found.name.contains("/") ? String(found.name[...found.name.lastIndex(of: "/")!]) : ""
            return
        }
        guard try Self.looksLikeExport(FileStream(path: path)) else {
            throw ImportError(
                .input, "not a zip file and not an Apple Health export XML", file: path,
                hint: "pass the export.zip from the Health app, its unzipped folder, or its export.xml")
        }
        kind = .xml
        archive = nil
        mainEntry = (path as NSString).lastPathComponent
        mainSize = inputSize
        root = (path as NSString).deletingLastPathComponent
    }

    /// Zip entry names that appear more than once (a crafted zip; the first of each is used).
    public var duplicateEntryNames: [String] { archive?.duplicateNames ?? [] }

    /// A hash of the zip's table of contents (every entry's name, CRC-32 and sizes) and of its size on
    /// disk: the same export file gives the same value, and any change to an entry changes its CRC.
    /// For a folder or a bare XML file, which cannot be vouched for without reading all of it, the main XML's
    /// identity on disk stands in (device, inode, size, modification time to the nanosecond), as `make` and
    /// `rsync` judge files: a new export is a new file. nil when the file cannot be looked at.
    public var contentFingerprint: String? {
        guard let archive else {
            let xml = kind == .xml ? path : (root as NSString).appendingPathComponent(mainEntry)
            var info = stat()
            guard stat(xml, &info) == 0 else { return nil }
            var hasher = StableHasher()
            for part in [
                Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
                Int64(info.st_mtim.tv_nsec),
            ] {
                hasher.combine(part)
            }
            return "file:" + String(UInt64(bitPattern: hasher.finish()), radix: 16)
        }
        var hasher = StableHasher()
        hasher.combine(Int64(inputSize))
        for entry in archive.entries {
            hasher.combine(entry.name)
            hasher.combine(UInt64(entry.crc32))
            hasher.combine(entry.uncompressedSize)
            hasher.combine(entry.compressedSize)
        }
        return "zip:" + String(UInt64(bitPattern: hasher.finish()), radix: 16)
    }

    /// The entry name to show in messages: nil for a bare XML (the file is the entry).
    public var entryLabel: String? { kind == .xml ? nil : mainEntry }

    public func openMain() throws -> ByteStream {
        switch kind {
        case .zip:
            // swift-format-ignore: NeverForceUnwrap
            return try archive!.open(archive!.entry(named: mainEntry)!)
        case .folder: return try FileStream(path: (root as NSString).appendingPathComponent(mainEntry))
        case .xml: return try FileStream(path: path)
        }
    }

    /// Opens a side file named by the export (`/workout-routes/route_….gpx`); nil when it does not exist.
    /// Throws when the path tries to leave the export (`..`, or a link pointing outside the folder).
    public func openSideFile(_ reference: String) throws -> ByteStream? {
        let relative = try Self.safeRelativePath(reference)
        switch kind {
        case .zip:
            // swift-format-ignore: NeverForceUnwrap
            guard let entry = archive!.entry(named: root + relative) else { return nil }
            return try archive!.open(entry)
        case .folder, .xml:
            let full = (root as NSString).appendingPathComponent(relative)
            guard FileManager.default.fileExists(atPath: full) else { return nil }
            let resolvedRoot = (root as NSString).resolvingSymlinksInPath
            let resolved = (full as NSString).resolvingSymlinksInPath
            guard resolved.hasPrefix(resolvedRoot + "/") else {
                throw ImportError(.input, "side file path \(reference) leads outside the export (ignored)")
            }
            return try FileStream(path: full)
        }
    }

    /// The uncompressed size of a side file named by the export; nil when it is not there (or leads outside).
    public func sideFileSize(_ reference: String) -> Int? {
        guard let relative = try? Self.safeRelativePath(reference) else { return nil }
        switch kind {
        case .zip:
            // swift-format-ignore: NeverForceUnwrap
            return archive!.entry(named: root + relative).map { Int(clamping: $0.uncompressedSize) }
        case .folder, .xml:
            let full = (root as NSString).appendingPathComponent(relative)
            return (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? nil
        }
    }

    /// Side files in a directory of the export (`electrocardiograms`), as paths relative to the export.
    public func sideFiles(in directory: String) -> [String] {
        switch kind {
        case .zip:
            let prefix = root + directory + "/"
            // swift-format-ignore: NeverForceUnwrap
            return archive!.entries.filter { $0.name.hasPrefix(prefix) && !$0.isDirectory }
                .map { String($0.name.dropFirst(root.count)) }
        case .folder, .xml:
            let folder = (root as NSString).appendingPathComponent(directory)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.sorted().map { directory + "/" + $0 }
        }
    }

    /// The entry name of a side file, for messages.
    public func sideFileLabel(_ relative: String) -> String {
        kind == .zip ? root + relative : relative
    }

    /// Strips the leading `/` the export writes and refuses `..`, which could only come from a crafted file.
    static func safeRelativePath(_ reference: String) throws -> String {
        let trimmed = reference.drop { $0 == "/" }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty, !parts.contains(".."), !trimmed.contains("\\"), !trimmed.contains("\0") else {
            throw ImportError(.input, "side file path \(reference) leads outside the export (ignored)")
        }
        return parts.joined(separator: "/")
    }

    static func isMainXMLCandidate(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard lower.hasSuffix(".xml"), !lower.hasSuffix("_cda.xml") else { return false }
        let parts = name.split(separator: "/")
        return parts.count <= 2  // `export.xml` or `apple_health_export/export.xml`, not nested side files
    }

    static func depth(_ name: String) -> Int { name.split(separator: "/").count }

    /// Whether the first 64 KB contain the `<HealthData` root (the DTD before it is ~7 KB).
    static func looksLikeExport(_ stream: ByteStream) throws -> Bool {
        var head = [UInt8](repeating: 0, count: 64 * 1024)
        var filled = 0
        while filled < head.count {
            let count = try head.withUnsafeMutableBytes {
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if count == 0 { break }
            filled += count
        }
        let needle = Array("<HealthData".utf8)
        guard filled >= needle.count else { return false }
        for start in 0...(filled - needle.count) where head[start] == needle[0] {
            if head[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
