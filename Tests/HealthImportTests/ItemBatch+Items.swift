import HealthTestSupport

@testable import HealthImport
@testable import HealthModel

/// A queued batch read as the item list it stands for, for assertions written against items.
extension ItemBatch {
    /// Its rows (as `Sample`s) and other items, in document order.
    var items: [ExportItem] { batch.items }

    /// The fingerprint of each item in document order (0 for an item that is not a row); empty when the
    /// decoding thread did not compute them.
    var identities: [Int64] {
        guard hasIdentities else { return [] }
        var identities: [Int64] = []
        var other = 0
        for row in 0...batch.rowCount {
            while other < batch.others.count, batch.others[other].beforeRow <= row {
                identities.append(0)
                other += 1
            }
            if row < batch.rowCount { identities.append(batch.identity[row]) }
        }
        return identities
    }

    /// A batch of `items`.
    init(items: [ExportItem]) {
        self.init()
        batch = SampleBatch.of(items)
    }
}
