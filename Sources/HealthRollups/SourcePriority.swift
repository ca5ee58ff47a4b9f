/// Which source counts when several record the same stretch of time: an ordered list of rules, best first.
///
/// The export does not contain the order the user set in Settings › Health › Data Sources (export-format.md
/// §10.3), so this order stands in for it. A sample's *class* is the index of the first rule it matches; a
/// sample that matches no rule gets `rules.count`, after every rule. Between two sources of the same class the
/// one whose name sorts first (by Unicode scalar values) wins, so results never depend on input order.
public struct SourcePriority: Sendable, Equatable {
    public enum Rule: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// The device's model contains "Watch".
        case watch
        /// The device's model contains "iPhone".
        case iPhone
        /// Exactly this `sourceName`.
        case source(String)
        /// Anything not entered by hand.
        case apps
        /// Entered by hand (metadata `HKWasUserEntered` = 1).
        case manual

        /// The words of a pipeline file.
        public static let allowedWords = ["watch", "iphone", "apps", "manual", "source:<name>"]

        public init(parsing word: String) throws(SourcePriorityError) {
            let lowered = word.lowercased()
            if lowered.hasPrefix("source:") {
                let name = String(word.dropFirst("source:".count))
                guard !name.isEmpty else { throw SourcePriorityError(word: word) }
                self = .source(name)
                return
            }
            switch lowered {
            case "watch": self = .watch
            case "iphone": self = .iPhone
            case "apps": self = .apps
            case "manual": self = .manual
            default: throw SourcePriorityError(word: word)
            }
        }

        public var description: String {
            switch self {
            case .watch: "watch"
            case .iPhone: "iphone"
            case .source(let name): "source:\(name)"
            case .apps: "apps"
            case .manual: "manual"
            }
        }
    }

    public var rules: [Rule]

    /// Watch over iPhone, as the Health app orders a new user's devices; third-party apps next; hand-entered
    /// values last, because they usually restate or correct what a device measured.
    public static let `default` = SourcePriority(rules: [.watch, .iPhone, .apps, .manual])

    public init(rules: [Rule]) { self.rules = rules }

    public init(parsing words: [String]) throws(SourcePriorityError) {
        var rules: [Rule] = []
        for word in words { rules.append(try Rule(parsing: word)) }
        self.rules = rules
    }

    public var words: [String] { rules.map(\.description) }

    /// The class of a sample: the index of the first rule it matches.
    ///
    /// Hand-entered samples match only `.source` and `.manual`, whatever their device: an iPhone's Health app
    /// writes them with the iPhone as device, yet they are no measurement. Cheap but not free (substring
    /// searches): call it once per distinct (source, device model, hand-entered) and reuse the answer.
    public func sourceClass(sourceName: String, deviceModel: String?, userEntered: Bool) -> Int {
        for (index, rule) in rules.enumerated() {
            switch rule {
            case .source(let name): if name == sourceName { return index }
            case .manual: if userEntered { return index }
            case .apps: if !userEntered { return index }
            case .watch: if !userEntered, deviceModel?.contains("Watch") == true { return index }
            case .iPhone: if !userEntered, deviceModel?.contains("iPhone") == true { return index }
            }
        }
        return rules.count
    }
}

/// A word of a source priority list that is not one of the allowed words.
public struct SourcePriorityError: Error, Equatable, CustomStringConvertible {
    public var word: String

    public var message: String {
        "unknown source priority rule \"\(word)\"; allowed: \(SourcePriority.Rule.allowedWords.joined(separator: ", "))"
    }

    public var description: String { message }
}
