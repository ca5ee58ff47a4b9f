import HealthModel

extension ExportDecoder {
    /// The closed rows (as `Sample`s) and other items in document order, taken out of the batch, as
    /// `ExportReader.next` hands them on (step 10 of docs/batches.md hands on the batch itself instead).
    package func takeItems() -> [ExportItem] {
        var items: [ExportItem] = []
        var cursor = BatchItemCursor()
        while let item = cursor.next(from: &batch) { items.append(item) }
        batch.removeClosedRows()
        return items
    }
}
