import HealthModel

/// Finds the metric a person or a model names: the HealthKit identifier (`HKQuantityTypeIdentifierStepCount`),
/// the short name (`StepCount`), the display name (`Step Count`), or a word the Health app uses where the display
/// name differs (`Steps`). Case, spaces and punctuation do not matter. An unknown name is an error listing the
/// nearest names, so the model can correct itself in one step.
package struct MetricResolver {
    package let metrics: [Metric]

    /// Words the Health app (and people) use for a type, beyond its display name. Keys are normalised.
    static let aliases: [String: String] = [
        "steps": "HKQuantityTypeIdentifierStepCount",
        "walkingrunningdistance": "HKQuantityTypeIdentifierDistanceWalkingRunning",
        "distance": "HKQuantityTypeIdentifierDistanceWalkingRunning",
        "flights": "HKQuantityTypeIdentifierFlightsClimbed",
        "hrv": "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
        "vo2max": "HKQuantityTypeIdentifierVO2Max",
        "spo2": "HKQuantityTypeIdentifierOxygenSaturation",
        "bodyweight": "HKQuantityTypeIdentifierBodyMass",
        "activecalories": "HKQuantityTypeIdentifierActiveEnergyBurned",
        "restingcalories": "HKQuantityTypeIdentifierBasalEnergyBurned",
        "exercise": "HKQuantityTypeIdentifierAppleExerciseTime",
        "standhours": "HKCategoryTypeIdentifierAppleStandHour",
        "mindfulness": "HKCategoryTypeIdentifierMindfulSession",
    ]

    package init(metrics: [Metric]) { self.metrics = metrics }

    /// Lower-case letters and digits only: `Step Count`, `step_count` and `StepCount` are one name.
    static func normalized(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
    }

    package func resolve(_ name: String, argument: String = "metric") throws(ToolError) -> Metric {
        let key = Self.normalized(name)
        guard !key.isEmpty else { throw ToolError.argument(name: argument, reason: "is required") }
        if let metric = metrics.first(where: { $0.identifier == name }) { return metric }
        for names in [\Metric.identifier, \Metric.shortName, \Metric.displayName] as [KeyPath<Metric, String>] {
            if let metric = metrics.first(where: { Self.normalized($0[keyPath: names]) == key }) { return metric }
        }
        if let identifier = Self.aliases[key], let metric = metrics.first(where: { $0.identifier == identifier }) {
            return metric
        }
        let shown = String(name.prefix(60))
        let suggestions = nearest(to: key)
        var message = "Unknown metric '\(shown)'."
        if TypeCatalog.isKnown(name) || TypeCatalog.isKnown("HKQuantityTypeIdentifier" + name) {
            message = "The database has no samples of '\(shown)'."
        }
        if !suggestions.isEmpty {
            message +=
                " Nearest names: "
                + suggestions.map { "\($0.displayName) (\($0.shortName))" }.joined(separator: ", ") + "."
        }
        message += " list_metrics lists every metric of the database."
        throw ToolError.notFound(message)
    }

    /// Up to three metrics whose names are closest to `key` (normalised), closest first; a name that contains
    /// the key, or that the key contains, counts as close.
    func nearest(to key: String) -> [Metric] {
        let scored = metrics.map { metric -> (Metric, Int) in
            let aliases = Self.aliases.filter { $0.value == metric.identifier }.map(\.key)
            let names = [metric.shortName, metric.displayName].map(Self.normalized) + aliases
            let distance =
                names.map { name in
                    name.contains(key) || key.contains(name) ? abs(name.count - key.count) / 4 : editDistance(name, key)
                }.min() ?? Int.max
            return (metric, distance)
        }
        let limit = max(3, key.count / 2)
        return scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0.displayName) < ($1.1, $1.0.displayName) }.prefix(3)
            .map(\.0)
    }
}
