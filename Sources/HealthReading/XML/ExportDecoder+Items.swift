import HealthModel

extension ExportDecoder {
    /// The closed rows (as `Sample`s) and other items in document order, taken out of its batch, as
    /// `ExportReader.next` hands them on (step 10 of docs/batches.md hands on the batch itself instead).
    package func takeItems() -> [ExportItem] {
        var items: [ExportItem] = []
        var nextOther = 0
        for row in 0...batch.rowCount {
            while nextOther < batch.others.count, batch.others[nextOther].beforeRow <= row {
                items.append(batch.takeOther(nextOther))
                nextOther += 1
            }
            if row < batch.rowCount { items.append(.sample(batch.sample(at: row))) }
        }
        batch.removeClosedRows()
        return items
    }
}
