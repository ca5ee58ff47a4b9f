import HealthModel

/// Rollup values of shorter periods combined into a longer one, per statistic, as the rollups compute them: a
/// sum (cumulative types, category hours, counts) is the sum of the parts, because the parts split time without
/// overlap and each stretch was already given to one source; a minimum is the least minimum and a maximum the
/// greatest; an average is the mean of the parts weighted by their reading counts (the rollups' `avg` is the
/// plain mean of readings, so this is exactly the longer period's mean). Years come from months (or days).
package struct RollupCombination {
    package enum Rule: Equatable {
        case sum, minimum, maximum, countWeightedMean
    }

    package static func rule(for statistic: String) -> Rule {
        switch statistic {
        case RollupStatistic.minimum: return .minimum
        case RollupStatistic.maximum: return .maximum
        case RollupStatistic.average: return .countWeightedMean
        default: return .sum
        }
    }

    package let rule: Rule
    private var total = 0.0
    private var compensation = 0.0
    private var weight = 0.0
    private var extreme: Double?
    package private(set) var parts = 0
    /// The distinct `sources` texts of the parts, split only when asked (most days repeat the same text).
    private var sourceTexts: Set<String> = []

    package init(statistic: String) { rule = Self.rule(for: statistic) }

    /// Adds one part: its value, its reading count (averages only) and its `sources` text (`A; B`).
    package mutating func add(_ value: Double, count: Double?, sources: String?) {
        parts += 1
        if let sources { sourceTexts.insert(sources) }
        switch rule {
        case .sum: addCompensated(value)
        case .minimum: extreme = min(extreme ?? value, value)
        case .maximum: extreme = max(extreme ?? value, value)
        case .countWeightedMean:
            let readings = count ?? 1
            addCompensated(value * readings)
            weight += readings
        }
    }

    /// Neumaier's compensated sum, as the rollup engine adds.
    private mutating func addCompensated(_ value: Double) {
        let sum = total + value
        compensation += abs(total) >= abs(value) ? (total - sum) + value : (value - sum) + total
        total = sum
    }

    package var value: Double? {
        guard parts > 0 else { return nil }
        switch rule {
        case .sum: return total + compensation
        case .minimum, .maximum: return extreme
        case .countWeightedMean: return weight > 0 ? (total + compensation) / weight : nil
        }
    }

    /// The sources of all parts, each once.
    package var sources: Set<String> { Set(sourceTexts.flatMap(Self.split)) }

    /// The names in a `sources` value, which the rollups join with `; `.
    package static func split(_ sources: String) -> [String] {
        sources.split(separator: "; ").map(String.init)
    }
}
