/// The names a run's batches refer to by number: one per import, append-only, so an id given once means the
/// same text in every later batch.
///
/// A value (copy-on-write arrays): the decoder grows its own copy, and each batch it hands on carries a copy as of
/// its last row, so the writing thread reads names while the decoder adds new ones without sharing anything that
/// changes. A copy costs a few retains; the arrays are copied only when a name is added while an older batch is
/// still alive (rare: names repeat).
///
/// Types, units, category values and metadata keys are `InternedTexts` (ids in order of first appearance).
/// Sources are the decoder's shared `SampleSource` objects, registered under their own `id`: that id is
/// given by `SourceInterner` in order of first appearance (by name, version and device key) and stored by
/// the sinks as a row id, so the vocabulary takes it as it is instead of numbering sources a second time;
/// a batch's source column therefore holds `SampleSource.id` itself.
package struct Vocabulary: Sendable {
    package var types = InternedTexts()
    package var units = InternedTexts()
    /// Category values (`HKCategoryValueSleepAnalysisAsleepCore`): a few per type.
    package var texts = InternedTexts()
    package var keys = InternedTexts()

    /// The texts a source is hashed by (`SampleIdentity`): its name, version and device key ("" for none).
    package struct SourceTexts: Sendable {
        package var name: UInt32
        package var version: UInt32
        package var deviceKey: UInt32
    }

    /// Registered sources by `SampleSource.id` (nil: no source has that id).
    private var sources: [SampleSource?] = []
    private var sourceHashTexts: [SourceTexts] = []
    /// Where the source texts are interned (apart from `texts`: names and devices are not category values).
    package private(set) var sourceStrings = InternedTexts()
    private var lastSource: SampleSource?

    package init() {}

    /// The id a batch stores for `source`: its `id`, registered on first sight. One vocabulary serves one
    /// import, whose sources come from one id giver (the decoder's `SourceInterner`, or a feed reader), so
    /// two objects never claim one id; if they did, rows could not be turned back into their `Sample`s.
    package mutating func id(of source: SampleSource) -> UInt32 {
        if let lastSource, lastSource === source { return UInt32(source.id) }
        let id = source.id
        precondition(id >= 0 && id < Int(UInt32.max), "source id \(id) out of range")
        if id >= sources.count {
            sources.append(contentsOf: repeatElement(nil, count: id + 1 - sources.count))
            sourceHashTexts.append(
                contentsOf: repeatElement(
                    SourceTexts(name: 0, version: 0, deviceKey: 0), count: id + 1 - sourceHashTexts.count))
        }
        if let known = sources[id] {
            precondition(known === source, "two sources with id \(id) in one vocabulary")
        } else {
            sources[id] = source
            sourceHashTexts[id] = SourceTexts(
                name: sourceStrings.id(source.name), version: sourceStrings.id(source.version ?? ""),
                deviceKey: sourceStrings.id(source.device?.key ?? ""))
        }
        lastSource = source
        return UInt32(id)
    }

    /// The source registered under `id`.
    package func source(_ id: UInt32) -> SampleSource {
        // swift-format-ignore: NeverForceUnwrap
        sources[Int(id)]!
    }

    /// The interned texts (in `sourceStrings`) that `SampleIdentity` hashes for source `id`.
    package func sourceTexts(_ id: UInt32) -> SourceTexts { sourceHashTexts[Int(id)] }

    /// `sourceTexts` of every id (unregistered ids: zeros), for a pass over a batch.
    package var allSourceTexts: [SourceTexts] { sourceHashTexts }
}
