/// A State of Mind sample (iOS 18). Apple's export does not contain them (reference §9); they come from a
/// Health Auto Export JSON file, or from a future export.xml element.
public struct StateOfMindEntry: Sendable {
    /// The identifier the source gave it (Health Auto Export's `id`).
    public var identifier: String?
    public var source: String
    /// `dailyMood` or `momentaryEmotion`.
    public var kind: String?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    /// In [-1, 1]: very unpleasant … very pleasant.
    public var valence: Double?
    /// valence + 1, in [0, 2]: averages are taken on this scale (set by `ValenceStage`).
    public var valenceShifted: Double?
    /// valenceShifted / 2 × 100, in [0, 100] (set by `ValenceStage`).
    public var valencePercent: Double?
    public var classification: String?
    public var labels: [String] = []
    public var associations: [String] = []
    /// The entry's metadata as JSON text, as written.
    public var metadataJSON: String?
    /// Where it came from, for messages (`file:entry N`).
    public var origin: String

    public init(source: String, origin: String) {
        self.source = source
        self.origin = origin
    }
}
