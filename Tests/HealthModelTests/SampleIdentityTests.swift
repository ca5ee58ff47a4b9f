import Foundation
import Testing

@testable import HealthModel

struct SampleIdentityTests {
    func sample(value: Double = 5, address: String = "0x1", metadata: [MetadataEntry] = []) -> Sample {
        let device = Device(description: "<<HKDevice: \(address)>, name:iPhone, model:iPhone>")
        var sample = Sample(
            type: "HKQuantityTypeIdentifierStepCount",
            source: SampleSource(id: 1, name: "Phone", version: "17.1", device: device), line: 1)
        sample.value = value
        sample.unit = "count"
        sample.startDate = Timestamp.parse("2024-02-01 08:00:00 +0100")
        sample.endDate = Timestamp.parse("2024-02-01 08:05:00 +0100")
        sample.metadata = metadata
        return sample
    }

    @Test func isTheSameForTheSameSampleWhateverTheDeviceAddressAndMetadataOrder() {
        let a = sample(address: "0x1", metadata: [.init(key: "a", value: "1"), .init(key: "b", value: "2")])
        let b = sample(address: "0xffff", metadata: [.init(key: "b", value: "2"), .init(key: "a", value: "1")])
        #expect(SampleIdentity.fingerprint(a) == SampleIdentity.fingerprint(b))
        #expect(SampleIdentity.fingerprint(a) != SampleIdentity.fingerprint(sample(value: 6)))
    }

    /// The same instant written in another offset (a re-export in another season) has the same identity.
    @Test func survivesAReexportInAnotherOffset() {
        var winter = sample()
        var summer = sample()
        summer.startDate = Timestamp.parse("2024-02-01 09:00:00 +0200")
        summer.endDate = Timestamp.parse("2024-02-01 09:05:00 +0200")
        #expect(SampleIdentity.fingerprint(winter) == SampleIdentity.fingerprint(summer))
        winter.startDate = Timestamp.parse("2024-02-01 08:00:01 +0100")
        #expect(SampleIdentity.fingerprint(winter) != SampleIdentity.fingerprint(summer))
    }

    /// Pinned so a change of the hash (which would break incremental imports of existing databases) is noticed.
    @Test func isStableAcrossRunsAndMachines() {
        var hasher = StableHasher()
        hasher.combine("HKQuantityTypeIdentifierStepCount")
        hasher.combine(Int64(1_706_770_800))
        #expect(hasher.finish() == hasher.finish())
        var again = StableHasher()
        again.combine("HKQuantityTypeIdentifierStepCount")
        again.combine(Int64(1_706_770_800))
        #expect(again.finish() == hasher.finish())
        #expect(SampleIdentity.fingerprint(sample()) == Self.pinnedFingerprint)
    }

    static let pinnedFingerprint: Int64 = 2_779_325_208_050_142_997
}
