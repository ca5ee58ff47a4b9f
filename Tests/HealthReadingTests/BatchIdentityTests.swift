import Foundation
import HealthTestSupport
import Testing

@testable import HealthModel
@testable import SampleExports

/// `SampleIdentity.fingerprint(batch, row:)` is the stored identity of every database: it must equal the
/// `Sample` form's on every row, to the bit.
struct BatchIdentityTests {
    /// Fingerprints every sample both ways through reused batches (the columns' form per row and by the
    /// identity pass); the first rows where they differ.
    static func mismatches(_ samples: [Sample]) -> [String] {
        var batch = SampleBatch(vocabulary: Vocabulary())
        var found: [String] = []
        var index = 0
        while index < samples.count {
            batch.removeAll(keepingCapacity: true)
            let end = min(index + SampleBatch.rowCapacity, samples.count)
            for sample in samples[index..<end] { batch.append(sample) }
            SampleIdentity.fillIdentity(&batch)
            for row in 0..<batch.rowCount where found.count < 10 {
                let byColumns = SampleIdentity.fingerprint(batch, row: row)
                let bySample = SampleIdentity.fingerprint(samples[index + row])
                if byColumns != bySample || batch.identity[row] != bySample {
                    found.append(
                        "line \(samples[index + row].line): \(byColumns), pass \(batch.identity[row]) ≠ \(bySample)")
                }
            }
            index = end
        }
        return found
    }

    @Test(arguments: SampleBatchTests.repositoryExports)
    func equalsTheSampleFormOnTheRepositoryFixtures(_ path: String) throws {
        #expect(Self.mismatches(try readAllItems(path).items.allSamples) == [])
    }

    @Test(arguments: ExportProfile.allCases)
    func equalsTheSampleFormOnGeneratedExports(_ profile: ExportProfile) throws {
        #expect(Self.mismatches(try SampleBatchTests.generatedSamples(profile)) == [])
    }

    @Test(
        .enabled(if: SampleBatchTests.realExportsArePresent, "../shared/fixtures/real is not present in this checkout"))
    func equalsTheSampleFormOnTheRealFixtures() throws {
        for export in SampleBatchTests.realExports {
            let samples = try readAllItems(try #require(Fixtures.real(export))).items.allSamples
            #expect(Self.mismatches(samples) == [], "\(export)")
        }
    }

    /// `generate-export --seed 7 --target-mb 20`: the export of the profiles in docs/batches.md.
    @Test func equalsTheSampleFormOnAGenerated20MBExport() throws {
        var options = GeneratorOptions(seed: 7, days: 30)
        options.targetXMLBytes = 20 * 1_048_576
        let samples = try readAllItems(GeneratedExport.zip(options).path).items.allSamples
        #expect(samples.count > 40_000)
        #expect(samples.contains { $0.metadata.count > 1 })
        #expect(Self.mismatches(samples) == [])
    }

    /// Several metadata entries are sorted before hashing. Where bytes and `String` comparison order them
    /// differently (a decomposed accent, canonically equal keys), the columns must still sort as `String`s do.
    @Test func sortsNonASCIIMetadataAsStringsDo() {
        // U+0065 U+0301 (bytes 65 CC 81) sorts before U+00E9 (C3 A9) by bytes, but as "é" among Strings:
        // "e\u{301}x" ≡ "éx" comes after "éa".
        #expect("e\u{301}x" > "\u{E9}a")
        #expect(Array("e\u{301}x".utf8).lexicographicallyPrecedes(Array("\u{E9}a".utf8)))
        let keySets: [[(String, String)]] = [
            [("e\u{301}x", "1"), ("\u{E9}a", "2")],
            [("\u{E9}a", "2"), ("e\u{301}x", "1")],
            [("caf\u{E9}", "b"), ("cafe\u{301}", "a"), ("cafe", "c")],
            [("Zeit", "ü"), ("Zeit", "u\u{308}"), ("Zeit", "v")],
            [("HKMetadataKeyTimeZone", "Europe/Berlin"), ("Ω", "1"), ("\u{212B}ngström", "2"), ("Ångström", "3")],
            [("b", "1"), ("a", "2"), ("a", "1"), ("ab", ""), ("", "x")],
        ]
        let source = SampleSource(id: 1, name: "Zoë's Watch", version: "10.1", device: nil)
        let samples = keySets.enumerated().map { index, pairs in
            var sample = Sample(type: "HKQuantityTypeIdentifierStepCount", source: source, line: Int32(index))
            sample.value = 1
            sample.unit = "count"
            sample.metadata = pairs.map { MetadataEntry(key: $0.0, value: $0.1) }
            return sample
        }
        #expect(Self.mismatches(samples) == [])
        #expect(Self.mismatches(EdgeSamples.all) == [])
    }

    /// The test above can fail: rows that differ in one field, or only in the byte order of two accents,
    /// differ in their fingerprints.
    @Test func differsWhenOneFieldDiffers() {
        var batch = SampleBatch(vocabulary: Vocabulary())
        var sample = EdgeSamples.all[3]
        batch.append(sample)
        sample.value = sample.value!.nextUp
        batch.append(sample)
        sample.metadata.append(MetadataEntry(key: "caf\u{E9}", value: "1"))
        batch.append(sample)
        sample.metadata[sample.metadata.count - 1].key = "cafe\u{301}"
        batch.append(sample)
        let fingerprints = (0..<batch.rowCount).map { SampleIdentity.fingerprint(batch, row: $0) }
        #expect(Set(fingerprints).count == fingerprints.count)
    }
}
