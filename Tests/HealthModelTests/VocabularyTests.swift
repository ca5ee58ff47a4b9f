import Testing

@testable import HealthModel

struct VocabularyTests {
    @Test func givesIdsInOrderOfFirstAppearance() {
        var texts = InternedTexts()
        let ids = ["count", "km", "count", "", "kcal", "km", "", "é"].map { texts.id($0) }
        #expect(ids == [1, 2, 1, 3, 4, 2, 3, 5])
        #expect(texts.count == 5)
        #expect((1...5).map { texts.string(UInt32($0)) } == ["count", "km", "", "kcal", "é"])
        #expect(texts.isASCII(1) && texts.isASCII(3) && !texts.isASCII(5))
    }

    /// Bytes and `String`s reach the same id; a text's bytes are its `String`'s UTF-8.
    @Test func findsTextsByTheirBytesWithoutAddingThem() {
        var texts = InternedTexts()
        let id = texts.id("HKQuantityTypeIdentifierStepCount")
        let bytes = Array("HKQuantityTypeIdentifierStepCount".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(texts.find(buffer) == id)
            #expect(texts.id(buffer) == id)
        }
        Array("HKQuantityTypeIdentifierStepCoun".utf8).withUnsafeBufferPointer { #expect(texts.find($0) == nil) }
        #expect(texts.count == 1)
        let newID = Array("mmol<180.1558800000541>/L".utf8).withUnsafeBufferPointer { texts.id($0) }
        #expect(newID == 2 && texts.string(newID) == "mmol<180.1558800000541>/L")
        #expect(texts.withBytes(id) { Array($0) } == bytes)
    }

    /// Canonically equivalent texts with other bytes are other texts: identities hash bytes.
    @Test func keepsCanonicallyEquivalentTextsApart() {
        var texts = InternedTexts()
        let composed = texts.id("caf\u{E9}")
        let decomposed = texts.id("cafe\u{301}")
        #expect(composed != decomposed)
        #expect(texts.withBytes(decomposed) { Array($0) } == Array("cafe\u{301}".utf8))
    }

    /// Past the first table size (64 slots) every text is still found under its id.
    @Test func findsEveryTextAfterGrowing() {
        var texts = InternedTexts()
        let names = (0..<5000).map { "HKMetadataKey\($0)" }
        let ids = names.map { texts.id($0) }
        #expect(ids == (1...5000).map { UInt32($0) })
        for (index, name) in names.enumerated() {
            let found = Array(name.utf8).withUnsafeBufferPointer { texts.find($0) }
            #expect(found == ids[index])
        }
        #expect(texts.count == 5000)
    }

    /// A vocabulary outlives its batches: ids given to one batch mean the same in the next, also after the
    /// batch is emptied for reuse. A value: each batch starts from the names of the one before (as a reader
    /// hands them on).
    @Test func idsHoldAcrossBatches() {
        let vocabulary = Vocabulary()
        let phone = SampleSource(id: 1, name: "Phone", version: "17.1", device: nil)
        let watch = SampleSource(id: 2, name: "Watch", version: nil, device: nil)
        func sample(_ type: String, _ source: SampleSource, _ unit: String) -> Sample {
            var sample = Sample(type: type, source: source, line: 1)
            sample.unit = unit
            return sample
        }
        var first = SampleBatch(vocabulary: vocabulary)
        first.append(sample("HKQuantityTypeIdentifierStepCount", phone, "count"))
        first.append(sample("HKQuantityTypeIdentifierHeartRate", watch, "count/min"))
        var second = SampleBatch(vocabulary: first.vocabulary)
        second.append(sample("HKQuantityTypeIdentifierHeartRate", watch, "count/min"))
        second.append(sample("HKQuantityTypeIdentifierBodyMass", phone, "kg"))
        second.append(sample("HKQuantityTypeIdentifierStepCount", phone, "count"))
        #expect(first.type == [1, 2] && second.type == [2, 3, 1])
        #expect(first.unit == [1, 2] && second.unit == [2, 3, 1])
        #expect(first.source == [1, 2] && second.source == [2, 1, 1])
        first.removeAll(keepingCapacity: true)
        first.vocabulary = second.vocabulary
        first.append(sample("HKQuantityTypeIdentifierBodyMass", watch, "kg"))
        #expect(first.type == [3] && first.unit == [3] && first.source == [2])
        #expect(first.rowCount == 1 && first.metadataStart == [0, 0] && first.beatStart == [0, 0])
        #expect(first.vocabulary.source(1) === phone && first.vocabulary.source(2) === watch)
    }

    /// Sources keep the id their interner gave them (a sink's row id), whatever order a batch meets them in.
    @Test func sourcesAreRegisteredUnderTheirOwnIds() {
        var vocabulary = Vocabulary()
        let device = Device(description: "<<HKDevice: 0x1>, name:Apple Watch, model:Watch>")
        let third = SampleSource(id: 3, name: "Watch", version: "10.1", device: device)
        let first = SampleSource(id: 1, name: "Phone", version: nil, device: nil)
        #expect(vocabulary.id(of: third) == 3)
        #expect(vocabulary.id(of: first) == 1)
        #expect(vocabulary.id(of: third) == 3)
        #expect(vocabulary.source(3) === third)
        let texts = vocabulary.sourceTexts(3)
        #expect(vocabulary.sourceStrings.string(texts.name) == "Watch")
        #expect(vocabulary.sourceStrings.string(texts.version) == "10.1")
        #expect(vocabulary.sourceStrings.string(texts.deviceKey) == device.key)
        #expect(vocabulary.sourceStrings.string(vocabulary.sourceTexts(1).version) == "")
    }

    /// The byte form of `StableHasher.combine` mixes what the `String` form mixes, for every length around the
    /// eight-byte words and for texts that are not ASCII.
    @Test func hashingBytesEqualsHashingTheirString() {
        var texts = ["", "é", "cafe\u{301}", "🫀 heart", String(repeating: "x", count: 17)]
        texts += (0...24).map { String(repeating: "a", count: $0) }
        for text in texts {
            var byString = StableHasher()
            byString.combine(text)
            var byBytes = StableHasher()
            if text.isEmpty {
                byBytes.combine("")
            } else {
                Array(text.utf8).withUnsafeBufferPointer { byBytes.combine(utf8: $0) }
            }
            #expect(byString.finish() == byBytes.finish(), "\(text.debugDescription)")
        }
    }
}
