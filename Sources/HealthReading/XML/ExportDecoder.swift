import HealthJSON
import HealthModel

/// Turns the SAX events of an export.xml into `ExportItem`s.
///
/// Every element kind of the format (reference §4) has a place here. Nothing is dropped silently: records
/// with missing or inconsistent attributes are kept and flagged, and elements the decoder does not know are
/// counted in `warnings`.
final class ExportDecoder: SAXHandler {
    /// Items decoded and not yet taken by the reader.
    var pending: [ExportItem] = []
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
    let valueStrings = ByteInterner(capacity: 32)

    var stack: [ExportElement] = []
    var dates = TimestampCache()
    var sawRoot = false
    /// Records written by the iOS 8/9 exporter (`source=`), reported in the run summary.
    var legacyRecords = 0

    var sample: Sample?
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
            pending.append(.header(locale: string(attributes, .locale), exportDate: nil))
        case .exportDate:
            let date = timestamp(attributes, .value)
            pending.append(.header(locale: nil, exportDate: date))
        case .me:
            pending.append(.characteristics(Characteristics(attributes: allAttributes(attributes))))
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
            if let correlation { pending.append(.correlation(correlation)) }
            correlation = nil
        case .workoutActivity: activityIndex = nil
        case .workoutRoute:
            endRoute()
        case .workout:
            if let workout { pending.append(.workout(workout)) }
            workout = nil
        case .audiogram:
            if let audiogram { pending.append(.audiogram(audiogram)) }
            audiogram = nil
        case .visionPrescription:
            if let vision { pending.append(.visionPrescription(vision)) }
            vision = nil
        case .stateOfMind:
            if var stateOfMind {
                // Made once here: made at every entry, the JSON of n entries was written n times over (n² bytes).
                if !stateOfMindMetadata.isEmpty {
                    stateOfMind.metadataJSON = JSONText.json(stateOfMindMetadata.map { ($0.key, $0.value) })
                }
                pending.append(.stateOfMind(stateOfMind))
            }
            stateOfMind = nil
            stateOfMindMetadata = []
        default: break
        }
    }

    func text(_ bytes: XMLBytes) {}

    // MARK: - Records

    private func startRecord(_ attributes: XMLAttributes) {
        var common = commonAttributes(attributes)
        var record = Sample(type: common.type ?? "", source: common.source, line: line)
        record.unit = common.unit
        record.creationDate = common.creationDate
        record.startDate = common.startDate
        record.endDate = common.endDate
        if common.type == nil { common.flags.insert(.missingType) }
        if common.isLegacy { legacyRecords += 1 }
        var average: Double?
        if common.hasOtherAttributes { average = addAttributeMetadata(attributes, to: &record) }
        if common.rawValue == nil, !record.isCategory, let average {
            // An iOS 8/9 aggregate of a discrete type has no `value`: it stands for `recordCount` samples
            // whose mean is `average` (kept, with min and max, in its metadata).
            record.value = average
        } else if let raw = common.rawValue {
            if record.isCategory {
                record.textValue = valueStrings.string(raw)
                if common.isLegacy { nameLegacyCategoryValue(&record) }
            } else if let number = NumberParsing.parseDouble(raw) {
                record.value = number
            } else {
                record.textValue = XMLText.decode(raw)
                common.flags.insert(.badValue)
            }
        } else if !record.isCategory {
            common.flags.insert(.badValue)
        }
        if !record.isCategory, record.unit == nil, record.value != nil { common.flags.insert(.missingUnit) }
        record.flags = common.flags
        sample = record
    }

    private func endRecord() {
        // Moved out (`take`), not copied: a copy would retain every field of the record, then release them.
        guard var record = sample.take() else { return }
        if !record.beats.isEmpty { BeatTimes.anchor(&record.beats, to: record.startDate) }
        if correlation != nil {
            guard admits(correlation?.children.count, .record, in: .correlation, limit: Self.maximumChildrenPerElement)
            else { return }
            correlation?.children.append(consume record)
        } else {
            pending.append(.sample(consume record))
        }
    }

    private func addMetadata(_ attributes: XMLAttributes) {
        var key: String?
        var value: String?
        for index in 0..<attributes.count {
            switch attributeNameLookup(attributes, index) {
            case .key: key = keyStrings.string(attributes.value(index))
            case .value: value = XMLText.decode(attributes.value(index))
            default: break
            }
        }
        guard let key else {
            warn("MetadataEntry without a key (ignored)")
            return
        }
        let entry = MetadataEntry(key: key, value: value ?? "")
        // The innermost open element that carries metadata owns the entry.
        let owner = stack.count >= 2 ? stack[stack.count - 2] : .unknown
        guard admits(metadataCount(of: owner), .metadataEntry, in: owner, limit: Self.maximumMetadataPerElement)
        else { return }
        switch owner {
        case .record: sample?.metadata.append(entry)
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
        case .record: sample?.metadata.count
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

    private func addBeat(_ attributes: XMLAttributes) {
        guard sample != nil else {
            warn("InstantaneousBeatsPerMinute outside a Record (ignored)")
            return
        }
        guard admits(sample?.beats.count, .beat, in: .record, limit: Self.maximumBeatsPerRecord) else { return }
        var beat = HeartbeatReading(bpm: nil, secondOfDay: nil, seconds: nil, rawTime: "")
        for index in 0..<attributes.count {
            switch attributeNameLookup(attributes, index) {
            case .bpm: beat.bpm = NumberParsing.parseLocalizedDouble(attributes.value(index))
            case .time:
                let bytes = attributes.value(index)
                beat.secondOfDay = BeatTimes.secondsOfDay(bytes)
                beat.rawTime = String(decoding: bytes, as: UTF8.self)
            default: break
            }
        }
        sample?.beats.append(beat)
    }
}
