import Foundation

/// Metadata in the order it is written. Real exports use NSDictionary order, which is arbitrary; a fixed order keeps
/// the output reproducible.
typealias Metadata = [(key: String, value: String)]

/// A Record's `value` attribute: `%g` for quantities, an enum string for categories, or absent (NotApplicable
/// categories such as MindfulSession have no `value` at all).
enum RecordValue {
    case none
    case quantity(Double)
    case text(String)
}

/// State shared by every section writer during one pass: the XML writer, the tally, the sources and the day plans.
///
/// Element helpers live here so that attribute order, indentation (one space per level, as libxml2's writer
/// with indentation on) and counting are the same for every element kind.
final class ExportContext {
    let options: GeneratorOptions
    let profile: ExportProfile
    let writer: XMLWriter
    let clock: ExportClock
    let sources: SourceCatalog
    let days: Int
    /// Day number (days since 1970-01-01) of the first generated local day.
    let firstDayNumber: Int
    var tally = ExportTally()
    /// Device addresses come from their own stream, in writing order, so content streams stay reusable.
    private var addressRandom: SeededRandom
    private var cachedPlan: DayPlan?
    /// Routes met during the XML pass; their GPX files are written after the XML closes.
    var routeFiles: [RouteFile] = []

    init(options: GeneratorOptions, days: Int, writer: XMLWriter) {
        self.options = options
        profile = options.profile
        self.writer = writer
        clock = writer.clock
        self.days = days
        sources = SourceCatalog(profile: options.profile, controlCharacters: options.includeControlCharacters)
        let startSeconds = Int64(options.startDate.timeIntervalSince1970.rounded(.down))
        let local = startSeconds + Int64(options.homeZone.offset(at: startSeconds))
        firstDayNumber = Int(CivilDate.floorDiv(local, 86_400))
        addressRandom = SeededRandom(seed: options.seed, stream: "device-address")
    }

    var scale: Double { options.scale }
    var seed: UInt64 { options.seed }
    var zoneName: String { options.homeZone.rawValue }

    func plan(_ day: Int) -> DayPlan {
        if let cachedPlan, cachedPlan.index == day { return cachedPlan }
        let plan = DayPlan(
            seed: seed, firstDayNumber: firstDayNumber, index: day, zone: options.homeZone, modern: profile.isModern,
            workoutLengthFactor: options.workoutLengthFactor)
        cachedPlan = plan
        return plan
    }

    /// The instant at which the export happens: the morning after the last generated day.
    var exportTime: Int64 {
        if let timeOfDay = options.exportTimeOfDay { return plan(days - 1).start + Int64(timeOfDay) }
        return plan(days - 1).end + 9 * 3_600 + 12 * 60 + 31
    }

    /// Records ending after this are not written (`GeneratorOptions.exportTimeOfDay`).
    lazy var recordCut: Int64? = options.exportTimeOfDay == nil ? nil : exportTime
    /// Told of every top-level record before it is written (`FeedGenerator` reads the truth through it).
    var recordObserver: ((CapturedRecord) -> Void)?

    /// A per-section, per-day random stream.
    func random(_ stream: StaticString, day: Int) -> SeededRandom {
        SeededRandom(seed: seed, stream: stream, day: day)
    }

    // MARK: - Element helpers

    func indent(_ depth: Int) throws {
        for _ in 0..<depth { try writer.byte(0x20) }
    }

    /// ` device="&lt;&lt;HKDevice: 0x282e3a260&gt;, name:…&gt;"` with a fresh address.
    func writeDevice(_ device: DeviceTemplate) throws {
        try writer.raw(" device=\"&lt;&lt;HKDevice: 0x")
        let address = device.addressBase + (addressRandom.next() % 0x3FF_FFFF) * 16
        try writer.raw(String(address, radix: 16))
        try writer.raw(device.escapedSuffix)
        try writer.byte(0x22)
    }

    /// `sourceName`, `sourceVersion?`, `device?` in the writer's order.
    func writeSource(_ source: Source) throws {
        try writer.attr("sourceName", source.name)
        if let version = source.version { try writer.attr("sourceVersion", version) }
        if let device = source.device { try writeDevice(device) }
    }

    func writeMetadata(_ metadata: Metadata, depth: Int) throws {
        for entry in metadata {
            try indent(depth)
            try writer.raw("<MetadataEntry")
            try writer.attr("key", entry.key)
            try writer.attr("value", entry.value)
            try writer.raw("/>\n")
        }
        tally.metadataEntries += metadata.count
    }

    /// Writes one `Record` (and `copies - 1` exact duplicates that differ only in the device address).
    /// Top-level records (depth 1) are tallied as records; deeper ones as correlation children.
    func writeRecord(
        type: String, source: Source, unit: String? = nil, created: Int64?, start: Int64, end: Int64,
        value: RecordValue, metadata: Metadata = [], depth: Int = 1, copies: Int = 1,
        children: (() throws -> Void)? = nil
    ) throws {
        if depth == 1, let recordObserver {
            recordObserver(
                CapturedRecord(
                    type: type, source: source, unit: unit, start: start, end: end, value: value, metadata: metadata))
        }
        if depth == 1, let recordCut, end > recordCut { return }
        for _ in 0..<copies {
            try indent(depth)
            try writer.raw("<Record type=\"")
            try writer.raw(type)
            try writer.byte(0x22)
            try writeSource(source)
            if let unit { try writer.attr("unit", unit) }
            if let created { try writer.attrDate("creationDate", created) }
            try writer.attrDate("startDate", start)
            try writer.attrDate("endDate", end)
            switch value {
            case .none: break
            case .quantity(let number): try writer.attrG("value", number)
            case .text(let text): try writer.attr("value", text)
            }
            if metadata.isEmpty && children == nil && (depth != 1 || options.extraMetadataPerRecord == 0) {
                try writer.raw("/>\n")
            } else {
                try writer.raw(">\n")
                try writeMetadata(metadata, depth: depth + 1)
                if depth == 1 { try writeExtraMetadata(start: start, depth: depth + 1) }
                try children?()
                try indent(depth)
                try writer.raw("</Record>\n")
            }
            if depth == 1 {
                tally.addRecord(type: type, isCategory: unit == nil)
            } else {
                tally.correlationChildRecords += 1
            }
        }
        if copies > 1 { tally.exactDuplicateRecords += copies - 1 }
    }

    /// `extraMetadataPerRecord` entries as a third-party app writes them. Values come from the start date, not
    /// from a random stream, so the rest of the export is the one the seed gives without them.
    private func writeExtraMetadata(start: Int64, depth: Int) throws {
        for number in 0..<options.extraMetadataPerRecord {
            try indent(depth)
            try writer.raw("<MetadataEntry key=\"com.example.tracker.field")
            try writer.raw(String(number))
            try writer.raw("\" value=\"")
            try writer.raw(String(start &* 31 &+ Int64(number) &* 7_919))
            try writer.raw("\"/>\n")
        }
        tally.metadataEntries += options.extraMetadataPerRecord
    }

    /// A quantity sample's creation date: saved a little after it ended, as HealthKit batches writes.
    func creation(after end: Int64, random: inout SeededRandom) -> Int64 {
        end + Int64(random.int(1...900))
    }

    /// How many copies of a record to write: usually one; with duplicates on, an occasional exact repeat.
    func copies(_ random: inout SeededRandom, probability: Double) -> Int {
        options.includeDuplicates && random.chance(probability) ? 2 : 1
    }
}
