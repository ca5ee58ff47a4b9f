import HealthJSON
import HealthModel

/// Turns the SAX events of an export.xml into a `SampleBatch`: top-level records as rows, every other item
/// in its `others` (`ExportDecoder+Records.swift`).
///
/// Every element kind of the format (reference §4) has a place here. Nothing is dropped silently: records
/// with missing or inconsistent attributes are kept and flagged, and elements the decoder does not know are
/// counted in `warnings`.
final class ExportDecoder: SAXHandler {
    /// The names the batches refer to, for the whole import: kept in `batch`, so the batch handed on carries them
    /// as of its last row (the reader gives the next batch a copy: `Vocabulary`).
    var vocabulary: Vocabulary {
        get { batch.vocabulary }
        _modify { yield &batch.vocabulary }
    }
    /// Rows and items decoded and not yet taken by the reader, in document order.
    var batch: SampleBatch
    /// The open correlation's records (`ExportDecoder+Records.swift`).
    var correlationRecords: SampleBatch
    /// The open record's own fields; its metadata and beats are already in the side columns of `batch`, or
    /// of `correlationRecords` when `openRecordInCorrelation`.
    var openRecord: SampleBatch.Row?
    var openRecordInCorrelation = false
    /// `Sample.isCategory` by type id.
    var categoryByType: [Bool] = []
    /// Counted oddities, by message (`unknown element <Foo>`), for the run summary.
    private(set) var warnings: [String: Int] = [:]
    /// How many elements of each kind were seen (for the summary and tests).
    var elementCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for element in ExportElement.allCases where countsByElement[element.ordinal] > 0 {
            counts[element.rawValue] = countsByElement[element.ordinal]
        }
        return counts
    }

    private var countsByElement = [Int](repeating: 0, count: ExportElement.allCases.count)
    /// Set to the parser once it exists, to raise errors and read line numbers.
    // Not `weak`: a weak reference gives the parser a side table, which sends every retain and release of it
    // down the slow path. The parser only calls back while it parses, and its owner outlives that.
    unowned(unsafe) var parser: SAXParser?

    var sources = SourceInterner()
    var elements = NameTable<ExportElement>(fallback: .unknown)
    var attributeNames = NameTable<ExportAttribute>(fallback: .other)
    let typeStrings = ByteInterner(capacity: 8)
    let nameStrings = ByteInterner(capacity: 16)
    let versionStrings = ByteInterner(capacity: 16)
    let unitStrings = ByteInterner(capacity: 8)
    let keyStrings = ByteInterner(capacity: 64)

    var stack: [ExportElement] = []
    var dates = TimestampCache()
    var sawRoot = false
    /// Records written by the iOS 8/9 exporter (`source=`), reported in the run summary.
    var legacyRecords = 0

    var correlation: Correlation?
    var workout: Workout?
    var activityIndex: Int?
    var route: WorkoutRoute?
    var audiogram: Audiogram?
    var vision: VisionPrescription?
    var stateOfMind: StateOfMindEntry?
    var stateOfMindMetadata: [MetadataEntry] = []
    /// Elements nested in the open top-level element so far (`maximumNestedPerElement`).
    var nestedInElement = 0
    /// Points a route keeps in memory before it moves to a temporary file (`RoutePointBuffer`), for all the
    /// routes of one workout together.
    var routeSpillThreshold = RoutePointBuffer.defaultSpillThreshold

    var line: Int32 { Int32(clamping: parser?.line ?? 0) }

    init() {
        batch = SampleBatch(vocabulary: Vocabulary())
        // Its rows are read back (`correlationChildren`) with the vocabulary lent from `batch`.
        correlationRecords = SampleBatch(vocabulary: Vocabulary())
    }

    /// Real exports nest five levels at most (HealthData › Workout › WorkoutActivity › WorkoutEvent ›
    /// MetadataEntry); a document nested deeper is refused before it can use memory for nothing.
    static let maximumDepth = 64

    func attributeNameLookup(_ attributes: XMLAttributes, _ index: Int) -> ExportAttribute {
        attributeNames.lookup(attributes.nameIdentity(index), attributes.name(index))
    }

    func typeString(_ bytes: XMLBytes) -> String { typeStrings.string(bytes) }
    func nameString(_ bytes: XMLBytes) -> String { nameStrings.string(bytes) }
    func versionString(_ bytes: XMLBytes) -> String { versionStrings.string(bytes) }
    func unitString(_ bytes: XMLBytes) -> String { unitStrings.string(bytes) }

    /// Applies `change` to the open workout; false when there is none.
    func appendToWorkout(_ change: (inout Workout) -> Void) -> Bool {
        guard workout != nil else { return false }
        change(&workout!)
        return true
    }

    func appendToRoute(_ point: RoutePoint) -> Bool {
        guard route != nil else { return false }
        do {
            try route?.points.append(point)
        } catch {
            parser?.stop(with: error as? ImportError ?? ImportError(.internal, "\(error)"))
        }
        return true
    }

    func warn(_ message: String) { warnings[message, default: 0] += 1 }

    // MARK: - SAX events

    func startElement(_ name: XMLBytes, identity: UnsafeRawPointer, attributes: XMLAttributes) {
        let element = elements.lookup(identity, name)
        if !sawRoot {
            sawRoot = true
            guard element == .healthData else {
                let root = String(decoding: name, as: UTF8.self)
                parser?.stop(
                    with: ImportError(
                        .input, "not an Apple Health export: the root element is <\(root)>, not <HealthData>"))
                return
            }
        }
        stack.append(element)
        if stack.count > Self.maximumDepth {
            parser?.stop(
                with: ImportError(
                    .input,
                    "elements nested more than \(Self.maximumDepth) levels deep: this is not an Apple Health export",
                    hint: "real exports nest at most a few levels"))
            return
        }
        guard admitsNested(element, depth: stack.count) else { return }
        switch element {
        case .record: startRecord(attributes)
        case .metadataEntry: addMetadata(attributes)
        case .beat: addBeat(attributes)
        case .hrvList: break
        case .workoutEvent: addWorkoutEvent(attributes)
        case .workoutActivity: startWorkoutActivity(attributes)
        case .workoutStatistics: addWorkoutStatistic(attributes)
        case .workoutRoute: startRoute(attributes)
        case .fileReference: route?.filePath = string(attributes, .path)
        case .location: addLocation(attributes)
        case .workout: startWorkout(attributes)
        case .correlation: startCorrelation(attributes)
        case .healthData:
            batch.append(.header(locale: string(attributes, .locale), exportDate: nil))
        case .exportDate:
            let date = timestamp(attributes, .value)
            batch.append(.header(locale: nil, exportDate: date))
        case .me:
            batch.append(.characteristics(Characteristics(attributes: allAttributes(attributes))))
        case .activitySummary: addActivitySummary(attributes)
        case .clinicalRecord: addClinicalRecord(attributes)
        case .audiogram: startAudiogram(attributes)
        case .sensitivityPoint:
            guard admits(audiogram?.points.count, element, in: .audiogram, limit: Self.maximumChildrenPerElement)
            else { return }
            audiogram?.points.append(allAttributes(attributes))
        case .visionPrescription:
            vision = VisionPrescription(attributes: allAttributes(attributes), line: line)
        case .rightEye, .leftEye:
            guard admits(vision?.eyes.count, element, in: .visionPrescription, limit: Self.maximumChildrenPerElement)
            else { return }
            vision?.eyes.append((element.rawValue, allAttributes(attributes)))
        case .attachment:
            guard
                admits(
                    vision?.attachments.count, element, in: .visionPrescription, limit: Self.maximumChildrenPerElement)
            else { return }
            vision?.attachments.append(allAttributes(attributes).first { $0.name == "identifier" }?.value ?? "")
        case .stateOfMind: startStateOfMind(attributes)
        case .unknown:
            warn("unknown element <\(String(decoding: name, as: UTF8.self))> (ignored)")
        }
    }

    func endElement(_ name: XMLBytes, identity: UnsafeRawPointer) {
        guard let element = stack.popLast() else { return }
        countsByElement[element.ordinal] += 1
        switch element {
        case .record: endRecord()
        case .correlation:
            if var correlation {
                correlation.children = takeCorrelationRecords()
                batch.append(.correlation(correlation))
            }
            correlation = nil
        case .workoutActivity: activityIndex = nil
        case .workoutRoute:
            endRoute()
        case .workout:
            if let workout { batch.append(.workout(workout)) }
            workout = nil
        case .audiogram:
            if let audiogram { batch.append(.audiogram(audiogram)) }
            audiogram = nil
        case .visionPrescription:
            if let vision { batch.append(.visionPrescription(vision)) }
            vision = nil
        case .stateOfMind:
            if var stateOfMind {
                // Made once here: made at every entry, the JSON of n entries was written n times over (n² bytes).
                if !stateOfMindMetadata.isEmpty {
                    stateOfMind.metadataJSON = JSONText.json(stateOfMindMetadata.map { ($0.key, $0.value) })
                }
                batch.append(.stateOfMind(stateOfMind))
            }
            stateOfMind = nil
            stateOfMindMetadata = []
        default: break
        }
    }

    func text(_ bytes: XMLBytes) {}

    // MARK: - Metadata

    private func addMetadata(_ attributes: XMLAttributes) {
        var keyBytes: XMLBytes?
        var valueBytes: XMLBytes?
        for index in 0..<attributes.count {
            switch attributeNameLookup(attributes, index) {
            case .key: keyBytes = attributes.value(index)
            case .value: valueBytes = attributes.value(index)
            default: break
            }
        }
        guard let keyBytes else {
            warn("MetadataEntry without a key (ignored)")
            return
        }
        // The innermost open element that carries metadata owns the entry.
        let owner = stack.count >= 2 ? stack[stack.count - 2] : .unknown
        guard admits(metadataCount(of: owner), .metadataEntry, in: owner, limit: Self.maximumMetadataPerElement)
        else { return }
        if owner == .record {
            if openRecord != nil { addRecordMetadata(key: keyBytes, value: valueBytes) }
            return
        }
        let entry = MetadataEntry(
            key: keyStrings.string(keyBytes), value: valueBytes.map(XMLText.decode) ?? "")
        switch owner {
        case .correlation: correlation?.metadata.append(entry)
        case .workout: workout?.metadata.append(entry)
        case .workoutEvent:
            if let last = workout?.events.indices.last { workout?.events[last].metadata.append(entry) }
        case .workoutActivity:
            if let activityIndex { workout?.activities[activityIndex].metadata.append(entry) }
        case .workoutRoute: route?.metadata.append(entry)
        case .audiogram: audiogram?.metadata.append(entry)
        case .visionPrescription: vision?.metadata.append(entry)
        case .stateOfMind: if stateOfMind != nil { stateOfMindMetadata.append(entry) }
        default: warn("MetadataEntry inside <\(owner.rawValue)> (ignored)")
        }
    }

    /// The metadata entries `owner` (the open element of that kind) holds so far.
    private func metadataCount(of owner: ExportElement) -> Int? {
        switch owner {
        case .record: openRecordMetadataCount
        case .correlation: correlation?.metadata.count
        case .workout: workout?.metadata.count
        case .workoutEvent: workout?.events.last?.metadata.count
        case .workoutActivity: activityIndex.flatMap { workout?.activities[$0].metadata.count }
        case .workoutRoute: route?.metadata.count
        case .audiogram: audiogram?.metadata.count
        case .visionPrescription: vision?.metadata.count
        case .stateOfMind: stateOfMindMetadata.count
        default: nil
        }
    }
}
