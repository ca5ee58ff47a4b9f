import HealthModel

/// Unit normalization: every quantity to its type's canonical unit.
///
/// Values arrive in the user's display units (`lb`, `mi`, `Cal`, `degF`, `mmol<180.1558800000541>/L`, …). The
/// stage converts each quantity to the canonical unit of its type (`quantity-types.tsv`), keeping the
/// exported value and unit in `rawValue`/`rawUnit`. A unit it cannot read, or one of the wrong dimension for
/// the type, is left as exported, flagged and counted: never guessed. Workout statistics and totals, Activity
/// ring energy and quantity-valued metadata (`418 cm`, `56 degF`) are converted the same way.
public struct UnitStage: ExportStage {
    public let name = "units"
    public var report: [String: Int] {
        var converted = converted
        if let run = conversionRun { converted[run.from + " → " + run.to, default: 0] += run.count }
        return problems.merging(converted.map { ("records converted " + $0.key, $0.value) }, uniquingKeysWith: +)
    }
    var problems: [String: Int] = [:]
    private var converted: [String: Int] = [:]
    /// Conversions counted as runs of one (from, to) pair, as samples arrive type by type: counting each in
    /// `converted` built a key string and hashed it for every converted sample.
    private var conversionRun: (from: String, to: String, count: Int)?
    let conversions = UnitConversionCache()
    private var metadataTargets: [String: String?] = [:]

    public init() {}

    public mutating func process(_ item: consuming ExportItem, emit: (consuming ExportItem) throws -> Void) throws {
        switch item {
        case .sample(let sample):
            // Most samples are already in their canonical unit and carry no metadata: pass those on untouched
            // (rebuilding the item would retain and release every field of millions of samples).
            guard needsWork(sample) else {
                try emit(item)
                return
            }
            var changed = sample
            item = .header(locale: nil, exportDate: nil)  // let go of the item's copy: no array is copied on write
            normalize(&changed)
            try emit(.sample(changed))
        case .correlation(var correlation):
            // Children repeat top-level records, which were counted already.
            for index in correlation.children.indices { normalize(&correlation.children[index], counted: false) }
            normalizeMetadata(&correlation.metadata)
            try emit(.correlation(correlation))
        case .workout(var workout):
            normalize(&workout)
            try emit(.workout(workout))
        case .activitySummary(var summary):
            normalize(&summary)
            try emit(.activitySummary(summary))
        case let other:
            try emit(other)
        }
    }

    private var lastCanonical: (type: String, unit: String?) = ("", nil)

    private mutating func needsWork(_ sample: Sample) -> Bool {
        if !sample.metadata.isEmpty { return true }
        guard let unit = sample.unit, !sample.isCategory else { return false }
        if lastCanonical.type != sample.type {
            lastCanonical = (sample.type, TypeCatalog.quantityInfo(sample.type)?.canonicalUnit)
        }
        return lastCanonical.unit != nil && lastCanonical.unit != unit
    }

    mutating func normalize(_ sample: inout Sample, counted: Bool = true) {
        if !sample.metadata.isEmpty { normalizeMetadata(&sample.metadata) }
        guard !sample.isCategory, let value = sample.value, let unit = sample.unit else { return }
        guard let target = TypeCatalog.quantityInfo(sample.type)?.canonicalUnit else { return }
        if unit == target { return }
        guard let converter = conversions.converter(from: unit, to: target) else {
            sample.flags.insert(.unitNotConvertible)
            problems[
                "records whose unit does not convert to the type's unit (kept as exported): \(unit)", default: 0] += 1
            return
        }
        sample.rawValue = value
        sample.rawUnit = unit
        sample.value = converter.convert(value)
        sample.unit = target
        if counted { countConversion(from: unit, to: target) }
    }

    mutating func countConversion(from unit: String, to target: String, count: Int = 1) {
        if let run = conversionRun, run.from == unit, run.to == target {
            conversionRun?.count += count
            return
        }
        if let run = conversionRun { converted[run.from + " → " + run.to, default: 0] += run.count }
        conversionRun = (unit, target, count)
    }

    mutating func normalize(_ workout: inout Workout) {
        normalizeMetadata(&workout.metadata)
        for index in workout.statistics.indices {
            var statistic = workout.statistics[index]
            guard let unit = statistic.unit, let target = TypeCatalog.quantityInfo(statistic.type)?.canonicalUnit,
                unit != target
            else { continue }
            guard let converter = conversions.converter(from: unit, to: target) else {
                problems["workout statistics whose unit does not convert (kept as exported): \(unit)", default: 0] += 1
                continue
            }
            statistic.rawUnit = unit
            statistic.sum = statistic.sum.map(converter.convert)
            statistic.average = statistic.average.map(converter.convert)
            statistic.minimum = statistic.minimum.map(converter.convert)
            statistic.maximum = statistic.maximum.map(converter.convert)
            statistic.unit = target
            workout.statistics[index] = statistic
        }
        for index in workout.activities.indices { normalizeMetadata(&workout.activities[index].metadata) }
        // iOS ≤ 15 totals: distance in metres, energy in kilocalories, as the catalog's distance/energy types.
        workout.rawTotalDistance = convertTotal(&workout.totalDistance, &workout.totalDistanceUnit, to: "m")
        workout.rawTotalEnergyBurned = convertTotal(
            &workout.totalEnergyBurned, &workout.totalEnergyBurnedUnit, to: "kcal")
    }

    /// Converts an old-style workout total in place; returns what was exported when it changed it.
    private mutating func convertTotal(_ value: inout Double?, _ unit: inout String?, to target: String) -> (
        value: Double, unit: String
    )? {
        guard let exported = value, let exportedUnit = unit, exportedUnit != target else { return nil }
        guard let converter = conversions.converter(from: exportedUnit, to: target) else {
            problems["workout totals whose unit does not convert (kept as exported): \(exportedUnit)", default: 0] += 1
            return nil
        }
        value = converter.convert(exported)
        unit = target
        return (exported, exportedUnit)
    }

    mutating func normalize(_ summary: inout ActivitySummary) {
        guard let unit = summary.activeEnergyBurnedUnit, unit != "kcal" else { return }
        guard let converter = conversions.converter(from: unit, to: "kcal") else {
            problems["activity summaries whose energy unit does not convert (kept as exported): \(unit)", default: 0] +=
                1
            return
        }
        summary.rawActiveEnergyBurnedUnit = unit
        for index in summary.values.indices where summary.values[index].name.hasPrefix("activeEnergyBurned") {
            summary.values[index].value = converter.convert(summary.values[index].value)
        }
        summary.activeEnergyBurnedUnit = "kcal"
    }

    /// `"418 cm"` → 4.18 m; `"56 degF"` → 13.3 degC; `HKWeatherHumidity` `"6900 %"` → 69 %.
    mutating func normalizeMetadata(_ entries: inout [MetadataEntry]) {
        for index in entries.indices {
            guard var value = entries[index].number, let unit = entries[index].numberUnit else { continue }
            if entries[index].key == "HKWeatherHumidity", unit == "%", value > 100 {
                // Newer exports write the percentage × 100 (6900 % for 69 %).
                value /= 100
                problems["HKWeatherHumidity values written ×100, divided by 100", default: 0] += 1
            }
            guard let target = metadataTarget(for: unit), target != unit,
                let converter = conversions.converter(from: unit, to: target)
            else {
                entries[index].number = value
                continue
            }
            entries[index].number = converter.convert(value)
            entries[index].numberUnit = target
        }
    }

    /// The unit metadata quantities are stored in: the first of these with the same dimension.
    static let metadataUnits = ["m", "kg", "s", "degC", "kcal", "m/s", "count/min", "mmHg", "L", "kcal/hr·kg"]

    mutating func metadataTarget(for unit: String) -> String? {
        if let known = metadataTargets[unit] { return known }
        let parsed = HealthUnit.parse(unit)
        let target = parsed.flatMap { source in
            Self.metadataUnits.first { HealthUnit.parse($0).map(source.isConvertible(to:)) == true }
        }
        metadataTargets[unit] = target
        return target
    }
}
