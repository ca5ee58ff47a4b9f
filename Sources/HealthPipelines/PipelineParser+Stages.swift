import Foundation
import HealthModel
import HealthRollups
import HealthStore

/// The `stages` list: each stage at most once, a missing stage on with its defaults, `"enabled": false` off.
extension PipelineParser {
    static let stageFields: [String: [String]] = [
        "units": ["stage", "enabled"],
        "valence": ["stage", "enabled"],
        "dedup": ["stage", "enabled", "exactDuplicates", "syncVersions"],
        "rollups": ["stage", "enabled", "periods", "priority"],
    ]
    /// In the order they run, for messages.
    static let stageNames = ["units", "valence", "dedup", "rollups"]

    mutating func parseStages(_ value: Any, into definition: inout PipelineDefinition) {
        guard let stages = reader.array(value, at: "stages") else { return }
        var seen: [String: String] = [:]
        for (index, element) in stages.enumerated() {
            let path = PipelineJSONReader.path("stages", index)
            guard let name = stageName(element, at: path) else { continue }
            if let first = seen[name] {
                reader.report(
                    PipelineJSONReader.path(path, "stage"), "stage '\(name)' appears twice (first at \(first))")
                continue
            }
            seen[name] = path
            guard
                let stage = reader.object(
                    element, at: path, allowed: Self.stageFields[name] ?? [], owner: "stage '\(name)'")
            else { continue }
            var enabled = true
            if let value = stage["enabled"], let flag = reader.bool(value, at: PipelineJSONReader.path(path, "enabled"))
            {
                enabled = flag
            }
            switch name {
            case "units": definition.unitsEnabled = enabled
            case "valence": definition.valenceEnabled = enabled
            case "dedup":
                definition.dedupEnabled = enabled
                if let flag = optionalBool(stage, "exactDuplicates", in: path) {
                    definition.dedupExactDuplicates = flag
                }
                if let flag = optionalBool(stage, "syncVersions", in: path) { definition.dedupSyncVersions = flag }
            default:
                definition.rollupsEnabled = enabled
                parseRollups(stage, at: path, into: &definition.rollups)
            }
        }
    }

    /// The stage's name when the element is an object with a known `stage`; reports what is wrong otherwise.
    private mutating func stageName(_ element: Any, at path: String) -> String? {
        guard let object = element as? [String: Any] else {
            reader.report(path, PipelineJSONReader.mismatch("an object", element))
            return nil
        }
        guard let value = object["stage"] else {
            reader.report(path, "missing field 'stage' (one of: \(Self.stageNames.joined(separator: ", ")))")
            return nil
        }
        let namePath = PipelineJSONReader.path(path, "stage")
        guard let name = reader.string(value, at: namePath) else { return nil }
        guard Self.stageFields[name] != nil else {
            let hint =
                PipelineJSONReader.suggestion(for: name, among: Self.stageNames).map { "did you mean '\($0)'?" }
                ?? "allowed: \(Self.stageNames.joined(separator: ", "))"
            reader.report(namePath, "unknown stage '\(name)' (\(hint))")
            return nil
        }
        return name
    }

    mutating func optionalBool(_ object: [String: Any], _ key: String, in path: String) -> Bool? {
        guard let value = object[key] else { return nil }
        return reader.bool(value, at: PipelineJSONReader.path(path, key))
    }

    private mutating func parseRollups(_ stage: [String: Any], at path: String, into options: inout RollupOptions) {
        if let value = stage["periods"] {
            let periodsPath = PipelineJSONReader.path(path, "periods")
            var periods: [RollupPeriod] = []
            let allowed = RollupPeriod.allCases.map(\.rawValue)
            for (index, word) in reader.strings(value, at: periodsPath, what: "period") ?? [] {
                let wordPath = PipelineJSONReader.path(periodsPath, index)
                guard let period = RollupPeriod(rawValue: word) else {
                    reader.report(wordPath, "unknown period '\(word)' (allowed: \(allowed.joined(separator: ", ")))")
                    continue
                }
                if periods.contains(period) {
                    reader.report(wordPath, "period '\(word)' appears twice")
                } else {
                    periods.append(period)
                }
            }
            if !periods.isEmpty { options.periods = periods }
        }
        if let value = stage["priority"] {
            let priorityPath = PipelineJSONReader.path(path, "priority")
            // Its keys are types, checked one by one below, so no list of allowed fields here.
            guard let table = value as? [String: Any] else {
                reader.report(priorityPath, PipelineJSONReader.mismatch("an object", value))
                return
            }
            parsePriorities(table, at: priorityPath, into: &options)
        }
    }

    /// `"default"` and type identifiers, each a list of `SourcePriority` words.
    private mutating func parsePriorities(_ table: [String: Any], at path: String, into options: inout RollupOptions) {
        for key in table.keys.sorted() {
            let keyPath = PipelineJSONReader.path(path, key)
            if key != "default", !TypeCatalog.isKnown(key) {
                // Rollups exist for quantity and category types only, so workouts and correlations are no keys.
                let hint =
                    PipelineJSONReader.suggestion(
                        for: key, among: ["default"] + PipelineTypes.all.filter(TypeCatalog.isKnown)
                    )
                    .map { "did you mean '\($0)'?" } ?? "keys are 'default' or quantity and category type identifiers"
                reader.report(keyPath, "unknown type '\(key)' (\(hint))")
                continue
            }
            guard let words = reader.strings(table[key]!, at: keyPath, what: "source priority word") else { continue }
            var rules: [SourcePriority.Rule] = []
            for (index, word) in words {
                do {
                    rules.append(try SourcePriority.Rule(parsing: word))
                } catch {
                    let allowed = SourcePriority.Rule.allowedWords.joined(separator: ", ")
                    reader.report(
                        PipelineJSONReader.path(keyPath, index), "unknown word '\(word)' (allowed: \(allowed))")
                }
            }
            guard rules.count == words.count else { continue }
            if key == "default" {
                options.priority = SourcePriority(rules: rules)
            } else {
                options.priorityByType[key] = SourcePriority(rules: rules)
            }
        }
    }
}
