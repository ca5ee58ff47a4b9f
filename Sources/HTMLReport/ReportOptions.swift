import Foundation
import HealthModel

/// What `healthetl report` (or a pipeline's report sink) asks for.
public struct ReportOptions: Sendable, Equatable {
    /// First local day shown, `YYYY-MM-DD` (inclusive); nil: from the first day with data.
    public var from: String?
    /// First local day no longer shown (exclusive, as a pipeline's `to`); nil: up to the last day with data.
    public var to: String?
    /// Only the last this many days up to the last day with data (a nightly report of the last year).
    public var lastDays: Int?
    /// Which sections to draw (each still only when it has data); the header is always there.
    public var sections: [ReportSection] = ReportSection.allCases
    /// The zone the reader expects. The rollups are stored in the database's zone, so a different one is an
    /// error (`healthetl set-timezone` recomputes them) rather than a page whose days silently mean another zone.
    public var timeZone: TimeZone?
    /// The most recent routes drawn, and the points each is thinned to: the page stays small whatever
    /// the GPS history.
    public var routeLimit = 24
    public var pointsPerRoute = 300

    public init() {}

    /// Checks the range; the message names the option.
    public func validate() throws(OptionValueError) {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, Timestamp.dayNumber(ofDate: value) == nil {
                throw OptionValueError(message: "The value '\(value)' is invalid for '\(name) <YYYY-MM-DD>'")
            }
        }
        if let from, let to, from >= to {
            throw OptionValueError(message: "'--to \(to)' must be after '--from \(from)' (--to is exclusive)")
        }
        if let lastDays, lastDays < 1 {
            throw OptionValueError(message: "The value '\(lastDays)' is invalid for '--days <n>'")
        }
        if sections.isEmpty { throw OptionValueError(message: "'--sections' names no section") }
    }

    /// `activity,sleep` → sections; unknown words are an error listing the known ones.
    public static func sections(_ text: String) throws(OptionValueError) -> [ReportSection] {
        var chosen: [ReportSection] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard let section = ReportSection(rawValue: word) else {
                let known = ReportSection.allCases.map(\.rawValue).joined(separator: ", ")
                throw OptionValueError(message: "Unknown section '\(word)' for '--sections' (known: \(known))")
            }
            if !chosen.contains(section) { chosen.append(section) }
        }
        return chosen
    }
}
