import Foundation
import SampleExports

/// `generate-export`: writes a deterministic Apple Health export for tests, demos and benchmarks.
/// Exit codes: 0 done, 64 bad arguments (EX_USAGE), 1 generation failed.

let usage = """
    usage: generate-export --out PATH [--seed N] [--days N] [--scale X] [--target-mb N]
                           [--profile ios18|ios16|ios12|ios8] [--format zip|folder|xml] [--xml-name NAME]
                           [--tally PATH] [--start YYYY-MM-DD] [--offset +0100] [--level 0-9]
                           [--no-duplicates] [--no-control-chars] [--no-side-files] [--no-case-variant-keys]
                           [--route-interval S] [--workout-length 1-3] [--metadata-per-record N] [--cda-mb N]
                           [--export-at HH:MM] [--feed-of N [--feed-files daily|single]] [--illness FIRST-LAST]
      --out       the zip file, the folder to create apple_health_export/ in, or the XML file
      --target-mb keep adding days until export.xml is at least this many MB (benchmark exports)
      --tally     also write the generator's counts (ExportTally) as JSON to PATH
      --no-control-chars, --no-case-variant-keys: an export Python importers can read (benchmark peers)
      benchmark shapes: --route-interval 1 (1 Hz GPS) with --workout-length 3 (workouts 3x longer): route-heavy;
      --metadata-per-record N: N extra MetadataEntry per Record; --cda-mb N: export_cda.xml of at least N MB
      --illness FIRST-LAST: plant an illness on those days (0 = the first): resting heart rate, respiratory
                   rate and wrist temperature up, heart rate variability down
      --export-at HH:MM: the export happens at this local time of its last day (records after it left out)
      --feed-of N: instead of an export, write into the folder --out the Health Auto Export JSON feed that
                   follows the export of the first N days (same options), up to the end of day --days, from the
                   same truth as the later export; one file per day (with the previous day), or one file

    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("generate-export: \(message)\n\(usage)".utf8))
    exit(64)
}

var options = GeneratorOptions()
var outPath: String?
var format = "zip"
var tallyPath: String?
var feedOf: Int?
var feedDaily = true
var arguments = CommandLine.arguments.dropFirst()

@MainActor func value(_ flag: String) -> String {
    guard let next = arguments.popFirst() else { fail("\(flag) needs a value") }
    return next
}

while let argument = arguments.popFirst() {
    switch argument {
    case "--out": outPath = value(argument)
    case "--seed":
        guard let seed = UInt64(value(argument)) else { fail("--seed must be a non-negative integer") }
        options.seed = seed
    case "--days":
        guard let days = Int(value(argument)), days >= 1 else { fail("--days must be a positive integer") }
        options.days = days
    case "--scale":
        guard let scale = Double(value(argument)), scale > 0, scale <= 100 else { fail("--scale must be in (0, 100]") }
        options.scale = scale
    case "--target-mb":
        guard let megabytes = Double(value(argument)), megabytes > 0 else { fail("--target-mb must be positive") }
        options.targetXMLBytes = Int(megabytes * 1_048_576)
    case "--profile":
        guard let profile = ExportProfile(rawValue: value(argument)) else { fail("unknown profile") }
        options.profile = profile
    case "--format":
        format = value(argument)
        guard ["zip", "folder", "xml"].contains(format) else { fail("--format must be zip, folder or xml") }
    case "--xml-name": options.xmlFileName = value(argument)
    case "--tally": tallyPath = value(argument)
    case "--offset": options.exportOffset = value(argument)
    case "--level":
        guard let level = Int32(value(argument)), (0...9).contains(level) else { fail("--level must be 0-9") }
        options.compressionLevel = level
    case "--start":
        let text = value(argument)
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else {
            fail("--start must be YYYY-MM-DD")
        }
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour) = (parts[0], parts[1], parts[2], 12)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else { fail("--start is not a date") }
        options.startDate = date
    case "--route-interval":
        guard let seconds = Int(value(argument)), seconds >= 1 else { fail("--route-interval must be at least 1") }
        options.routeIntervalSeconds = seconds
    case "--illness":
        let bounds = value(argument).split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] >= 0, bounds[0] <= bounds[1] else {
            fail("--illness must be FIRST-LAST (day numbers, 0 = the first day)")
        }
        options.illnessDays = bounds[0]...bounds[1]
    case "--workout-length":
        guard let factor = Int(value(argument)), (1...3).contains(factor) else { fail("--workout-length must be 1-3") }
        options.workoutLengthFactor = factor
    case "--metadata-per-record":
        guard let count = Int(value(argument)), (0...100).contains(count) else {
            fail("--metadata-per-record must be 0-100")
        }
        options.extraMetadataPerRecord = count
    case "--cda-mb":
        guard let megabytes = Double(value(argument)), megabytes > 0 else { fail("--cda-mb must be positive") }
        options.cdaTargetBytes = Int(megabytes * 1_048_576)
    case "--export-at":
        let parts = value(argument).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else {
            fail("--export-at must be HH:MM")
        }
        options.exportTimeOfDay = parts[0] * 3_600 + parts[1] * 60
    case "--feed-of":
        guard let days = Int(value(argument)), days >= 1 else { fail("--feed-of must be a positive integer") }
        feedOf = days
    case "--feed-files":
        let kind = value(argument)
        guard kind == "daily" || kind == "single" else { fail("--feed-files must be daily or single") }
        feedDaily = kind == "daily"
    case "--no-duplicates": options.includeDuplicates = false
    case "--no-control-chars": options.includeControlCharacters = false
    case "--no-side-files": options.includeSideFiles = false
    case "--no-case-variant-keys": options.includeCaseVariantKeys = false
    case "-h", "--help":
        FileHandle.standardError.write(Data(usage.utf8))
        exit(0)
    default: fail("unknown argument \(argument)")
    }
}

guard let outPath else { fail("--out is required") }
if let feedOf {
    let started = Date()
    var feed = FeedGenerator(options: options, exportDays: feedOf)
    feed.dailyFiles = feedDaily
    do {
        let (files, points) = try feed.write(to: outPath)
        let line =
            "generate-export: wrote the feed after day \(feedOf) into \(outPath): \(files.count) files, "
            + points.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + String(format: " points in %.1f s", Date().timeIntervalSince(started)) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("generate-export: \(error)\n".utf8))
        exit(1)
    }
}
let output: OutputKind
switch format {
case "folder": output = .folder(outPath)
case "xml": output = .bareXML(outPath)
default: output = .zip(outPath)
}

let started = Date()
do {
    let tally = try ExportGenerator(options: options).write(to: output)
    if let tallyPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(tally).write(to: URL(fileURLWithPath: tallyPath))
    }
    let seconds = Date().timeIntervalSince(started)
    func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
    let line =
        "generate-export: wrote \(outPath) (\(format), \(megabytes(tally.outputBytes))): "
        + "\(tally.xmlFileName) \(megabytes(tally.xmlBytes)), profile \(tally.profile), seed \(tally.seed), "
        + "\(tally.days) days \(tally.firstDay)…\(tally.lastDay), \(tally.records) records, "
        + "\(tally.workouts) workouts, \(tally.routeFiles) GPX, \(tally.ecgRecordings) ECG in "
        + String(format: "%.1f s", seconds) + "\n"
    FileHandle.standardError.write(Data(line.utf8))
} catch {
    FileHandle.standardError.write(Data("generate-export: \(error)\n".utf8))
    exit(1)
}
