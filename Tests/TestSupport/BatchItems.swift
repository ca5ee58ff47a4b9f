import HealthModel

/// Item lists as batches and back, for tests that run a stage or the queue through both forms.
extension SampleBatch {
    /// `items` in order: samples as rows, the rest in `others`. A batch registers sources by id, and tests make a
    /// new `SampleSource` object per sample, often with one id: each distinct object gets an id of its own here
    /// (same name, version and device), so only the rows' sources are other objects than the items'.
    package static func of(_ items: [ExportItem]) -> SampleBatch {
        var batch = SampleBatch(vocabulary: Vocabulary())
        var sources: [ObjectIdentifier: SampleSource] = [:]
        for item in items {
            guard case .sample(var sample) = item else {
                batch.append(item)
                continue
            }
            let original = sample.source
            let source =
                sources[ObjectIdentifier(original)]
                ?? SampleSource(
                    id: sources.count + 1, name: original.name, version: original.version, device: original.device)
            sources[ObjectIdentifier(original)] = source
            sample.source = source
            batch.append(sample)
        }
        return batch
    }

    /// The rows (as `Sample`s) and other items, in document order.
    package var items: [ExportItem] {
        var copy = self
        var cursor = BatchItemCursor()
        var items: [ExportItem] = []
        while let item = cursor.next(from: &copy) { items.append(item) }
        return items
    }
}
