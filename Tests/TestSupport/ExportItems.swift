import HealthModel
import HealthReading

/// Reads every item of an export into memory (tests only: small inputs).
package func readAllItems(_ path: String, chunkSize: Int = XMLDocumentReader.defaultChunkSize) throws -> (
    items: [ExportItem], reader: ExportReader
) {
    let reader = try ExportReader(container: ExportContainer(path: path), chunkSize: chunkSize)
    var items: [ExportItem] = []
    while let item = try reader.next() { items.append(item) }
    return (items, reader)
}

extension Array where Element == ExportItem {
    package var samples: [Sample] { compactMap { if case .sample(let s) = $0 { s } else { nil } } }
    package var workouts: [Workout] { compactMap { if case .workout(let w) = $0 { w } else { nil } } }
    package var correlations: [Correlation] { compactMap { if case .correlation(let c) = $0 { c } else { nil } } }
}

/// A minimal export document around `body`.
package func exportXML(_ body: String, doctype: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    \(doctype)<HealthData locale="en_US">
     <ExportDate value="2024-03-01 10:00:00 +0100"/>
    \(body)
    </HealthData>

    """
}

/// An export of one step-count record.
package let oneRecordExportXML = exportXML(
    """
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:05:00 +0100" value="5"/>
    """)
