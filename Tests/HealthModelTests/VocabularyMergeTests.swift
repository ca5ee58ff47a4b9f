import Testing

@testable import HealthModel

/// Batches decoded by two parses, each with a vocabulary of its own (as `--threads N`'s workers decode), merged in
/// export order into one run's vocabulary: the same rows as one decoder's, ids in order of first appearance.
struct VocabularyMergeTests {
    static func sample(
        _ type: String, _ source: SampleSource, unit: String? = nil, value: Double? = nil, text: String? = nil,
        metadata: [MetadataEntry] = []
    ) -> Sample {
        var sample = Sample(type: type, source: source, line: 7)
        sample.unit = unit
        sample.value = value
        sample.textValue = text
        sample.metadata = metadata
        return sample
    }

    /// Every field the merge rewrites, as text, with the source by name.
    static func describe(_ sample: Sample) -> String {
        let metadata = sample.metadata.map { "\($0.key)=\($0.value)|\($0.number ?? -1)|\($0.numberUnit ?? "-")" }
        return "\(sample.type) \(sample.source.name)#\(sample.source.id) \(sample.unit ?? "-") \(sample.value ?? -1) "
            + "\(sample.textValue ?? "-") [\(metadata.joined(separator: ","))]"
    }

    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let mass = "HKQuantityTypeIdentifierBodyMass"

    @Test func twoParsesMergeIntoTheRunsIds() {
        // The run's sources, numbered as `SourceRenumbering` numbers them (first met, first numbered).
        let phone = SampleSource(id: 1, name: "Phone", version: "17.1", device: nil)
        let watch = SampleSource(id: 2, name: "Watch", version: nil, device: nil)
        // Parse A meets the phone, then the watch; parse B the watch first: its local ids differ from the run's.
        let phoneA = SampleSource(id: 1, name: "Phone", version: "17.1", device: nil)
        let watchA = SampleSource(id: 2, name: "Watch", version: nil, device: nil)
        let watchB = SampleSource(id: 1, name: "Watch", version: nil, device: nil)
        let phoneB = SampleSource(id: 2, name: "Phone", version: "17.1", device: nil)
        let entered = MetadataEntry(key: "HKWasUserEntered", value: "1")
        let weighed = MetadataEntry(key: "HKMetadataKeyScale", value: "72 kg", number: 72, numberUnit: "kg")
        let samplesA = [
            Self.sample(Self.steps, phoneA, unit: "count", value: 12, metadata: [entered]),
            Self.sample(Self.sleep, watchA, text: "HKCategoryValueSleepAnalysisAsleepCore"),
        ]
        let samplesB = [
            Self.sample(Self.mass, watchB, unit: "kg", value: 72, metadata: [weighed, entered]),
            Self.sample(Self.sleep, phoneB, text: "HKCategoryValueSleepAnalysisAwake"),
            Self.sample(Self.steps, phoneB, unit: "count", value: 3),
        ]
        var a = SampleBatch(vocabulary: Vocabulary())
        for sample in samplesA { a.append(sample) }
        var b = SampleBatch(vocabulary: Vocabulary())
        for sample in samplesB { b.append(sample) }
        #expect(b.type == [1, 2, 3] && b.source == [1, 2, 2])
        let parseB = b.vocabulary

        var run = Vocabulary()
        var merge = VocabularyMerge()
        merge.add(source: 1, as: phone, in: &run)
        merge.add(source: 2, as: watch, in: &run)
        merge.merge(&a, into: &run)
        merge.beginParse()
        merge.add(source: 1, as: watch, in: &run)
        merge.add(source: 2, as: phone, in: &run)
        merge.merge(&b, into: &run)

        #expect(a.type == [1, 2] && b.type == [3, 2, 1])
        #expect(a.source == [1, 2] && b.source == [2, 1, 1])
        #expect((1...3).map { run.types.string(UInt32($0)) } == [Self.steps, Self.sleep, Self.mass])
        #expect(run.keys.count == 2 && run.keys.string(1) == "HKWasUserEntered")
        #expect(run.units.string(b.unit[0]) == "kg" && b.metadataUnit == [b.unit[0], 0])
        #expect(run.texts.string(b.text[1]) == "HKCategoryValueSleepAnalysisAwake")
        // A later batch of the same parse carries the parse's vocabulary, grown: it maps through the tables the
        // parse has so far, and grows them.
        var c = SampleBatch(vocabulary: parseB)
        c.append(Self.sample("HKQuantityTypeIdentifierHeartRate", watchB, unit: "count/min", value: 60))
        c.append(Self.sample(Self.mass, watchB, unit: "kg", value: 71))
        merge.merge(&c, into: &run)
        #expect(c.type == [4, 3] && c.source == [2, 2] && run.types.count == 4)

        // The rows read back are the samples, with the run's sources.
        let expected = (samplesA + samplesB).map { sample -> String in
            var sample = sample
            sample.source = sample.source.name == "Phone" ? phone : watch
            return Self.describe(sample)
        }
        let merged = (0..<a.rowCount).map { a.sample(at: $0) } + (0..<b.rowCount).map { b.sample(at: $0) }
        #expect(merged.map(Self.describe) == expected)
        #expect(merged.allSatisfy { $0.source === phone || $0.source === watch })
    }
}
