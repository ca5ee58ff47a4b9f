/// How HealthKit aggregates a quantity type (`HKQuantityAggregationStyle`).
public enum AggregationStyle: String, Sendable {
    case cumulative
    case discreteArithmetic
    case discreteTemporallyWeighted
    case discreteEquivalentContinuousLevel

    public var isCumulative: Bool { self == .cumulative }
}

public struct QuantityTypeInfo: Sendable {
    public var style: AggregationStyle
    public var canonicalUnit: String
}

/// Every HealthKit quantity and category type the export can contain, from the SDK headers (generated from
/// the reference TSVs).
public enum TypeCatalog {
    /// The one data type of all workouts (their activity type varies): how filters and change counts name them.
    package static let workoutType = "HKWorkoutTypeIdentifier"

    public enum SampleKind: Sendable, Equatable {
        case cumulative
        case discrete
        case category
    }

    public static func quantityInfo(_ type: String) -> QuantityTypeInfo? { quantityTypes[type] }

    public static func isKnown(_ type: String) -> Bool {
        quantityTypes[type] != nil || categoryTypes[type] != nil
    }

    /// Which table a record goes to.
    ///
    /// Known types follow the catalog. An unknown type (a new iOS version, an `HKDataType…` name) goes by its
    /// shape: a `HKCategoryTypeIdentifier…` name, or a value that is not a number, makes a category; any
    /// other is a quantity, treated as *discrete*, because summing a type that is not cumulative would invent
    /// totals, while averaging a cumulative one only loses the total (the raw samples stay).
    public static func kind(of sample: Sample) -> SampleKind {
        kind(
            of: sample.type, hasValue: sample.value != nil, hasText: sample.textValue != nil,
            hasUnit: sample.unit != nil)
    }

    /// `kind(of:)` from the record's type and shape (a batch's row has no `Sample`).
    package static func kind(of type: String, hasValue: Bool, hasText: Bool, hasUnit: Bool) -> SampleKind {
        if let info = quantityTypes[type] { return info.style.isCumulative ? .cumulative : .discrete }
        if categoryTypes[type] != nil || Sample.isCategory(type: type) { return .category }
        if !hasValue, hasText, !hasUnit { return .category }
        return .discrete
    }
}
