/// Where a value was recorded: the app or device that wrote it.
///
/// Shared by reference: an export has a handful of distinct sources and millions of samples, so the decoder
/// interns them and every sample points at one of these.
public final class SampleSource: Sendable {
    /// Assigned by the decoder in order of first appearance; the sinks use it as a row id.
    public let id: Int
    public let name: String
    public let version: String?
    public let device: Device?

    public init(id: Int, name: String, version: String?, device: Device?) {
        self.id = id
        self.name = name
        self.version = version
        self.device = device
    }
}

public struct MetadataEntry: Equatable, Hashable, Sendable {
    public var key: String
    /// The value exactly as exported.
    public var value: String
    /// The number in a quantity value (`418 cm`), split once when the entry is made; the unit stage converts
    /// it when it knows the unit, the sinks store it.
    public var number: Double?
    public var numberUnit: String?

    public init(key: String, value: String) {
        self.key = key
        self.value = value
        (number, numberUnit) = MetadataValue.quantity(value)
    }

    /// An entry whose number was already split (or converted by the unit stage): a batch's row read back.
    package init(key: String, value: String, number: Double?, numberUnit: String?) {
        self.key = key
        self.value = value
        self.number = number
        self.numberUnit = numberUnit
    }
}

/// Facts about a record that a user should be able to query, instead of the record being dropped.
public struct SampleFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `startDate` is after `endDate` (kept as written).
    public static let startAfterEnd = SampleFlags(rawValue: 1 << 0)
    public static let missingStartDate = SampleFlags(rawValue: 1 << 1)
    public static let missingEndDate = SampleFlags(rawValue: 1 << 2)
    public static let missingType = SampleFlags(rawValue: 1 << 3)
    public static let missingSource = SampleFlags(rawValue: 1 << 4)
    /// A date attribute that is present but not in the export's format.
    public static let badDate = SampleFlags(rawValue: 1 << 5)
    /// A quantity whose `value` is missing or not a number (the text is kept in `textValue`).
    public static let badValue = SampleFlags(rawValue: 1 << 6)
    /// A quantity with no `unit`.
    public static let missingUnit = SampleFlags(rawValue: 1 << 7)
    /// A unit that cannot be read or is of the wrong dimension for the type (value and unit kept as exported).
    public static let unitNotConvertible = SampleFlags(rawValue: 1 << 8)

    /// Names for the `flags` documentation and summaries.
    public static let names: [(SampleFlags, String)] = [
        (.startAfterEnd, "start_after_end"), (.missingStartDate, "missing_start_date"),
        (.missingEndDate, "missing_end_date"), (.missingType, "missing_type"),
        (.missingSource, "missing_source"), (.badDate, "bad_date"), (.badValue, "bad_value"),
        (.missingUnit, "missing_unit"), (.unitNotConvertible, "unit_not_convertible"),
    ]
}

/// One beat of an HRV record's beat-to-beat list, anchored to its parent record.
public struct HeartbeatReading: Equatable, Sendable {
    public var bpm: Double?
    /// Seconds since midnight of the written time of day.
    public var secondOfDay: Double?
    /// The beat's instant, computed from the localised time of day and the parent's start.
    public var seconds: Double?
    /// The time of day exactly as written (`6:14:48.94 PM`, `00:20:37,80`).
    public var rawTime: String

    /// Memberwise, for the other targets.
    package init(bpm: Double? = nil, secondOfDay: Double? = nil, seconds: Double? = nil, rawTime: String) {
        self.bpm = bpm
        self.secondOfDay = secondOfDay
        self.seconds = seconds
        self.rawTime = rawTime
    }
}

/// A `Record` element: a quantity or category sample.
public struct Sample: Sendable {
    public var type: String
    public var source: SampleSource
    /// The unit as exported (quantities only).
    public var unit: String?
    /// The numeric value of a quantity (in `unit`; canonical once the unit stage has run).
    public var value: Double?
    /// The value and unit as exported, set by the unit stage when it converts `value`/`unit`.
    public var rawValue: Double?
    public var rawUnit: String?
    /// The value of a category (`HKCategoryValueSleepAnalysisAsleepCore`), or a quantity value that is not a
    /// number.
    public var textValue: String?
    /// The category value as exported, when the decoder named an iOS 8/9 record's number (`1` →
    /// `HKCategoryValueSleepAnalysisAsleep` in `textValue`), as `rawValue` keeps a converted quantity's.
    public var rawTextValue: String?
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry] = []
    public var beats: [HeartbeatReading] = []
    public var flags: SampleFlags = []
    /// The line of the `<Record` tag in the XML, so a user can find the original.
    public var line: Int32

    public init(type: String, source: SampleSource, line: Int32) {
        self.type = type
        self.source = source
        self.line = line
    }

    public var isCategory: Bool { Self.isCategory(type: type) }

    /// Whether records of `type` hold a category value (a name) rather than a number.
    package static func isCategory(type: String) -> Bool { type.hasPrefix("HKCategoryTypeIdentifier") }

    public func metadataValue(_ key: String) -> String? {
        metadata.first { $0.key == key }?.value
    }
}
