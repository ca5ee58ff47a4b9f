/// `Me`: the characteristics, kept as the attribute/value pairs written (their set changes across versions).
public struct Characteristics: Sendable {
    public var attributes: [(name: String, value: String)] = []

    /// Memberwise, for the other targets.
    package init(attributes: [(name: String, value: String)] = []) {
        self.attributes = attributes
    }
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

    /// Memberwise, for the other targets.
    package init(
        type: String, source: SampleSource, creationDate: Timestamp? = nil, startDate: Timestamp? = nil,
        endDate: Timestamp? = nil, metadata: [MetadataEntry] = [], children: [Sample] = [], flags: SampleFlags = [],
        line: Int32
    ) {
        self.type = type
        self.source = source
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.children = children
        self.flags = flags
        self.line = line
    }
}

public struct ActivitySummary: Sendable {
    /// `dateComponents`, a calendar day with no zone.
    public var date: String?
    public var values: [(name: String, value: Double)] = []
    public var activeEnergyBurnedUnit: String?
    /// The energy unit as exported, when the unit stage converted the energy values.
    public var rawActiveEnergyBurnedUnit: String?
    public var line: Int32

    /// Memberwise, for the other targets.
    package init(
        date: String? = nil, values: [(name: String, value: Double)] = [], activeEnergyBurnedUnit: String? = nil,
        rawActiveEnergyBurnedUnit: String? = nil, line: Int32
    ) {
        self.date = date
        self.values = values
        self.activeEnergyBurnedUnit = activeEnergyBurnedUnit
        self.rawActiveEnergyBurnedUnit = rawActiveEnergyBurnedUnit
        self.line = line
    }
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

    /// Memberwise, for the other targets.
    package init(
        type: String? = nil, identifier: String? = nil, sourceName: String? = nil, sourceURL: String? = nil,
        fhirVersion: String? = nil, receivedDate: Timestamp? = nil, resourceFilePath: String? = nil,
        resourceJSON: String? = nil, problem: String? = nil, line: Int32
    ) {
        self.type = type
        self.identifier = identifier
        self.sourceName = sourceName
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
        self.receivedDate = receivedDate
        self.resourceFilePath = resourceFilePath
        self.resourceJSON = resourceJSON
        self.problem = problem
        self.line = line
    }
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

    /// Memberwise, for the other targets.
    package init(
        type: String, source: SampleSource, creationDate: Timestamp? = nil, startDate: Timestamp? = nil,
        endDate: Timestamp? = nil, metadata: [MetadataEntry] = [], points: [[(name: String, value: String)]] = [],
        line: Int32
    ) {
        self.type = type
        self.source = source
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.points = points
        self.line = line
    }
}

public struct VisionPrescription: Sendable {
    public var attributes: [(name: String, value: String)] = []
    public var metadata: [MetadataEntry] = []
    /// `RightEye`/`LeftEye` elements with their attributes.
    public var eyes: [(eye: String, attributes: [(name: String, value: String)])] = []
    public var attachments: [String] = []
    public var line: Int32

    /// Memberwise, for the other targets.
    package init(
        attributes: [(name: String, value: String)] = [], metadata: [MetadataEntry] = [],
        eyes: [(eye: String, attributes: [(name: String, value: String)])] = [], attachments: [String] = [],
        line: Int32
    ) {
        self.attributes = attributes
        self.metadata = metadata
        self.eyes = eyes
        self.attachments = attachments
        self.line = line
    }
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

    /// Memberwise, for the other targets.
    package init(
        fileName: String, header: [(label: String, value: String)] = [], recordedDate: Timestamp? = nil,
        classification: String? = nil, symptoms: String? = nil, softwareVersion: String? = nil, device: String? = nil,
        sampleRateHz: Double? = nil, lead: String? = nil, unit: String? = nil, samples: [Float] = []
    ) {
        self.fileName = fileName
        self.header = header
        self.recordedDate = recordedDate
        self.classification = classification
        self.symptoms = symptoms
        self.softwareVersion = softwareVersion
        self.device = device
        self.sampleRateHz = sampleRateHz
        self.lead = lead
        self.unit = unit
        self.samples = samples
    }
}
