/// The names of category values by their raw number, for the iOS 8/9 format, which wrote the number of
/// HealthKit's enum (`value="1"`) where later exports write the name (`HKCategoryValueSleepAnalysisAsleep`).
extension TypeCatalog {
    /// What an integer category value of an iOS 8/9 record stands for.
    public enum LegacyCategoryValue: Equatable, Sendable {
        /// The name the exports of that era wrote, which the rest of the tool (rollups, `sleep`) understands.
        case named(String)
        /// NotApplicable (0) of a type without values (sexual activity, bleeding): modern exports write no
        /// value at all.
        case valueless
    }

    /// Nil for a number the type's enum does not have, and for types missing from the catalog.
    public static func legacyCategoryValue(type: String, raw: Int) -> LegacyCategoryValue? {
        if let name = legacyValueNames[type]?[raw] { return .named(name) }
        if raw == 0, categoryTypes[type] == "HKCategoryValue" { return .valueless }
        return nil
    }

    /// Type → raw number → full name, built once from the generated cases, so every record of a type shares
    /// one string per value.
    private static let legacyValueNames: [String: [Int: String]] = {
        var names: [String: [Int: String]] = [:]
        for (type, enumText) in categoryTypes {
            // The catalog's enum column may carry a note after the name ("… (was …)").
            let enumName =
                categoryValueEnumsInExports[type] ?? enumText.split(separator: " ").first.map(String.init) ?? ""
            guard let cases = categoryValueCases[enumName] else { continue }
            names[type] = cases.mapValues { enumName + $0 }
        }
        return names
    }()
}
