import Foundation
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import SampleExports

/// `SampleBatch` holds exactly the decoder's `Sample`s: each one appended and read back is the same, field by
/// field and bit by bit (`differences`), and `retain` keeps rows, side columns and `others` together.
struct SampleBatchTests {
    /// The exports in the repository and generated ones of every profile (legacy aggregates, inline routes,
    /// HRV beats in every time style, metadata quantities).
    static let repositoryExports = [Fixtures.repositoryRoot + "/Tests/Fixtures/legacy-ios8.xml"]
    static let realExports = ["rgosdin-ios12-v8/export.zip", "dogsheep-excerpt/export.xml"]
    static var realExportsArePresent: Bool { realExports.allSatisfy { Fixtures.real($0) != nil } }

    /// Appends `samples` through batches of `SampleBatch.rowCapacity` rows (emptied and reused) and reads every
    /// row back; returns the first differences found.
    static func roundTripFailures(_ samples: [Sample]) -> [String] {
        var batch = SampleBatch(vocabulary: Vocabulary())
        var failures: [String] = []
        var index = 0
        while index < samples.count {
            batch.removeAll(keepingCapacity: true)
            let end = min(index + SampleBatch.rowCapacity, samples.count)
            for sample in samples[index..<end] { batch.append(sample) }
            for row in 0..<batch.rowCount where failures.count < 10 {
                let found = differences(batch.sample(at: row), samples[index + row])
                if !found.isEmpty {
                    failures.append("sample \(index + row) (line \(samples[index + row].line)): \(found)")
                }
            }
            index = end
        }
        return failures
    }

    static func generatedSamples(_ profile: ExportProfile) throws -> [Sample] {
        var options = GeneratorOptions(seed: 5, days: 3, profile: profile)
        options.scale = 0.3
        return try readAllItems(GeneratedExport.zip(options).path).items.allSamples
    }

    @Test(arguments: repositoryExports)
    func roundTripsTheRepositoryFixtures(_ path: String) throws {
        let samples = try readAllItems(path).items.allSamples
        #expect(samples.count > 10)
        #expect(Self.roundTripFailures(samples) == [])
    }

    @Test(arguments: ExportProfile.allCases)
    func roundTripsGeneratedExports(_ profile: ExportProfile) throws {
        let samples = try Self.generatedSamples(profile)
        #expect(samples.contains { !$0.metadata.isEmpty })
        if profile != .ios8 { #expect(samples.contains { !$0.beats.isEmpty }) }
        #expect(Self.roundTripFailures(samples) == [])
    }

    @Test(.enabled(if: realExportsArePresent, "../shared/fixtures/real is not present in this checkout"))
    func roundTripsTheRealFixtures() throws {
        for export in Self.realExports {
            let samples = try readAllItems(try #require(Fixtures.real(export))).items.allSamples
            #expect(!samples.isEmpty, "\(export)")
            #expect(Self.roundTripFailures(samples) == [], "\(export)")
        }
    }

    /// What the decoder never makes but the unit stage and odd inputs do: converted values, NaN payloads,
    /// absent and empty texts, a quantity's text value, beats with missing numbers, metadata numbers with units.
    @Test func roundTripsEveryOptionalField() {
        #expect(Self.roundTripFailures(EdgeSamples.all) == [])
    }

    /// The comparison itself tells apart what the round trip must keep apart.
    @Test func theComparisonSeesEveryDifference() {
        let base = EdgeSamples.all[0]
        var changes: [(String, (inout Sample) -> Void)] = [
            ("NaN payload", { $0.value = Double(nan: 7, signaling: false) }),
            ("nil value", { $0.value = nil }),
            ("-0.0", { $0.rawValue = -0.0 }),
            (
                "another source object",
                { $0.source = SampleSource(id: $0.source.id, name: $0.source.name, version: nil, device: nil) }
            ),
            ("decomposed text", { $0.textValue = "cafe\u{301}" }),
            ("offset", { $0.startDate?.offsetSeconds += 3600 }),
            ("metadata order", { $0.metadata.reverse() }),
            ("metadata number unit", { $0.metadata[0].numberUnit = nil }),
            ("beat time", { $0.beats[0].rawTime += " " }),
            ("beat seconds", { $0.beats[1].seconds = nil }),
            ("flags", { $0.flags.insert(.badDate) }),
            ("line", { $0.line += 1 }),
        ]
        changes.append(("empty unit", { $0.rawUnit = "" }))
        for (name, change) in changes {
            var changed = base
            change(&changed)
            #expect(!differences(changed, base).isEmpty, "\(name)")
        }
        #expect(differences(base, base).isEmpty)
    }

    /// Dropping rows keeps the others' rows whole (their metadata and beats with them) and every non-record
    /// item before the row it preceded.
    @Test func retainKeepsRowsTheirSideColumnsAndTheOthersInPlace() {
        let samples = EdgeSamples.all
        let summary = ExportItem.header(locale: "en_US", exportDate: nil)
        var batch = SampleBatch(vocabulary: Vocabulary())
        // others before row 0, before row 2 (twice), and after the last row.
        batch.append(summary)
        batch.append(samples[0])
        batch.append(samples[1])
        batch.append(summary)
        batch.append(summary)
        for sample in samples[2...] { batch.append(sample) }
        batch.append(summary)
        let count = samples.count
        batch.identity = (0..<count).map { Int64($0) * 11 }
        var keep = (0..<count).map { $0 % 2 == 1 }
        keep[0] = false
        batch.retain(keep)
        let kept = (0..<count).filter { keep[$0] }
        #expect(batch.rowCount == kept.count)
        for (row, original) in kept.enumerated() {
            #expect(differences(batch.sample(at: row), samples[original]) == [], "row \(row)")
            #expect(batch.identity[row] == Int64(original) * 11)
        }
        #expect(batch.metadataStart.count == kept.count + 1 && batch.beatStart.count == kept.count + 1)
        #expect(Int(batch.metadataStart.last!) == batch.metadataKey.count)
        #expect(Int(batch.beatStart.last!) == batch.beatBPM.count)
        #expect(batch.metadataKey.count == kept.map { samples[$0].metadata.count }.reduce(0, +))
        // Rows 0 and 2 are gone: the first item stays before row 0, the pair before old row 2 now precedes the
        // first kept row after it (old row 3 → row 1), the last stays after the last row.
        #expect(batch.others.map(\.beforeRow) == [0, 1, 1, Int32(kept.count)])

        batch.retain([Bool](repeating: true, count: batch.rowCount))
        #expect(batch.rowCount == kept.count)
        batch.retain([Bool](repeating: false, count: batch.rowCount))
        #expect(batch.rowCount == 0 && batch.metadataStart == [0] && batch.beatStart == [0])
        #expect(batch.metadataKey.isEmpty && batch.beatRawTime.isEmpty)
        #expect(batch.others.map(\.beforeRow) == [0, 0, 0, 0])
    }
}

/// Hand-made samples with every optional field set, unset and at its edges.
enum EdgeSamples {
    static let device = Device(description: "<<HKDevice: 0x2>, name:Apple Watch, manufacturer:Apple Inc., model:Watch>")
    static let watch = SampleSource(id: 1, name: "Apple Watch von Zoë", version: "10.1", device: device)
    static let app = SampleSource(id: 2, name: "Lose It!", version: nil, device: nil)
    static let empty = SampleSource(id: 3, name: "", version: "", device: nil)

    static let all: [Sample] = {
        var samples: [Sample] = []
        var converted = Sample(type: "HKQuantityTypeIdentifierBodyTemperature", source: watch, line: 10)
        converted.value = 37.05
        converted.unit = "degC"
        converted.rawValue = 98.69
        converted.rawUnit = "degF"
        converted.textValue = "not a number"
        converted.creationDate = Timestamp(seconds: 1_700_000_000, offsetSeconds: -18_000)
        converted.startDate = Timestamp(seconds: 1_699_999_000, offsetSeconds: 3600)
        converted.endDate = Timestamp(seconds: -5, offsetSeconds: 0)
        converted.metadata = [
            MetadataEntry(key: "HKMetadataKeyHeight", value: "418 cm", number: 4.18, numberUnit: "m"),
            MetadataEntry(key: "HKWasUserEntered", value: "1"),
            MetadataEntry(key: "Notiz", value: ""),
        ]
        converted.beats = [
            HeartbeatReading(bpm: 61, secondOfDay: 3600.5, seconds: 1_699_999_000.25, rawTime: "1:00:00.50 AM"),
            HeartbeatReading(bpm: nil, secondOfDay: nil, seconds: 0, rawTime: ""),
        ]
        converted.flags = [.unitNotConvertible, .badValue]
        samples.append(converted)

        var category = Sample(type: "HKCategoryTypeIdentifierSleepAnalysis", source: app, line: Int32.max)
        category.textValue = "HKCategoryValueSleepAnalysisAsleep"
        category.rawTextValue = "1"
        category.startDate = Timestamp(seconds: 0, offsetSeconds: 0)
        samples.append(category)

        var odd = Sample(type: "", source: empty, line: 0)
        odd.value = Double(nan: 3, signaling: true)
        odd.rawValue = -0.0
        odd.unit = ""
        odd.textValue = ""
        odd.rawTextValue = ""
        odd.flags = [.missingType, .missingSource, .missingStartDate, .missingEndDate]
        odd.metadata = [MetadataEntry(key: "clé", value: "cafe\u{301}"), MetadataEntry(key: "clé", value: "café")]
        samples.append(odd)

        for index in 0..<7 {
            var plain = Sample(
                type: "HKQuantityTypeIdentifierStepCount", source: index % 2 == 0 ? watch : app, line: Int32(20 + index)
            )
            plain.value = Double(index)
            plain.unit = "count"
            plain.startDate = Timestamp(seconds: Int64(index) * 60, offsetSeconds: 3600)
            plain.endDate = Timestamp(seconds: Int64(index) * 60 + 59, offsetSeconds: 3600)
            plain.metadata = (0..<(index % 3)).map { MetadataEntry(key: "k\($0)", value: "\(index) km") }
            plain.beats = (0..<(index % 4)).map { HeartbeatReading(bpm: Double($0), rawTime: "00:0\($0):00,00") }
            samples.append(plain)
        }
        return samples
    }()
}
