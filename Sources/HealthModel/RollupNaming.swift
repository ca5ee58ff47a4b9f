/// Names of rollup statistics and of the columns that daily.csv makes from them.
public enum RollupNaming {
    /// `HKQuantityTypeIdentifierStepCount` → `StepCount`, `HKCategoryTypeIdentifierSleepAnalysis` →
    /// `SleepAnalysis`, `HKDataTypeSleepDurationGoal` → `SleepDurationGoal`; other text is returned as it is.
    public static func shortName(ofType type: String) -> String {
        if type.hasPrefix("HK"), let marker = type.range(of: "TypeIdentifier") {
            let rest = type[marker.upperBound...]
            if !rest.isEmpty { return String(rest) }
        }
        if type.hasPrefix("HKDataType"), type.count > "HKDataType".count {
            return String(type.dropFirst("HKDataType".count))
        }
        return type
    }

    /// The statistic of a category value: `<Value>_hours`, or `hours` for value-less categories.
    ///
    /// `HKCategoryValueSleepAnalysisAsleepCore` of `…SleepAnalysis` → `AsleepCore_hours`. Values of shared
    /// enums lose the enum's prefix (`HKCategoryValueSeverityMild` → `Mild_hours`); characters that are not
    /// letters, digits or `_` become `_` so the name stays a safe column name.
    public static func categoryStatistic(value: String?, typeIdentifier: String) -> String {
        guard let value, !value.isEmpty else { return "hours" }
        var prefixes = ["HKCategoryValue" + shortName(ofType: typeIdentifier)]
        // The catalog's enum column may carry a note after the name ("… (was …)").
        if let enumName = TypeCatalog.categoryTypes[typeIdentifier]?.split(separator: " ").first,
            enumName != "HKCategoryValue"
        {
            prefixes.append(String(enumName))
        }
        prefixes.append("HKCategoryValue")
        var stripped = Substring(value)
        for prefix in prefixes where value.hasPrefix(prefix) && value.count > prefix.count {
            stripped = value.dropFirst(prefix.count)
            break
        }
        let safe = String(
            String.UnicodeScalarView(
                stripped.unicodeScalars.map { scalar -> Unicode.Scalar in
                    let keep =
                        scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    return keep ? scalar : "_"
                }))
        return safe + "_hours"
    }

    /// The daily.csv column of a statistic: the short type name for a cumulative `sum`, otherwise the short
    /// name and the statistic joined by `_` (`HeartRate_avg`, `SleepAnalysis_AsleepCore_hours`).
    public static func metricColumn(typeIdentifier: String, statistic: String) -> String {
        let short = shortName(ofType: typeIdentifier)
        return statistic == RollupStatistic.sum ? short : short + "_" + statistic
    }
}

/// The statistic names of quantity rollups.
public enum RollupStatistic {
    public static let sum = "sum"
    public static let average = "avg"
    public static let minimum = "min"
    public static let maximum = "max"
    public static let count = "count"
}
