import HealthJSON
import HealthModel
import HealthRollups
import HealthSQLite

/// What a series, nights, workouts or samples answer opens with, so that most questions are answered without
/// reading its rows: how many values, their mean and median, the least and greatest with where they are, the
/// trend over the range (ordinary least squares on the day, per 30 days, with its 95 % interval: t with n − 2
/// degrees of freedom), the last value, and the person's normal on the last day where `baselines` has one.
struct SeriesSummary {
    struct Point {
        /// Days (a fraction for an instant) since 1970-01-01: the trend's axis.
        var day: Double
        var label: String
        var value: Double
    }

    struct Trend {
        var perThirtyDays: Double
        var low: Double
        var high: Double
    }

    /// The normal of the 28 days before a day, from `baselines` (docs/baselines.md).
    struct Normal {
        var date: String
        var value: Double
        var mean: Double
        var sd: Double?
        var z: Double?
    }

    var count = 0
    var mean: Double?
    var median: Double?
    var minimum: Point?
    var maximum: Point?
    var last: Point?
    var trend: Trend?
    var normal: Normal?

    /// The summary of `points`, in the order of their day (the first of equal extremes is kept).
    init(_ points: [Point]) {
        count = points.count
        guard !points.isEmpty else { return }
        var total = 0.0
        for point in points {
            total += point.value
            if minimum == nil || point.value < minimum!.value { minimum = point }
            if maximum == nil || point.value > maximum!.value { maximum = point }
        }
        let meanValue = total / Double(points.count)
        mean = meanValue
        let sorted = points.map(\.value).sorted()
        let half = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
        last = points.last
        trend = Self.fit(points, meanValue: meanValue)
    }

    private static func fit(_ points: [Point], meanValue: Double) -> Trend? {
        guard points.count >= 3 else { return nil }
        let meanDay = points.reduce(0) { $0 + $1.day } / Double(points.count)
        var sxx = 0.0
        var sxy = 0.0
        for point in points {
            let dx = point.day - meanDay
            sxx += dx * dx
            sxy += dx * (point.value - meanValue)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        var residuals = 0.0
        for point in points {
            let residual = point.value - meanValue - slope * (point.day - meanDay)
            residuals += residual * residual
        }
        let standardError = (residuals / Double(points.count - 2) / sxx).squareRoot()
        let t = StudentT.quantile(central: 0.95, degrees: points.count - 2)
        return Trend(
            perThirtyDays: 30 * slope, low: 30 * (slope - t * standardError), high: 30 * (slope + t * standardError))
    }

    /// The latest day of `range` with a normal in `baselines` for a daily column (`StepCount_sum`).
    static func normal(_ db: SQLiteConnection, column: String, range: ClosedRange<LocalDate>) throws -> Normal? {
        var found: Normal?
        try db.prepare(
            """
            SELECT date, value, mean, sd, z FROM baselines WHERE column_name = ?1 AND date >= ?2 AND date <= ?3
            AND mean IS NOT NULL ORDER BY date DESC LIMIT 1
            """
        ).forEachRowBound([.text(column), .text(range.lowerBound.description), .text(range.upperBound.description)]) {
            row in
            found = Normal(
                date: row.text(0) ?? "", value: row.double(1), mean: row.double(2),
                sd: row.isNull(3) ? nil : row.double(3), z: row.isNull(4) ? nil : row.double(4))
        }
        return found
    }

    /// A trend is small beside its values (steps change by tens a month): three significant digits always.
    static func trendRounding(_ rounding: Precision.Rounding) -> Precision.Rounding {
        Precision.Rounding(decimals: rounding.decimals, keepsSmallValues: true)
    }

    func json(_ rounding: Precision.Rounding) -> JSON {
        let slope = Self.trendRounding(rounding)
        func point(_ point: Point?) -> JSON {
            guard let point else { return .null }
            return .object([("label", .string(point.label)), ("value", .rounded(point.value, rounding))])
        }
        return .object([
            ("count", .integer(Int64(count))), ("mean", .rounded(mean, rounding)),
            ("median", .rounded(median, rounding)), ("min", point(minimum)), ("max", point(maximum)),
            ("last", point(last)),
            (
                "trend",
                trend.map { trend in
                    .object([
                        ("per_30_days", .rounded(trend.perThirtyDays, slope)),
                        ("low", .rounded(trend.low, slope)), ("high", .rounded(trend.high, slope)),
                    ])
                } ?? .null
            ),
            (
                "normal",
                normal.map { normal in
                    .object([
                        ("date", .string(normal.date)), ("value", .rounded(normal.value, rounding)),
                        ("mean", .rounded(normal.mean, rounding)), ("sd", .rounded(normal.sd, rounding)),
                        ("z", .real(normal.z.map { ($0 * 10).rounded() / 10 })),
                    ])
                } ?? .null
            ),
        ])
    }

    /// `mean 24,310, median 23,900, min 3,120 (2024-02-03), max 41,200 (2024-06-02), trend +120 per 30 days
    /// [−40, +280], last 22,035 (2024-12-31), normal on 2024-12-31 23,100 ± 4,200 (z +0.3)`.
    func text(_ rounding: Precision.Rounding) -> String {
        guard count > 0, let mean, let median, let minimum, let maximum, let last else { return "no data" }
        func number(_ value: Double) -> String { TextRendering.value(value, rounding) }
        let slope = Self.trendRounding(rounding)
        func signed(_ value: Double) -> String {
            (slope(value) >= 0 ? "+" : "") + TextRendering.value(value, slope)
        }
        var parts = [
            "mean \(number(mean))", "median \(number(median))", "min \(number(minimum.value)) (\(minimum.label))",
            "max \(number(maximum.value)) (\(maximum.label))",
        ]
        if let trend {
            parts.append(
                "trend \(signed(trend.perThirtyDays)) per 30 days [\(signed(trend.low)), \(signed(trend.high))]")
        }
        parts.append("last \(number(last.value)) (\(last.label))")
        if let normal {
            var text = "normal on \(normal.date) \(number(normal.mean))"
            if let sd = normal.sd { text += " ± \(number(sd))" }
            if let z = normal.z {
                text +=
                    " (value \(number(normal.value)), z \(z >= 0 ? "+" : "-")\(TextRendering.fixed(abs(z), decimals: 1)))"
            }
            parts.append(text)
        }
        return parts.joined(separator: ", ")
    }

    static let schema: JSON = {
        let point = nullableObject([("label", SchemaBuilder.string()), ("value", SchemaBuilder.number())])
        return SchemaBuilder.object(
            [
                ("count", SchemaBuilder.integer("Values summarised.")),
                ("mean", SchemaBuilder.nullable("number")), ("median", SchemaBuilder.nullable("number")),
                ("min", point), ("max", point), ("last", point),
                (
                    "trend",
                    nullableObject([
                        ("per_30_days", SchemaBuilder.number("Least-squares slope per 30 days.")),
                        ("low", SchemaBuilder.number("95 % interval, lower end.")),
                        ("high", SchemaBuilder.number("95 % interval, upper end.")),
                    ])
                ),
                (
                    "normal",
                    nullableObject([
                        ("date", SchemaBuilder.string()), ("value", SchemaBuilder.number()),
                        ("mean", SchemaBuilder.number("Mean of the 28 days before (baselines).")),
                        ("sd", SchemaBuilder.nullable("number")), ("z", SchemaBuilder.nullable("number")),
                    ])
                ),
            ], required: ["count", "mean", "median", "min", "max", "last", "trend", "normal"])
    }()

    static func nullableObject(_ properties: [(String, JSON)]) -> JSON {
        .object([
            ("type", ["object", "null"]), ("properties", .object(properties)),
            ("required", .array(properties.map { JSON.string($0.0) })), ("additionalProperties", false),
        ])
    }
}
