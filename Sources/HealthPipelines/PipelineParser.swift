import Foundation
import HealthModel

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a `PipelineDefinition` from the JSON tree, reporting every problem to `reader` with its path.
/// Stages are in PipelineParser+Stages.swift, sinks in PipelineParser+Sinks.swift.
struct PipelineParser {
    var reader = PipelineJSONReader()
    let baseDirectory: String

    static let supportedVersion = 1
    static let topLevelFields = ["version", "description", "input", "timeZone", "filters", "stages", "sinks"]

    init(baseDirectory: String) { self.baseDirectory = baseDirectory }

    /// The definition, or nil when a required part is missing; check `reader.problems` either way.
    mutating func parseDocument(_ root: Any) -> PipelineDefinition? {
        guard let document = reader.object(root, at: "", allowed: Self.topLevelFields) else { return nil }
        parseVersion(document["version"])
        var definition = PipelineDefinition(inputExport: "")
        if let text = document["description"] { definition.description = reader.string(text, at: "description") }
        var inputFound = false
        if let input = document["input"] {
            inputFound = parseInput(input, into: &definition)
        } else {
            reader.report("input", "missing: give at least \"input\": {\"export\": \"<export.zip>\"}")
        }
        if let zone = document["timeZone"] { definition.timeZone = parseTimeZone(zone) }
        if let filters = document["filters"] { definition.filters = parseFilters(filters) }
        if let stages = document["stages"] { parseStages(stages, into: &definition) }
        if let sinks = document["sinks"] {
            parseSinks(sinks, into: &definition)
        } else {
            reader.report(
                "sinks",
                "missing: give at least one sink, {\"sqlite\": \"<file>\"}, {\"postgres\": \"<url>\", \"person\": \"<id>\"} or {\"csv\": \"<folder>\"}"
            )
        }
        return inputFound ? definition : nil
    }

    private mutating func parseVersion(_ value: Any?) {
        guard let value else {
            reader.report("version", "missing: add \"version\": \(Self.supportedVersion)")
            return
        }
        guard let number = reader.number(value, at: "version") else { return }
        if number != Double(Self.supportedVersion) {
            let found = PipelineNumber.text(number)
            reader.report(
                "version", "unsupported version \(found) (this healthetl reads version \(Self.supportedVersion))")
        }
    }

    private mutating func parseInput(_ value: Any, into definition: inout PipelineDefinition) -> Bool {
        guard let input = reader.object(value, at: "input", allowed: ["export", "stateOfMind"]) else { return false }
        if let stateOfMind = input["stateOfMind"],
            let path = reader.nonEmptyString(stateOfMind, at: "input.stateOfMind")
        {
            definition.stateOfMind = PipelinePaths.absolute(path, relativeTo: baseDirectory)
        }
        guard let export = input["export"] else {
            reader.report("input.export", "missing: the path of export.zip, an export folder, export.xml or a glob")
            return false
        }
        guard let path = reader.nonEmptyString(export, at: "input.export") else { return false }
        definition.inputExport = PipelinePaths.absolute(path, relativeTo: baseDirectory)
        return true
    }

    private mutating func parseTimeZone(_ value: Any) -> TimeZone? {
        guard let name = reader.nonEmptyString(value, at: "timeZone") else { return nil }
        if let zone = TimeZone(identifier: name) { return zone }
        let hint =
            PipelineJSONReader.suggestion(for: name, among: TimeZone.knownTimeZoneIdentifiers)
            .map { " (did you mean '\($0)'?)" } ?? " (an IANA name such as Europe/Berlin)"
        reader.report("timeZone", "unknown time zone '\(name)'\(hint)")
        return nil
    }

    private mutating func parseFilters(_ value: Any) -> PipelineDefinition.Filters {
        var filters = PipelineDefinition.Filters()
        guard let object = reader.object(value, at: "filters", allowed: ["types", "sources", "from", "to"]) else {
            return filters
        }
        if let types = object["types"], let list = reader.strings(types, at: "filters.types", what: "type identifier") {
            filters.types = Set(list.map(\.text))
            for (index, type) in list where !PipelineTypes.isKnown(type) {
                reportUnknownType(type, at: PipelineJSONReader.path("filters.types", index))
            }
        }
        if let sources = object["sources"],
            let list = reader.strings(sources, at: "filters.sources", what: "source name")
        {
            filters.sources = Set(list.map(\.text))
        }
        for key in ["from", "to"] {
            guard let value = object[key], let text = reader.string(value, at: "filters.\(key)") else { continue }
            if Timestamp.dayNumber(ofDate: text) == nil {
                reader.report("filters.\(key)", "'\(text)' is not a date of the form YYYY-MM-DD")
            } else if key == "from" {
                filters.from = text
            } else {
                filters.to = text
            }
        }
        if let from = filters.from, let to = filters.to, let first = filters.fromDay, let end = filters.toDay,
            first >= end
        {
            reader.report("filters.to", "\(to) must be after filters.from (\(from)): 'to' is exclusive")
        }
        return filters
    }

    mutating func reportUnknownType(_ type: String, at path: String) {
        let hint =
            PipelineJSONReader.suggestion(for: type, among: PipelineTypes.all).map { " (did you mean '\($0)'?)" } ?? ""
        reader.report(path, "unknown type '\(type)'\(hint)")
    }
}

/// The type identifiers a filter may name: the catalog's quantity and category types, plus workouts and
/// correlations, which the export has but the catalog (samples only) does not list.
enum PipelineTypes {
    static let extra = [
        "HKWorkoutTypeIdentifier", "HKCorrelationTypeIdentifierBloodPressure", "HKCorrelationTypeIdentifierFood",
    ]
    static let all: [String] = (Array(TypeCatalog.quantityTypes.keys) + Array(TypeCatalog.categoryTypes.keys) + extra)
        .sorted()

    static func isKnown(_ type: String) -> Bool { TypeCatalog.isKnown(type) || extra.contains(type) }
}

/// Numbers in messages without a needless ".0".
enum PipelineNumber {
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// `~` expansion and resolution of relative paths against the pipeline file's folder.
enum PipelinePaths {
    static func absolute(
        _ path: String, relativeTo base: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let isPattern = PipelineGlob.isPattern(path)
        // A glob's base folder (or home folder) must not be read as a pattern itself.
        func literal(_ text: String) -> String { isPattern ? PipelineGlob.escape(text) : text }
        let expanded = expandingTilde(path, environment: environment, literal: literal)
        if expanded.hasPrefix("/") { return (expanded as NSString).standardizingPath }
        return ((literal(base) as NSString).appendingPathComponent(expanded) as NSString).standardizingPath
    }

    /// `~` and `~/…` from `$HOME`, which is what a cron job, a systemd unit or a container sets (their user's
    /// password-database entry may name another folder, or none); the password database only when `HOME` is
    /// unset or empty. `~name/…` is that user's home folder. `literal` escapes the home folder for a glob.
    static func expandingTilde(
        _ path: String, environment: [String: String], literal: (String) -> String = { $0 }
    ) -> String {
        guard path.hasPrefix("~") else { return path }
        let nameEnd = path.firstIndex(of: "/") ?? path.endIndex
        let user = String(path[path.index(after: path.startIndex)..<nameEnd])
        let home: String?
        if user.isEmpty {
            home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordDatabaseHome(of: nil)
        } else {
            home = passwordDatabaseHome(of: user)
        }
        guard let home else { return path }
        return literal(home) + path[nameEnd...]
    }

    /// The home folder of `user` (nil: the current user) in the password database.
    static func passwordDatabaseHome(of user: String?) -> String? {
        let entry = user.map { getpwnam($0) } ?? getpwuid(getuid())
        guard let directory = entry?.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
