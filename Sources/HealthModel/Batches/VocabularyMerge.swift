/// Batches decoded with a vocabulary of their own (one per parse, as `--threads N`'s workers decode the export's
/// chunks) turned into batches of the run's one vocabulary: each name the parse gave an id is interned into the
/// run's vocabulary once, and the batch's id columns are rewritten through the tables that gives.
///
/// Batches come in export order, so the run's ids are given in order of first appearance in the export, as one
/// decoder would have given them. Sources are numbered by the caller (their ids are the sinks' row ids and follow
/// rules of their own: `SourceRenumbering`); it passes each parse-local id's global source.
package struct VocabularyMerge {
    // Parse-local id → run id, index 0 (none) → 0. Grown as the parse's vocabulary grows.
    private var types: [UInt32] = [0]
    private var units: [UInt32] = [0]
    private var texts: [UInt32] = [0]
    private var keys: [UInt32] = [0]
    private var sources: [UInt32] = [0]

    package init() {}

    /// A new parse begins: its ids start again from 1.
    package mutating func beginParse() {
        types = [0]
        units = [0]
        texts = [0]
        keys = [0]
        sources = [0]
    }

    /// The parse's source `localID` is the run's `source` (registered in `vocabulary`).
    package mutating func add(source localID: Int, as source: SampleSource, in vocabulary: inout Vocabulary) {
        if localID >= sources.count { sources += repeatElement(0, count: localID + 1 - sources.count) }
        sources[localID] = vocabulary.id(of: source)
    }

    /// Rewrites `batch`'s ids (its rows' and metadata entries' names and sources) from the parse's vocabulary,
    /// which the batch carries, to `vocabulary`'s, and gives the batch a copy of `vocabulary`. Its other items
    /// hold names as text and are left to the caller (their sources).
    package mutating func merge(_ batch: inout SampleBatch, into vocabulary: inout Vocabulary) {
        let local = batch.vocabulary
        Self.extend(&types, from: local.types, into: &vocabulary.types)
        Self.extend(&units, from: local.units, into: &vocabulary.units)
        Self.extend(&texts, from: local.texts, into: &vocabulary.texts)
        Self.extend(&keys, from: local.keys, into: &vocabulary.keys)
        Self.map(&batch.type, types)
        Self.map(&batch.unit, units)
        Self.map(&batch.rawUnit, units)
        Self.map(&batch.text, texts)
        Self.map(&batch.metadataKey, keys)
        Self.map(&batch.metadataUnit, units)
        Self.map(&batch.source, sources)
        batch.vocabulary = vocabulary
    }

    /// Interns the parse's texts past those `table` maps, in their id order (their order of first appearance).
    private static func extend(_ table: inout [UInt32], from local: InternedTexts, into run: inout InternedTexts) {
        guard table.count <= local.count else { return }
        for id in UInt32(table.count)...UInt32(local.count) { table.append(run.id(local.string(id))) }
    }

    private static func map(_ column: inout [UInt32], _ table: [UInt32]) {
        table.withUnsafeBufferPointer { table in
            column.withUnsafeMutableBufferPointer { column in
                for index in column.indices {
                    precondition(Int(column[index]) < table.count, "an id the parse's vocabulary did not give")
                    column[index] = table[Int(column[index])]
                }
            }
        }
    }
}
