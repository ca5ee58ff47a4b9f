import HealthModel

/// The tables whose rows a re-import matches one by one: a row the new export still has is left alone, a new
/// one is added, and one it no longer has is moved to `deleted_samples` (docs/incremental.md).
enum TrackedTable: Int, CaseIterable {
    case cumulative, discrete, category, correlations, workouts

    var name: String {
        switch self {
        case .cumulative: "cumulative_samples"
        case .discrete: "discrete_samples"
        case .category: "category_samples"
        case .correlations: "correlations"
        case .workouts: "workouts"
        }
    }

    init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// The three sample tables, each stored compactly.
    static let sampleTables: [TrackedTable] = [.cumulative, .discrete, .category]

    /// The stored table: the compact one (`cumulative_rows`) for the sample tables, whose public names are views.
    var storageName: String {
        switch self {
        case .cumulative: "cumulative_rows"
        case .discrete: "discrete_rows"
        case .category: "category_rows"
        case .correlations, .workouts: name
        }
    }

    /// The column holding the type; workouts are one data type in HealthKit (their activity type varies).
    var typeColumn: String { self == .workouts ? "activity_type" : "type" }
    static let workoutType = TypeCatalog.workoutType
}
