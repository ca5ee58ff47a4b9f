/// Top-level `Record`s as columns: one row per record, the same field in one array for every row, names as
/// `Vocabulary` ids, instants as integers, texts that are not names in one byte arena. A batch is filled,
/// handed on and emptied with its capacity kept (`removeAll(keepingCapacity:)`), so that a run in its steady
/// state allocates nothing per record (docs/batches.md, section 2).
///
/// Metadata entries and HRV beats are side columns indexed by row (CSR): row `i`'s entries are
/// `metadataStart[i]..<metadataStart[i + 1]`, its beats `beatStart[i]..<beatStart[i + 1]`. Every item that is
/// not a top-level record lies in `others`, placed before the row it preceded in the document.
public struct SampleBatch: Sendable {
    /// Which of a row's optional fields are there (their columns hold 0 otherwise).
    package struct Presence: OptionSet, Sendable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let creation = Presence(rawValue: 1 << 0)
        package static let start = Presence(rawValue: 1 << 1)
        package static let end = Presence(rawValue: 1 << 2)
        package static let value = Presence(rawValue: 1 << 3)
        /// `rawValue` holds the value as exported (the flag cannot be called `rawValue`: `OptionSet`'s own).
        package static let rawNumber = Presence(rawValue: 1 << 4)
        /// `text` holds a category value's id in `vocabulary.texts`.
        package static let text = Presence(rawValue: 1 << 5)
        /// `freeText` holds the text of a record that is not a category (a quantity's value that is not a
        /// number): such texts are as many as their records, so they are not interned.
        package static let freeText = Presence(rawValue: 1 << 6)
        package static let rawText = Presence(rawValue: 1 << 7)
    }

    /// Which of a beat's optional numbers are there.
    package struct BeatPresence: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        package static let bpm = BeatPresence(rawValue: 1 << 0)
        package static let secondOfDay = BeatPresence(rawValue: 1 << 1)
        package static let seconds = BeatPresence(rawValue: 1 << 2)
    }

    /// Rows in a full batch of rows without entries (`fullWeight`).
    package static let rowCapacity = fullWeight

    /// The names the rows refer to, as of the batch's last row (the filler's copy: `append(Sample)` interns here).
    package var vocabulary: Vocabulary

    // Row columns. Ids are `UInt32`: a crafted export may name more than 65,535 types or units.
    package internal(set) var type: [UInt32] = []
    /// `SampleSource.id` (see `Vocabulary.id(of:)`).
    package internal(set) var source: [UInt32] = []
    /// Ids in `vocabulary.units`; 0: none.
    package var unit: [UInt32] = []
    package var rawUnit: [UInt32] = []
    package internal(set) var creation: [Int64] = []
    package internal(set) var creationOffset: [Int32] = []
    package internal(set) var start: [Int64] = []
    package internal(set) var startOffset: [Int32] = []
    package internal(set) var end: [Int64] = []
    package internal(set) var endOffset: [Int32] = []
    package var value: [Double] = []
    package var rawValue: [Double] = []
    package internal(set) var text: [UInt32] = []
    package internal(set) var freeText: [ArenaSpan] = []
    package internal(set) var rawText: [ArenaSpan] = []
    package var presence: [Presence] = []
    package var flags: [UInt16] = []
    package internal(set) var line: [Int32] = []
    /// `SampleIdentity.fingerprint`, filled by the identity pass (0 until then).
    package var identity: [Int64] = []

    // Metadata entries, by row.
    package internal(set) var metadataStart: [UInt32] = [0]
    package internal(set) var metadataKey: [UInt32] = []
    package internal(set) var metadataValue: [ArenaSpan] = []
    package var metadataNumber: [Double] = []
    package internal(set) var metadataHasNumber: [Bool] = []
    /// Ids in `vocabulary.units`; 0: none.
    package var metadataUnit: [UInt32] = []

    // HRV beats, by row.
    package internal(set) var beatStart: [UInt32] = [0]
    package internal(set) var beatBPM: [Double] = []
    package internal(set) var beatSecondOfDay: [Double] = []
    package internal(set) var beatSeconds: [Double] = []
    package internal(set) var beatPresence: [BeatPresence] = []
    package internal(set) var beatRawTime: [ArenaSpan] = []

    /// The bytes of the texts that are not interned (free texts, raw texts, metadata values, beat times).
    package internal(set) var arena: [UInt8] = []

    /// The items that are not top-level records, in document order; `beforeRow` is the row each preceded
    /// (`rowCount` for the ones after the last row).
    package internal(set) var others: [(beforeRow: Int32, item: ExportItem)] = []

    package init(vocabulary: Vocabulary) {
        self.vocabulary = vocabulary
    }

    package var rowCount: Int { type.count }

    /// The arena's `span` as a `String` (for the `Sample` form).
    package func string(_ span: ArenaSpan) -> String {
        withBytes(span) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the arena's `span`.
    package func withBytes<Result>(_ span: ArenaSpan, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = Int(span.offset)..<Int(span.offset + span.count)
        return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Empties the batch for its next use; the vocabulary stays (its ids hold for the whole import).
    package mutating func removeAll(keepingCapacity: Bool = true) {
        type.removeAll(keepingCapacity: keepingCapacity)
        source.removeAll(keepingCapacity: keepingCapacity)
        unit.removeAll(keepingCapacity: keepingCapacity)
        rawUnit.removeAll(keepingCapacity: keepingCapacity)
        creation.removeAll(keepingCapacity: keepingCapacity)
        creationOffset.removeAll(keepingCapacity: keepingCapacity)
        start.removeAll(keepingCapacity: keepingCapacity)
        startOffset.removeAll(keepingCapacity: keepingCapacity)
        end.removeAll(keepingCapacity: keepingCapacity)
        endOffset.removeAll(keepingCapacity: keepingCapacity)
        value.removeAll(keepingCapacity: keepingCapacity)
        rawValue.removeAll(keepingCapacity: keepingCapacity)
        text.removeAll(keepingCapacity: keepingCapacity)
        freeText.removeAll(keepingCapacity: keepingCapacity)
        rawText.removeAll(keepingCapacity: keepingCapacity)
        presence.removeAll(keepingCapacity: keepingCapacity)
        flags.removeAll(keepingCapacity: keepingCapacity)
        line.removeAll(keepingCapacity: keepingCapacity)
        identity.removeAll(keepingCapacity: keepingCapacity)
        metadataStart.removeAll(keepingCapacity: keepingCapacity)
        metadataStart.append(0)
        metadataKey.removeAll(keepingCapacity: keepingCapacity)
        metadataValue.removeAll(keepingCapacity: keepingCapacity)
        metadataNumber.removeAll(keepingCapacity: keepingCapacity)
        metadataHasNumber.removeAll(keepingCapacity: keepingCapacity)
        metadataUnit.removeAll(keepingCapacity: keepingCapacity)
        beatStart.removeAll(keepingCapacity: keepingCapacity)
        beatStart.append(0)
        beatBPM.removeAll(keepingCapacity: keepingCapacity)
        beatSecondOfDay.removeAll(keepingCapacity: keepingCapacity)
        beatSeconds.removeAll(keepingCapacity: keepingCapacity)
        beatPresence.removeAll(keepingCapacity: keepingCapacity)
        beatRawTime.removeAll(keepingCapacity: keepingCapacity)
        arena.removeAll(keepingCapacity: keepingCapacity)
        others.removeAll(keepingCapacity: keepingCapacity)
    }
}

/// Bytes of a batch's arena.
package struct ArenaSpan: Equatable, Sendable {
    package var offset: UInt32
    package var count: UInt32

    package init(offset: UInt32, count: UInt32) {
        self.offset = offset
        self.count = count
    }

    package static let empty = ArenaSpan(offset: 0, count: 0)
}
