import HealthModel
import HealthSQLite
import HealthSchema

/// The metadata keys the sample writers read (the local day's zone, the user-entered flag, the sync key).
enum WriterMetadataKey: Int8, CaseIterable {
    case timeZone = 1, userEntered, syncIdentifier, syncVersion

    var name: String {
        switch self {
        case .timeZone: "HKTimeZone"
        case .userEntered: "HKWasUserEntered"
        case .syncIdentifier: SyncKey.identifierKey
        case .syncVersion: SyncKey.versionKey
        }
    }
}

/// A sample as the writers read it: a `Sample` (an item), or a batch's row read from its columns (`BatchRow`),
/// so that `SamplePolicy`, `SampleWriter` and `SampleRowWriter` keep one implementation of each decision for
/// both. The last two requirements are the writes that depend on the form: its metadata and its beats.
protocol SampleFields {
    var type: String { get }
    var source: SampleSource { get }
    var startDate: Timestamp? { get }
    var endDate: Timestamp? { get }
    var creationDate: Timestamp? { get }
    var flags: SampleFlags { get }
    var line: Int32 { get }
    var value: Double? { get }
    var rawValue: Double? { get }
    var unit: String? { get }
    /// The unit as exported, where it is not `unit` (compared as `String`s).
    var rawUnitOtherThanUnit: String? { get }
    /// A category's value, or a free text.
    var textValue: String? { get }
    var rawTextValue: String? { get }
    /// Binds `textValue` (NULL when there is none), without a `String` where the form can.
    func bindTextValue(_ statement: SQLiteStatement, _ index: Int32)
    /// The value of the first metadata entry with `key` (compared as `String`s, as the `Sample` form does).
    func metadataValue(_ key: WriterMetadataKey) -> String?
    /// Whether some entry with `key` has `value`.
    func hasMetadata(_ key: WriterMetadataKey, value: String) -> Bool
    /// The sample as a `Sample`: the feed's merge rule reads one (feed runs write items, so a row is made
    /// into one only there).
    var asSample: Sample { get }

    func writeMetadata(_ common: CommonRows, parent: MetadataParent, id: Int64, into report: inout WriteReport) throws
    /// Writes the beats of sample `sampleID`; returns how many.
    func writeBeats(_ beats: BeatWriter, sampleID: Int64) throws -> Int
}

extension Array where Element == MetadataEntry {
    /// The value of the first entry with `key`.
    @inline(__always) func firstValue(_ key: WriterMetadataKey) -> String? {
        isEmpty ? nil : first { $0.key == key.name }?.value
    }
}

extension Sample: SampleFields {
    func metadataValue(_ key: WriterMetadataKey) -> String? { metadata.firstValue(key) }

    func hasMetadata(_ key: WriterMetadataKey, value: String) -> Bool {
        !metadata.isEmpty && metadata.contains { $0.key == key.name && $0.value == value }
    }

    var asSample: Sample { self }

    var rawUnitOtherThanUnit: String? { rawUnit.flatMap { $0 != unit ? $0 : nil } }

    func bindTextValue(_ statement: SQLiteStatement, _ index: Int32) { statement.bind(index, textValue) }

    func writeMetadata(_ common: CommonRows, parent: MetadataParent, id: Int64, into report: inout WriteReport) throws {
        try common.writeMetadata(metadata, parent: parent, id: id, into: &report)
    }

    func writeBeats(_ beats: BeatWriter, sampleID: Int64) throws -> Int {
        guard !self.beats.isEmpty else { return 0 }
        try beats.write(self.beats, sampleID: sampleID)
        return self.beats.count
    }
}
