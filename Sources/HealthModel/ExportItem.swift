/// Everything the export reader produces, in document order.
///
/// Only `sample` is stored inline: the rarer, larger kinds are boxed (`indirect`) so an item stays the size of a
/// sample, which is what the queues between threads copy millions of times.
public enum ExportItem: Sendable {
    case header(locale: String?, exportDate: Timestamp?)
    indirect case characteristics(Characteristics)
    case sample(Sample)
    indirect case correlation(Correlation)
    indirect case workout(Workout)
    indirect case activitySummary(ActivitySummary)
    indirect case clinicalRecord(ClinicalRecord)
    indirect case audiogram(Audiogram)
    indirect case visionPrescription(VisionPrescription)
    indirect case electrocardiogram(ElectrocardiogramRecording)
    indirect case stateOfMind(StateOfMindEntry)
    /// A document kept as it is (`export_cda.xml`, which is not well formed), streamed by the sink.
    case document(StoredDocument)
}
