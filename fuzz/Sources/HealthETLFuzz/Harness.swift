// libFuzzer entry points over healthetl's parsers. One executable; the target is chosen by the environment
// variable HEALTHETL_FUZZ_TARGET (see fuzz/README.md and scripts/fuzz). Built with -sanitize=fuzzer,address:
// libFuzzer supplies `main`, so this file is compiled with -parse-as-library and defines no entry point.
//
// Each target only calls the public API, must never crash whatever the input, and checks a few invariants
// (a violated one traps with a message, so libFuzzer saves the input like any other crash).
import Foundation
import HealthModel
import HealthReading
import HealthStages

#if canImport(Glibc)
    import Glibc
#endif

enum FuzzTarget: String, CaseIterable {
    case zip, xml, gpx, ecg, timestamp, number, unit, stateofmind
}

nonisolated(unsafe) private var target: FuzzTarget?
nonisolated(unsafe) private var scratchDirectory = ""

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["HEALTHETL_FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("set HEALTHETL_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    target = chosen
    // One directory per process: libFuzzer's -jobs/-merge run several processes side by side.
    scratchDirectory = NSTemporaryDirectory() + "healthetl-fuzz-\(getpid())"
    try? FileManager.default.removeItem(atPath: scratchDirectory)
    mkdir(scratchDirectory, 0o700)
    atexit {
        try? FileManager.default.removeItem(atPath: scratchDirectory)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size == 0 ? nil : data, count: size)
    // swift-format-ignore: NeverForceUnwrap
    switch target! {
    case .zip: fuzzZip(bytes)
    case .xml: fuzzExportXML(bytes)
    case .gpx: fuzzGPX(bytes)
    case .ecg: fuzzECG(bytes)
    case .timestamp: fuzzTimestamp(bytes)
    case .number: fuzzNumber(bytes)
    case .unit: fuzzUnit(bytes)
    case .stateofmind: fuzzStateOfMind(bytes)
    }
    return 0
}

// MARK: - Helpers

/// Writes the input to `name` in this process's scratch directory (the readers under test take paths).
private func writeScratch(_ name: String, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let path = scratchDirectory + "/" + name
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot write \(path)")
    var written = 0
    while written < bytes.count {
        // swift-format-ignore: NeverForceUnwrap
        let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
        precondition(count > 0, "write failed")
        written += count
    }
    close(fd)
    return path
}

/// A ByteStream over the fuzz input.
final class MemoryStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    var expectedSize: UInt64? { UInt64(bytes.count) }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            // swift-format-ignore: NeverForceUnwrap
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// Reads a stream to its end (or its first error), at most `limit` bytes; returns the count, nil on error.
/// Errors must be sticky: a read after a failed one fails again.
@discardableResult
private func drain(_ stream: ByteStream, limit: Int) -> Int? {
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    var total = 0
    while total < limit {
        do {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { return total }
            precondition(count > 0 && count <= buffer.count, "read returned \(count)")
            total += count
        } catch {
            let again = Result { try buffer.withUnsafeMutableBytes { try stream.read(into: $0) } }
            if case .success(let count) = again, count > 0 {
                preconditionFailure("a stream produced bytes after an error: \(error)")
            }
            return nil
        }
    }
    return total
}

/// Every item of an export, described, or the error that ended it. Capped so no input runs for long.
private func readExport(_ path: String, chunkSize: Int) -> (items: [String], warnings: [String: Int], error: String?) {
    var items: [String] = []
    do {
        let reader = try ExportReader(container: ExportContainer(path: path), chunkSize: chunkSize)
        while items.count < 20_000, let item = try reader.next() {
            items.append(String(reflecting: item))
        }
        _ = reader.progress
        _ = reader.elementCounts
        return (items, reader.warnings, nil)
    } catch {
        return (items, [:], "\(error)")
    }
}

// MARK: - Targets

/// The zip reader (central directory, zip64, local headers, inflate, CRC and bomb limits), then the same file
/// as an export: main-XML detection inside the zip, side files (GPX, ECG, FHIR, CDA) and their paths.
private func fuzzZip(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = writeScratch("export.zip", bytes)
    // A low ratio threshold so the zip-bomb check is reachable with fuzzer-sized inputs.
    let limits = ZipArchive.Limits(
        maxEntrySize: 1 << 30, ratioCheckThreshold: 1 << 16, maxRatio: 1000, maxEntryCount: 10_000)
    if let archive = try? ZipArchive(path: path, limits: limits) {
        var budget = 64 << 20
        for entry in archive.entries.prefix(256) {
            precondition(archive.entry(named: entry.name) != nil, "entry(named:) misses \(entry.name)")
            guard budget > 0, let stream = try? archive.open(entry) else { continue }
            if let count = drain(stream, limit: budget) {
                precondition(
                    UInt64(count) == entry.uncompressedSize || count >= budget,
                    "entry \(entry.name) read \(count) bytes without error but declares \(entry.uncompressedSize)")
                budget -= count
            } else {
                budget -= 1
            }
        }
    }
    _ = readExport(path, chunkSize: XMLDocumentReader.defaultChunkSize)
}

/// The export XML decoder (every element and attribute the export has, HRV beat times, dates, units,
/// metadata), fed as a bare `export.xml`. The document is read twice, with the default chunk and with 7-byte
/// chunks: chunk boundaries (inside a tag, an attribute, a UTF-8 sequence) must not change the result.
private func fuzzExportXML(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = writeScratch("export.xml", bytes)
    let whole = readExport(path, chunkSize: XMLDocumentReader.defaultChunkSize)
    let pieces = readExport(path, chunkSize: 7)
    if whole.error == nil, pieces.error == nil {
        precondition(whole.items == pieces.items, "chunk size changed the items:\n\(whole.items)\n\(pieces.items)")
        precondition(
            whole.warnings == pieces.warnings, "chunk size changed the warnings:\n\(whole.warnings)\n\(pieces.warnings)"
        )
    }
    precondition(
        (whole.error == nil) == (pieces.error == nil),
        "chunk size changed success: \(whole.error ?? "ok") vs \(pieces.error ?? "ok")")
}

/// Workout route files, with the same chunk-size check as the XML target.
private func fuzzGPX(_ bytes: UnsafeBufferPointer<UInt8>) {
    let input = Array(bytes)
    let whole = Result { try GPXReader.readResult(MemoryStream(input)) }
    let pieces = Result { try GPXReader.readResult(MemoryStream(input), chunkSize: 5) }
    switch (whole, pieces) {
    case (.success(let a), .success(let b)):
        precondition(a == b, "chunk size changed the GPX result")
    case (.failure, .failure):
        break
    case (.success, .failure(let error)), (.failure(let error), .success):
        preconditionFailure("chunk size changed GPX success: \(error)")
    }
}

private func fuzzECG(_ bytes: UnsafeBufferPointer<UInt8>) {
    if let recording = try? ECGReader.read(fileName: "ecg_2024-01-01.csv", bytes: Array(bytes)) {
        precondition(!recording.samples.isEmpty, "an ECG without samples was accepted")
        precondition(recording.samples.allSatisfy(\.isFinite), "an ECG sample is not finite")
    }
}

/// `yyyy-MM-dd HH:mm:ss ±hhmm`: bytes and String forms agree, and a parsed date formats back to what was written.
private func fuzzTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) {
    let parsed = Timestamp.parse(bytes)
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    precondition(Timestamp.parse(text) == parsed, "bytes and String parses differ for \(text.debugDescription)")
    guard let parsed else { return }
    precondition(abs(parsed.offsetSeconds) < 86_400, "offset out of range")
    let local = TimestampFormatting.utcString(parsed.seconds + Int64(parsed.offsetSeconds))
    let written = Array(bytes.prefix(19))
    // A leap second (`:60`) rolls over into the next minute; everything else must format back as written.
    if written[17] != UInt8(ascii: "6") {
        let expected =
            String(decoding: written[0..<10], as: UTF8.self) + "T"
            + String(decoding: written[11..<19], as: UTF8.self) + "Z"
        precondition(local == expected, "\(text.debugDescription) parsed to \(local)")
    }
}

/// Numbers: the fast path must give exactly strtod's double, and the byte and String forms must agree.
private func fuzzNumber(_ bytes: UnsafeBufferPointer<UInt8>) {
    let value = NumberParsing.parseDouble(bytes)
    let localized = NumberParsing.parseLocalizedDouble(bytes)
    if let value {
        precondition(value.isFinite, "parseDouble returned \(value)")
        var copy = Array(bytes) + [0]
        let reference = copy.withUnsafeMutableBufferPointer { buffer -> Double? in
            // swift-format-ignore: NeverForceUnwrap
            let start = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>? = nil
            let result = strtod(start, &end)
            return end == start + bytes.count ? result : nil
        }
        precondition(
            reference?.bitPattern == value.bitPattern,
            "parseDouble(\(String(decoding: bytes, as: UTF8.self).debugDescription)) = \(value), strtod says \(String(describing: reference))"
        )
    }
    if let localized { precondition(localized.isFinite, "parseLocalizedDouble returned \(localized)") }
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    precondition(
        NumberParsing.parseDouble(text)?.bitPattern == value?.bitPattern, "String and bytes parses differ")
    // The String form also trims spaces, tabs, CR and quotes; compare only where that cannot matter.
    if !text.contains(where: { " \t\r\"".contains($0) }) {
        let fromText = NumberParsing.parseLocalizedDouble(Substring(text))
        precondition(
            fromText?.bitPattern == localized?.bitPattern,
            "parseLocalizedDouble differs between bytes and Substring for \(text.debugDescription): \(String(describing: localized)) vs \(String(describing: fromText))"
        )
    }
}

/// HKUnit strings; the input is split at the first `|` into two units that are converted between.
private func fuzzUnit(_ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let first = parts[0]
    let second = parts.count > 1 ? parts[1] : "count"
    let a = HealthUnit.parse(first)
    let b = HealthUnit.parse(second)
    if let a {
        precondition(
            a.scale.isFinite && a.scale != 0 && a.offset.isFinite,
            "unit \(first.debugDescription) has scale \(a.scale), offset \(a.offset)")
        precondition(a.isConvertible(to: a), "unit \(first.debugDescription) does not convert to itself")
    }
    if let a, let b, let converter = a.converter(to: b) {
        _ = converter.convert(1)
        _ = converter.isIdentity
        precondition(
            b.converter(to: a) != nil, "\(first.debugDescription)→\(second.debugDescription) converts one way only")
    }
    _ = UnitConversionCache().converter(from: first, to: second)
}

/// State of Mind JSON (Health Auto Export): the streaming array scanner, then JSONSerialization per entry.
private func fuzzStateOfMind(_ bytes: UnsafeBufferPointer<UInt8>) {
    let path = writeScratch("state-of-mind.json", bytes)
    var warnings: [String: Int] = [:]
    var count = 0
    try? StateOfMindReader.read(path: path, warnings: &warnings) { _ in count += 1 }
}
