import Foundation
import HealthTestSupport
import Testing

@testable import SampleExports

/// The sample-export generator: byte-for-byte determinism, and its tally checked against an independent count
/// made by Python's ElementTree/zipfile (skipped where python3 is missing).
@Suite("Sample export generator")
struct GeneratorTests {
    static let pythonAvailable: Bool = (try? runPython("print(1)", arguments: []).status) == 0

    static func temporaryPath(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("generator-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    static func options(_ profile: ExportProfile, days: Int = 4, seed: UInt64 = 7) -> GeneratorOptions {
        var options = GeneratorOptions(seed: seed, days: days, profile: profile)
        options.scale = 0.4
        return options
    }

    static func runPython(_ script: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run("python3", ["-c", script] + arguments)
        return (result.status, result.output)
    }

    /// Counts elements the way a careful importer must: cut the DOCTYPE (the iOS 16 one is not well formed),
    /// strip XML-illegal control characters, then iterparse. GPX `trkpt`s are counted from the files.
    static let countScript = #"""
        import sys, re, json, io, os, glob, collections, xml.etree.ElementTree as ET
        root, name = sys.argv[1], sys.argv[2]
        data = open(os.path.join(root, name), 'rb').read()
        start = data.index(b'<!DOCTYPE'); end = data.index(b']>', start) + 2
        body = data[:start] + data[end:]
        ctrl = re.compile(rb'[\x00-\x08\x0b\x0c\x0e-\x1f]')
        nctrl = len(ctrl.findall(body))
        counts = collections.Counter(); top = collections.Counter(); depth = 0
        for event, element in ET.iterparse(io.BytesIO(ctrl.sub(b'', body)), events=('start', 'end')):
            if event == 'start':
                depth += 1; counts[element.tag] += 1
                if depth == 2 and element.tag == 'Record': top[element.get('type')] += 1
            else:
                depth -= 1
                if depth <= 1: element.clear()
        trkpt = sum(open(f).read().count('<trkpt ') for f in glob.glob(os.path.join(root, 'workout-routes', '*.gpx')))
        ecg = glob.glob(os.path.join(root, 'electrocardiograms', '*.csv'))
        print(json.dumps({'counts': counts, 'top': top, 'ctrl': nctrl, 'trkpt': trkpt, 'bytes': len(data),
                          'ecg': len(ecg)}))
        """#

    struct PythonCount: Decodable {
        let counts: [String: Int]
        let top: [String: Int]
        let ctrl: Int
        let trkpt: Int
        let bytes: Int
        let ecg: Int
    }

    @Test("same seed gives identical bytes; another seed does not")
    func determinism() throws {
        let first = Self.temporaryPath("a.zip")
        let second = Self.temporaryPath("b.zip")
        let other = Self.temporaryPath("c.zip")
        let options = Self.options(.ios18, days: 3)
        let tallyA = try ExportGenerator(options: options).write(to: .zip(first))
        let tallyB = try ExportGenerator(options: options).write(to: .zip(second))
        var changed = options
        changed.seed = 8
        try ExportGenerator(options: changed).write(to: .zip(other))
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(bytesA == (try Data(contentsOf: URL(fileURLWithPath: second))))
        #expect(bytesA != (try Data(contentsOf: URL(fileURLWithPath: other))))
        #expect(tallyA == tallyB)
        #expect(tallyA.records > 1_000)
    }

    @Test(
        "tally matches an independent Python count", .enabled(if: GeneratorTests.pythonAvailable),
        arguments: [ExportProfile.ios18, .ios16, .ios12])
    func tallyMatchesPython(profile: ExportProfile) throws {
        let root = Self.temporaryPath("folder")
        var options = Self.options(profile)
        options.xmlFileName = "导出.xml"
        let tally = try ExportGenerator(options: options).write(to: .folder(root))
        let result = try Self.runPython(Self.countScript, arguments: [root + "/apple_health_export", "导出.xml"])
        try #require(result.status == 0)
        let python = try JSONDecoder().decode(PythonCount.self, from: Data(result.output.utf8))
        let count = { (tag: String) in python.counts[tag, default: 0] }
        #expect(count("Record") == tally.records + tally.correlationChildRecords)
        #expect(python.top == tally.recordsByType)
        #expect(count("MetadataEntry") == tally.metadataEntries)
        #expect(count("Correlation") == tally.correlations)
        #expect(count("Workout") == tally.workouts)
        #expect(count("WorkoutEvent") == tally.workoutEvents)
        #expect(count("WorkoutActivity") == tally.workoutActivities)
        #expect(count("WorkoutStatistics") == tally.workoutStatistics)
        #expect(count("WorkoutRoute") == tally.workoutRoutes)
        #expect(count("FileReference") == (profile == .ios12 ? 0 : tally.workoutRoutes))
        #expect(count("FileReference") == tally.routeFiles + tally.missingRouteFiles)
        #expect(count("Location") + python.trkpt == tally.routePoints)
        #expect(count("Location") == tally.inlineLocations)
        #expect(count("ActivitySummary") == tally.activitySummaries)
        #expect(count("HeartRateVariabilityMetadataList") == tally.hrvRecordsWithBeats)
        #expect(count("InstantaneousBeatsPerMinute") == tally.hrvBeats)
        #expect(count("ClinicalRecord") == tally.clinicalRecords)
        #expect(count("Audiogram") == tally.audiograms)
        #expect(count("SensitivityPoint") == tally.sensitivityPoints)
        #expect(count("VisionPrescription") == tally.visionPrescriptions)
        #expect(python.ctrl == tally.controlCharacters)
        #expect(python.bytes == tally.xmlBytes)
        #expect(python.ecg == tally.ecgRecordings)
        #expect(tally.quantityRecords + tally.categoryRecords == tally.records)
        #expect(tally.controlCharacters > 0)
        #expect(tally.exactDuplicateRecords > 0 && tally.syncSuperseded > 0)
        #expect(tally.probableDuplicateWorkouts > 0)
        if profile != .ios12 {
            #expect(tally.missingRouteFiles == 1 && tally.ecgRecordings >= 2 && tally.workoutActivities > 0)
        }
    }

    @Test("python's zipfile lists and verifies the zip", .enabled(if: GeneratorTests.pythonAvailable))
    func zipListsInPython() throws {
        let path = Self.temporaryPath("export.zip")
        var options = Self.options(.ios18, days: 5)
        options.xmlFileName = "导出.xml"
        let tally = try ExportGenerator(options: options).write(to: .zip(path))
        let script = """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            for info in z.infolist(): print(info.filename, info.file_size, info.flag_bits & 8)
            """
        let result = try Self.runPython(script, arguments: [path])
        try #require(result.status == 0)
        let lines = result.output.split(separator: "\n").map { $0.split(separator: " ") }
        let names = lines.map { String($0[0]) }
        #expect(names.first == "apple_health_export/导出.xml")
        #expect(Int(lines[0][1]) == tally.xmlBytes)
        #expect(names.contains("apple_health_export/导出_cda.xml"))
        #expect(names.filter { $0.hasPrefix("apple_health_export/workout-routes/") }.count == tally.routeFiles)
        let ecgFiles = names.filter { $0.hasPrefix("apple_health_export/electrocardiograms/ecg_") }
        #expect(ecgFiles.count == tally.ecgRecordings)
        #expect(names.filter { $0.hasPrefix("apple_health_export/clinical-records/") }.count == tally.clinicalRecords)
        #expect(lines.allSatisfy { $0.last == "8" }, "every entry uses a data descriptor, like Apple's zip")
    }

    @Test("%g, NSNumber and date text match the exporter's formats")
    func formats() throws {
        #expect(NumberText.g(9.9854e-06) == "9.9854e-06")
        #expect(NumberText.g(1_234_567) == "1.23457e+06")
        #expect(NumberText.g(0.18) == "0.18")
        #expect(NumberText.g(72) == "72")
        #expect(NumberText.g(22.531_234) == "22.5312")
        #expect(NumberText.nsNumber(88.233_781_866_232_55) == "88.23378186623255")
        #expect(NumberText.nsNumber(30) == "30")
        let clock = try #require(ExportClock(offset: "-0400"))
        #expect(clock.string(1_560_820_031) == "2019-06-17 21:07:11 -0400")
        #expect(ExportClock(offset: "0100") == nil)
        #expect(BeatTimeStyle.twelveHour.text(centiseconds: 6_708_894) == "6:38:08.94 PM")
        #expect(BeatTimeStyle.twentyFourHourComma.text(centiseconds: 123_780) == "00:20:37,80")
        #expect(HomeZone.europeBerlin.offset(at: 1_720_000_000) == 7_200)
        #expect(HomeZone.europeBerlin.offset(at: 1_704_067_200) == 3_600)
    }

    @Test(
        "the iOS 16 DTD is malformed where the reports say (expat: line 156)",
        .enabled(if: GeneratorTests.pythonAvailable))
    func malformedDTD() throws {
        let path = Self.temporaryPath("export.xml")
        try ExportGenerator(options: Self.options(.ios16, days: 1)).write(to: .bareXML(path))
        let script = """
            import sys, xml.etree.ElementTree as ET
            try:
                ET.parse(sys.argv[1]); print('parsed')
            except ET.ParseError as error: print(error)
            """
        let result = try Self.runPython(script, arguments: [path])
        #expect(result.output.contains("syntax error: line 156, column 0"))
    }

    @Test("targetXMLBytes keeps adding days until the XML is big enough")
    func targetSize() throws {
        let path = Self.temporaryPath("target.xml")
        var options = Self.options(.ios18)
        options.targetXMLBytes = 3_000_000
        let tally = try ExportGenerator(options: options).write(to: .bareXML(path))
        #expect(tally.xmlBytes >= 3_000_000)
        #expect(tally.xmlBytes < 3_600_000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == tally.xmlBytes)
    }

    // MARK: - Benchmark shapes (scripts/benchmark)

    /// Per GPX file: the gaps between consecutive fix times, and each Workout's duration in minutes from the XML.
    static let routeScript = #"""
        import sys, os, re, glob, json, datetime
        root = sys.argv[1]
        gaps = []
        for path in glob.glob(os.path.join(root, 'workout-routes', '*.gpx')):
            times = [datetime.datetime.fromisoformat(t.replace('Z', '+00:00'))
                     for t in re.findall(r'<time>([^<]+)</time>', open(path).read())[1:]]
            gaps += [int((b - a).total_seconds()) for a, b in zip(times, times[1:])]
        xml = open(os.path.join(root, 'export.xml')).read()
        minutes = [float(m) for m in re.findall(r'<Workout workoutActivityType="[^"]+" duration="([^"]+)"', xml)]
        print(json.dumps({'gaps': gaps, 'minutes': minutes}))
        """#

    struct RouteShape: Decodable {
        let gaps: [Int]
        let minutes: [Double]
    }

    static func routeShape(_ options: GeneratorOptions) throws -> (RouteShape, ExportTally) {
        let root = temporaryPath("folder")
        let tally = try ExportGenerator(options: options).write(to: .folder(root))
        let result = try runPython(routeScript, arguments: [root + "/apple_health_export"])
        try #require(result.status == 0)
        return (try JSONDecoder().decode(RouteShape.self, from: Data(result.output.utf8)), tally)
    }

    @Test(
        "routeIntervalSeconds 1 writes 1 Hz GPX tracks; workoutLengthFactor 3 makes workouts three times longer",
        .enabled(if: GeneratorTests.pythonAvailable))
    func routeHeavyShape() throws {
        let usual = Self.options(.ios18, days: 6)
        var heavy = usual
        heavy.routeIntervalSeconds = 1
        heavy.workoutLengthFactor = 3
        let (before, beforeTally) = try Self.routeShape(usual)
        let (after, afterTally) = try Self.routeShape(heavy)
        try #require(!after.gaps.isEmpty && after.minutes.count == before.minutes.count)
        // Pauses leave a few longer gaps; the usual interval at scale 0.4 is 10 s.
        #expect(after.gaps.filter { $0 == 1 }.count > after.gaps.count * 95 / 100)
        #expect(before.gaps.filter { $0 == 1 }.isEmpty)
        let ratio = after.minutes.reduce(0, +) / before.minutes.reduce(0, +)
        #expect(ratio > 2.8 && ratio < 3.2, "workout minutes grew \(ratio)x")
        #expect(afterTally.routePoints > beforeTally.routePoints * 20)
    }

    @Test(
        "extraMetadataPerRecord adds that many MetadataEntry to every top-level Record",
        .enabled(if: GeneratorTests.pythonAvailable))
    func metadataHeavyShape() throws {
        let root = Self.temporaryPath("folder")
        var options = Self.options(.ios18, days: 2)
        options.extraMetadataPerRecord = 5
        let tally = try ExportGenerator(options: options).write(to: .folder(root))
        let script = #"""
            import sys, re, collections, xml.etree.ElementTree as ET
            data = open(sys.argv[1], 'rb').read()
            body = data[data.index(b']>', data.index(b'<!DOCTYPE')) + 2:]
            body = re.sub(rb'[\x00-\x08\x0b\x0c\x0e-\x1f]', b'', body)
            tree = ET.fromstring(body)
            per_record = collections.Counter(
                sum(1 for m in r.findall('MetadataEntry') if m.get('key').startswith('com.example.tracker.'))
                for r in tree.findall('Record'))
            print(dict(per_record), sum(1 for _ in tree.iter('MetadataEntry')))
            """#
        let result = try Self.runPython(script, arguments: [root + "/apple_health_export/export.xml"])
        try #require(result.status == 0)
        #expect(result.output == "{5: \(tally.records)} \(tally.metadataEntries)\n")
    }

    @Test("includeCaseVariantKeys false keeps MyFitnessPal's Meal key and leaves out its meal twin")
    func caseVariantKeys() throws {
        func xml(_ include: Bool) throws -> String {
            let path = Self.temporaryPath("export.xml")
            var options = Self.options(.ios18, days: 2)
            options.includeCaseVariantKeys = include
            try ExportGenerator(options: options).write(to: .bareXML(path))
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        let usual = try xml(true), without = try xml(false)
        let count = { (text: String, key: String) in text.components(separatedBy: "key=\"\(key)\"").count - 1 }
        #expect(count(usual, "meal") > 0 && count(usual, "meal") == count(usual, "Meal"))
        #expect(count(without, "meal") == 0 && count(without, "Meal") == count(usual, "Meal"))
    }

    @Test("cdaTargetBytes grows export_cda.xml to that size; without it the CDA keeps its two entries")
    func bigCDAShape() throws {
        func cda(_ target: Int?) throws -> String {
            let root = Self.temporaryPath("folder")
            var options = Self.options(.ios18, days: 3)
            options.cdaTargetBytes = target
            try ExportGenerator(options: options).write(to: .folder(root))
            return try String(contentsOfFile: root + "/apple_health_export/export_cda.xml", encoding: .utf8)
        }
        let usual = try cda(nil)
        let big = try cda(2_000_000)
        #expect(usual.components(separatedBy: "<entry ").count - 1 == 2)
        #expect(big.utf8.count >= 2_000_000 && big.utf8.count < 2_010_000)
        #expect(big.hasSuffix(" </section>\n</component>\n"))
        #expect(big.components(separatedBy: "<entry ").count - 1 > 1_000)
    }
}
