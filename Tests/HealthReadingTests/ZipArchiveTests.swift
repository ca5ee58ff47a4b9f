import Foundation
import HealthModel
import HealthReading
import HealthTestSupport
import SampleExports
import Testing

/// Zips written by `ZipWriter` (and by Python's `zipfile`, an independent writer) read back by `ZipArchive`,
/// plus damaged and hostile zips that must fail with one clear `ImportError`, never a crash or a hang.
@Suite struct ZipArchiveTests {
    /// The writer layouts a reader meets: Apple's default, and each deviation from it.
    enum Layout: String, CaseIterable, Sendable {
        case apple, noDescriptor, forcedZip64, forcedZip64NoDescriptor, unflaggedNames

        var options: ZipWriter.Options {
            var options = ZipWriter.Options()
            options.useDataDescriptor = self != .noDescriptor && self != .forcedZip64NoDescriptor
            options.forceZip64 = self == .forcedZip64 || self == .forcedZip64NoDescriptor
            options.utf8Names = self != .unflaggedNames
            return options
        }
    }

    @Test(arguments: Layout.allCases)
    func entriesRoundTrip(layout: Layout) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            let files: [(name: String, data: [UInt8], method: UInt16)] = [
                ("apple_health_export/", [], 0),
                ("apple_health_export/导出.xml", text(byteCount: 100_000, seed: 1), 8),
                ("apple_health_export/export_cda.xml", Array("<ClinicalDocument/>\n".utf8), 8),
                ("apple_health_export/electrocardiograms/ecg_2023-01-01.csv", Array("Name,Ryan\n1,2\n".utf8), 0),
                ("apple_health_export/empty.txt", [], 8),
                ("apple_health_export/empty-stored.txt", [], 0),
            ]
            let writer = try ZipWriter(path: path, options: layout.options)
            for file in files {
                try writer.addEntry(name: file.name, data: file.data, method: file.method)
            }
            try writer.finish()

            let archive = try ZipArchive(path: path)
            #expect(archive.entries.map(\.name) == files.map(\.name))
            #expect(archive.duplicateNames.isEmpty)
            #expect(archive.entries.map(\.isDirectory) == [true, false, false, false, false, false])
            for (entry, file) in zip(archive.entries, files) {
                #expect(entry.method == file.method)
                #expect(entry.uncompressedSize == UInt64(file.data.count))
                let descriptor = layout.options.useDataDescriptor && file.method == 8
                #expect((entry.flags & 0x0008 != 0) == descriptor, "\(entry.name)")
                #expect((entry.flags & 0x0800 != 0) == layout.options.utf8Names)
                let stream = try archive.open(entry)
                #expect(stream.expectedSize == UInt64(file.data.count))
                #expect(try readAll(stream, chunkSize: 4096) == file.data, "\(entry.name)")
                var after = [UInt8](repeating: 0, count: 8)
                #expect(try after.withUnsafeMutableBytes { try stream.read(into: $0) } == 0)
            }
            #expect(archive.entry(named: "apple_health_export/导出.xml")?.uncompressedSize == 100_000)
            #expect(archive.entry(named: "apple_health_export/missing.xml") == nil)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(contains(bytes, [0x50, 0x4b, 0x06, 0x07]) == layout.options.forceZip64)
        }
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func chunkSizeDoesNotChangeTheResult(chunkSize: Int) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("apple_health_export/export.xml", Self.bigText)])
            let archive = try ZipArchive(path: path)
            let entry = try #require(archive.entries.first)
            #expect(entry.compressedSize < entry.uncompressedSize / 3)
            let stream = try archive.open(entry)
            #expect(try readAll(stream, chunkSize: chunkSize) == Self.bigText)
        }
    }

    @Test func streamsReadSideBySide() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            let route = Array(String(repeating: "<trkpt lat=\"1\" lon=\"2\"/>\n", count: 5_000).utf8)
            try ZipWriter.write(
                path: path,
                entries: [
                    ("apple_health_export/export.xml", Self.bigText),
                    ("apple_health_export/workout-routes/route_2019-06-17_9.07pm.gpx", route),
                ])
            let archive = try ZipArchive(path: path)
            let streams = try [
                archive.open(archive.entries[0]), archive.open(archive.entries[1]),
                archive.open(archive.entries[0]),
            ]
            var outputs: [[UInt8]] = [[], [], []]
            var open = [true, true, true]
            let chunkSizes = [65_536, 7, 1_000_003]
            var chunk = [UInt8](repeating: 0, count: 1_000_003)
            while open.contains(true) {
                for index in streams.indices where open[index] {
                    let count = try chunk.withUnsafeMutableBytes { buffer in
                        let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<chunkSizes[index]])
                        return try streams[index].read(into: slice)
                    }
                    if count == 0 { open[index] = false }
                    outputs[index] += chunk[0..<count]
                }
            }
            #expect(outputs[0] == Self.bigText)
            #expect(outputs[1] == route)
            #expect(outputs[2] == Self.bigText)
        }
    }

    @Test func duplicateNamesResolveToTheFirst() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("a.xml", [1]), ("b.xml", [2]), ("a.xml", [3, 3])])
            let archive = try ZipArchive(path: path)
            #expect(archive.duplicateNames == ["a.xml"])
            let first = try #require(archive.entry(named: "a.xml"))
            #expect(try readAll(archive.open(first), chunkSize: 16) == [1])
        }
    }

    @Test func namesThatAreNotUTF8AreCodePage437() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            var options = ZipWriter.Options()
            options.utf8Names = false
            let writer = try ZipWriter(path: path, options: options)
            try writer.addEntry(name: "apple_health_export/Xport.xml", data: [1, 2, 3])
            try writer.finish()
            var bytes = try read(path)
            for index in bytes.indices where bytes[index] == UInt8(ascii: "X") { bytes[index] = 0x8E }
            try write(bytes, to: path)
            let archive = try ZipArchive(path: path)
            #expect(archive.entries.first?.name == "apple_health_export/Äport.xml")
        }
    }

    // MARK: - Damaged zips

    @Test func corruptStoredDataFailsTheCRC() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            let writer = try ZipWriter(path: path)
            try writer.addEntry(name: "ecg.csv", data: Array(repeating: 65, count: 1000), method: 0)
            try writer.finish()
            var bytes = try read(path)
            bytes[30 + 7 + 500] ^= 0x01
            try write(bytes, to: path)
            let archive = try ZipArchive(path: path)
            let error = try readExpectingError(archive, archive.entries[0])
            #expect(error.message == "zip entry is corrupt (CRC mismatch)")
            #expect(error.entry == "ecg.csv" && error.file == path && error.hint == "re-export from the Health app")
        }
    }

    @Test(arguments: [0.1, 0.5, 0.9])
    func corruptDeflateDataIsReported(position: Double) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("export.xml", text(byteCount: 300_000, seed: 3))])
            var bytes = try read(path)
            let archive = try ZipArchive(path: path)
            let start = 30 + "export.xml".utf8.count
            bytes[start + Int(Double(archive.entries[0].compressedSize) * position)] ^= 0x5A
            try write(bytes, to: path)
            let error = try readExpectingError(try ZipArchive(path: path), archive.entries[0])
            #expect(error.message.contains("corrupt") || error.message.contains("CRC"), "\(error)")
            #expect(error.kind == .input && error.entry == "export.xml")
        }
    }

    @Test(arguments: [4, 30, 100, 5_000, 40_000, 80_000])
    func truncatedZipIsReported(keptBytes: Int) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(
                path: path,
                entries: [("apple_health_export/export.xml", text(byteCount: 400_000, seed: 4)), ("b.gpx", [1])])
            let bytes = try read(path)
            for kept in [keptBytes, bytes.count - 1, bytes.count - 22, bytes.count - 60] where kept < bytes.count {
                try write(Array(bytes[0..<kept]), to: path)
                let error = #expect(throws: ImportError.self) { try readEverything(path) }
                let message = error?.message ?? ""
                #expect(message.hasPrefix("the zip was cut short at byte \(kept)"), "\(message)")
                #expect(error?.hint == "the file is incomplete; copy or re-export it again")
            }
        }
    }

    @Test func compressedDataEndingEarlyNamesTheByte() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("export.xml", text(byteCount: 300_000, seed: 5))])
            var bytes = try read(path)
            let header = try #require(centralHeaderOffsets(bytes).first)
            let compressed = littleEndian32(bytes, header + 20)
            setLittleEndian32(&bytes, header + 20, compressed / 2)
            try write(bytes, to: path)
            let archive = try ZipArchive(path: path)
            let error = try readExpectingError(archive, archive.entries[0])
            let end = 30 + "export.xml".utf8.count + Int(compressed / 2)
            #expect(error.message.hasPrefix("the zip was cut short at byte \(end)"), "\(error)")
        }
    }

    @Test func notAZipIsReported() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            for content in ["hello", String(repeating: "<HealthData>\n", count: 10_000)] {
                try write(Array(content.utf8), to: path)
                let error = #expect(throws: ImportError.self) { try ZipArchive(path: path) }
                #expect(
                    error?.message
                        == "not a zip file (no end-of-central-directory record); is this the export.zip from the "
                        + "Health app?")
                #expect(error?.file == path && error?.kind == .input)
            }
        }
    }

    @Test func emptyMissingAndFolderPathsAreReported() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try write([], to: path)
            let empty = #expect(throws: ImportError.self) { try ZipArchive(path: path) }
            #expect(empty?.message == "the file is empty")
            let missing = #expect(throws: ImportError.self) { try ZipArchive(path: directory + "/nope.zip") }
            #expect(missing?.message.hasPrefix("the file does not exist") == true)
            #expect(missing?.file == directory + "/nope.zip")
            let folder = #expect(throws: ImportError.self) { try ZipArchive(path: directory) }
            #expect(folder?.kind == .input)
        }
    }

    @Test func unsupportedMethodAndEncryptionAreReported() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("a.xml", [1, 2, 3]), ("b.xml", [4])])
            var bytes = try read(path)
            let headers = centralHeaderOffsets(bytes)
            bytes[headers[0] + 10] = 14  // LZMA
            bytes[headers[1] + 8] |= 0x01  // encrypted
            try write(bytes, to: path)
            let archive = try ZipArchive(path: path)
            let method = #expect(throws: ImportError.self) { try archive.open(archive.entries[0]) }
            #expect(method?.message.contains("compression method 14") == true && method?.entry == "a.xml")
            let encrypted = #expect(throws: ImportError.self) { try archive.open(archive.entries[1]) }
            #expect(encrypted?.message.contains("encrypted") == true && encrypted?.entry == "b.xml")
        }
    }

    // MARK: - Zip bombs

    @Test func expansionBeyondTheRatioLimitIsRefused() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("bomb.xml", [UInt8](repeating: 0x20, count: 8 << 20))])
            let limits = ZipArchive.Limits(ratioCheckThreshold: 1 << 20, maxRatio: 100)
            let archive = try ZipArchive(path: path, limits: limits)
            let error = try readExpectingError(archive, archive.entries[0])
            #expect(error.message.contains("expands more than 100×"), "\(error)")
            // The same entry is fine under the default limits (still below the 64 MiB threshold).
            let relaxed = try ZipArchive(path: path)
            #expect(try readAll(relaxed.open(relaxed.entries[0]), chunkSize: 1 << 16).count == 8 << 20)
        }
    }

    @Test func declaredSizesBoundTheOutput() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            try ZipWriter.write(path: path, entries: [("export.xml", text(byteCount: 200_000, seed: 6))])
            let small = try ZipArchive(path: path, limits: ZipArchive.Limits(maxEntrySize: 100_000))
            let tooBig = #expect(throws: ImportError.self) { try small.open(small.entries[0]) }
            #expect(tooBig?.message.contains("more than the 100000 allowed") == true)

            var bytes = try read(path)
            let header = try #require(centralHeaderOffsets(bytes).first)
            setLittleEndian32(&bytes, header + 24, 150_000)
            try write(bytes, to: path)
            let lying = try ZipArchive(path: path)
            let error = try readExpectingError(lying, lying.entries[0])
            #expect(error.message.contains("more than the 150000 bytes it declares"), "\(error)")
        }
    }

    /// Random damage to the headers and end records must always end in an `ImportError` or a clean read.
    @Test func damagedHeadersNeverCrash() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.zip"
            var options = ZipWriter.Options()
            options.forceZip64 = true
            let writer = try ZipWriter(path: path, options: options)
            try writer.addEntry(name: "apple_health_export/export.xml", data: text(byteCount: 20_000, seed: 7))
            try writer.addEntry(name: "apple_health_export/ecg.csv", data: [1, 2, 3], method: 0)
            try writer.finish()
            let original = try read(path)
            let structure = Array(original.count - 400..<original.count) + Array(0..<60)
            var random = SplitMix64(state: 99)
            for round in 0..<400 {
                var bytes = original
                for _ in 0...(random.next() % 4) {
                    let index = structure[Int(random.next() % UInt64(structure.count))]
                    bytes[index] = random.next() % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: random.next())
                }
                try write(bytes, to: path)
                do {
                    try readEverything(path)
                } catch is ImportError {
                    continue
                } catch {
                    Issue.record("round \(round): unexpected \(error)")
                }
            }
        }
    }

    // MARK: - Independent writers

    @Test(.enabled(if: pythonPath != nil, "python3 is not installed"))
    func readsZipsWrittenByPython() throws {
        let python = try #require(pythonPath)
        try withTemporaryDirectory { directory in
            let contents: [(name: String, data: [UInt8])] = [
                ("apple_health_export/导出.xml", text(byteCount: 250_000, seed: 8)),
                ("apple_health_export/export_cda.xml", Array("<ClinicalDocument/>".utf8)),
                ("apple_health_export/empty.txt", []),
            ]
            for (index, content) in contents.enumerated() {
                try write(content.data, to: directory + "/\(index)")
            }
            // A seekable file (sizes in the local headers, one entry forced to zip64) and an unseekable one
            // (data descriptors), both ZIP_DEFLATED.
            let script = """
                import sys, zipfile
                directory, names = sys.argv[1], sys.argv[2:]
                class Unseekable:
                    def __init__(self, f): self.f = f
                    def write(self, b): return self.f.write(b)
                    def flush(self): self.f.flush()
                for target, seekable in (("seekable.zip", True), ("streamed.zip", False)):
                    with open(f"{directory}/{target}", "wb") as raw:
                        with zipfile.ZipFile(raw if seekable else Unseekable(raw), "w", zipfile.ZIP_DEFLATED) as z:
                            for index, name in enumerate(names):
                                data = open(f"{directory}/{index}", "rb").read()
                                with z.open(name, "w", force_zip64=(index == 0)) as entry:
                                    entry.write(data)
                """
            let process = try ProcessRunner.run(python, ["-c", script, directory] + contents.map(\.name))
            try #require(process.status == 0, "\(process.error)")

            for target in ["seekable.zip", "streamed.zip"] {
                let archive = try ZipArchive(path: directory + "/" + target)
                #expect(archive.entries.map(\.name) == contents.map(\.name), "\(target)")
                #expect(archive.entries.allSatisfy { $0.method == 8 })
                #expect(archive.entries.allSatisfy { ($0.flags & 0x0008 != 0) == (target == "streamed.zip") })
                for (entry, content) in zip(archive.entries, contents) {
                    let data = try readAll(archive.open(entry), chunkSize: 1000)
                    #expect(data == content.data, "\(target) \(entry.name)")
                }
            }
        }
    }

    /// The one real Apple export zip at hand (iOS 12.3: data descriptors, `UT`/`ux` extra fields).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: realExport + "/export.zip")))
    func readsARealAppleExport() throws {
        let archive = try ZipArchive(path: realExport + "/export.zip")
        #expect(
            archive.entries.map(\.name) == ["apple_health_export/export.xml", "apple_health_export/export_cda.xml"])
        let entry = try #require(archive.entry(named: "apple_health_export/export.xml"))
        #expect(entry.flags & 0x0008 != 0)
        let xml = try readAll(archive.open(entry), chunkSize: 10_000)
        #expect(xml == (try read(realExport + "/export.xml")))
    }

    // MARK: - Fixtures

    /// 20 MB of record-like text with random numbers: compressible like real exports (about 5×), never trivially.
    static let bigText = text(byteCount: 20_000_000, seed: 42)
}

private let realExport = "/work/shared/fixtures/real/rgosdin-ios12-v8"

private let pythonPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":")
    .map { $0 + "/python3" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }

private func text(byteCount: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(state: seed)
    let types = ["StepCount", "HeartRate", "DistanceWalkingRunning", "ActiveEnergyBurned", "FlightsClimbed"]
    var result: [UInt8] = []
    result.reserveCapacity(byteCount + 200)
    while result.count < byteCount {
        let type = types[Int(random.next() % UInt64(types.count))]
        let value = random.next() % 100_000
        let minute = random.next() % 60
        let line =
            "<Record type=\"HKQuantityTypeIdentifier\(type)\" value=\"\(value)\" "
            + "startDate=\"2019-06-17 21:\(minute):11 -0400\"/>\n"
        result += Array(line.utf8)
    }
    return Array(result[0..<byteCount])
}

extension ZipWriter {
    fileprivate static func write(path: String, entries: [(String, [UInt8])]) throws {
        let writer = try ZipWriter(path: path)
        for (name, data) in entries {
            try writer.addEntry(name: name, data: data)
        }
        try writer.finish()
    }
}

private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ZipArchiveTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try body(url.path)
}

private func readAll(_ stream: ByteStream, chunkSize: Int) throws -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while true {
        let count = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
        if count == 0 { return result }
        result += chunk[0..<count]
    }
}

/// Opens every entry and reads it to the end.
private func readEverything(_ path: String) throws {
    let archive = try ZipArchive(path: path)
    for entry in archive.entries {
        _ = try readAll(archive.open(entry), chunkSize: 4096)
    }
}

private func readExpectingError(_ archive: ZipArchive, _ entry: ZipEntry) throws -> ImportError {
    let stream = try archive.open(entry)
    let error = try #require(throws: ImportError.self) { _ = try readAll(stream, chunkSize: 4096) }
    // Errors are sticky: the stream does not pretend to have ended.
    #expect(throws: ImportError.self) { _ = try readAll(stream, chunkSize: 4096) }
    return error
}

private func read(_ path: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
}

private func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

private func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
    bytes.indices.dropLast(pattern.count - 1).contains { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
}

private func littleEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
}

private func setLittleEndian32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
}

/// The offsets of the central directory headers of a zip without a comment or zip64 records.
private func centralHeaderOffsets(_ bytes: [UInt8]) -> [Int] {
    let end = bytes.count - 22
    var offset = Int(littleEndian32(bytes, end + 16))
    var offsets: [Int] = []
    for _ in 0..<Int(littleEndian32(bytes, end + 10) & 0xFFFF) {
        offsets.append(offset)
        let variable = (0..<3).map { Int(bytes[offset + 28 + 2 * $0]) | Int(bytes[offset + 29 + 2 * $0]) << 8 }
        offset += 46 + variable.reduce(0, +)
    }
    return offsets
}
