/// `Me`: the characteristics, kept as the attribute/value pairs written (their set changes across versions).
public struct Characteristics: Sendable {
    public var attributes: [(name: String, value: String)] = []
}

public struct Correlation: Sendable {
    public var type: String
    public var source: SampleSource
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry] = []
    /// The child records. Each of them also appears as a top-level record in the export.
    public var children: [Sample] = []
    public var flags: SampleFlags = []
    public var line: Int32
}

public struct ActivitySummary: Sendable {
    /// `dateComponents`, a calendar day with no zone.
    public var date: String?
    public var values: [(name: String, value: Double)] = []
    public var activeEnergyBurnedUnit: String?
    /// The energy unit as exported, when the unit stage converted the energy values.
    public var rawActiveEnergyBurnedUnit: String?
    public var line: Int32
}

public struct ClinicalRecord: Sendable {
    public var type: String?
    public var identifier: String?
    public var sourceName: String?
    public var sourceURL: String?
    public var fhirVersion: String?
    public var receivedDate: Timestamp?
    public var resourceFilePath: String?
    /// The FHIR resource JSON, when the file could be read.
    public var resourceJSON: String?
    public var problem: String?
    public var line: Int32
}

public struct Audiogram: Sendable {
    public var type: String
    public var source: SampleSource
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry] = []
    /// Each point's attributes, numbers parsed where they are numbers (`leftEarMasked` stays text).
    public var points: [[(name: String, value: String)]] = []
    public var line: Int32
}

public struct VisionPrescription: Sendable {
    public var attributes: [(name: String, value: String)] = []
    public var metadata: [MetadataEntry] = []
    /// `RightEye`/`LeftEye` elements with their attributes.
    public var eyes: [(eye: String, attributes: [(name: String, value: String)])] = []
    public var attachments: [String] = []
    public var line: Int32
}

/// An ECG recording from `electrocardiograms/*.csv`.
public struct ElectrocardiogramRecording: Sendable {
    public var fileName: String
    /// Header fields by position: name, date of birth, recorded date, classification, symptoms, software
    /// version, device, sample rate. Labels are localised, so they are kept only as written.
    public var header: [(label: String, value: String)] = []
    public var recordedDate: Timestamp?
    public var classification: String?
    public var symptoms: String?
    public var softwareVersion: String?
    public var device: String?
    public var sampleRateHz: Double?
    public var lead: String?
    public var unit: String?
    /// Voltages in µV.
    public var samples: [Float] = []
}

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
