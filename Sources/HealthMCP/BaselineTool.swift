import HealthJSON
import HealthSQLite

/// `baseline`: one or more metrics on a day or over a range against the person's normal, from `baselines`
/// (docs/baselines.md): the normal of the 28 days before each day, its z-score, its rank in the last year and
/// the trend of the last 90 days, so an assistant answers "is my resting heart rate up?" without arithmetic.
enum BaselineTool {
    static let definition = ToolDefinition(
        name: "baseline", title: "Against my normal",
        description: """
            One or more daily metrics on a day or over a range against the person's own \
            normal: for each day with a value, the mean, standard deviation, median and robust spread (MAD × \
            1.4826) of the 28 days before it (null with fewer than 14 days of data), the z-score (value − mean) \
            / sd, the percentile among the last 365 days, and the trend of the last 90 days as a slope per 30 \
            days with its 95 % interval (an interval that excludes 0 is a change the data supports). Days \
            without a value are left out; the days past the answer budget are left for a next call from \
            next_start. Definitions: resource healthetl://docs/schema, table baselines.
            """,
        inputSchema: SchemaBuilder.object(
            [
                (
                    "metrics",
                    SchemaBuilder.array(
                        SchemaBuilder.string(), "1 to 10 metric names (RestingHeartRate, Steps, HKQuantityType…).")
                ),
                ("start", SchemaBuilder.date("The day, or the first day of the range (YYYY-MM-DD).")),
                ("end", SchemaBuilder.date("The last day, inclusive; default: start.")),
                ("statistic", SchemaBuilder.string("For every metric: sum, avg, min, max, count, <Value>_hours.")),
            ], required: ["metrics", "start"]),
        outputSchema: SchemaBuilder.object(
            [
                ("start", SchemaBuilder.string()), ("end", SchemaBuilder.string()),
                ("columns", SchemaBuilder.array(SchemaBuilder.string(), "Of every day row.")),
                (
                    "metrics",
                    SchemaBuilder.array(
                        SchemaBuilder.object([
                            ("metric", DailyColumn.outputSchema), ("days_with_data", SchemaBuilder.integer()),
                            (
                                "days",
                                SchemaBuilder.array(
                                    SchemaBuilder.array(.object([("type", ["string", "number", "integer", "null"])])),
                                    "One row per day with a value, as columns says.")
                            ), ("truncated", SchemaBuilder.boolean()),
                        ]))
                ),
                ("next_start", SchemaBuilder.nullable("string", "The first day left out by the answer budget.")),
                ("hint", SchemaBuilder.nullable("string")),
            ], required: ["start", "end", "columns", "metrics", "next_start"]),
        call: { context, arguments in try run(context, arguments) })

    static let numbers = [
        "value", "mean", "sd", "median", "mad", "z", "percentile_365", "slope_30d", "slope_low", "slope_high",
    ]
    static let counts = ["n", "n_365", "n_90"]

    static let columns = ["date"] + numbers + counts

    /// How each number of a row is rounded: the metric's values and spreads by its unit (`Precision`), slopes with
    /// three significant digits, z to 0.01, the percentile to 0.1.
    static func rounding(_ name: String, _ column: DailyColumn) -> Precision.Rounding {
        let values = Precision.rounding(unit: column.unit, statistic: column.statistic)
        switch name {
        case "z": return Precision.Rounding(decimals: 2, keepsSmallValues: false)
        case "percentile_365": return Precision.Rounding(decimals: 1, keepsSmallValues: false)
        case "slope_30d", "slope_low", "slope_high": return SeriesSummary.trendRounding(values)
        default: return values
        }
    }

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        guard let names = try arguments.strings("metrics", count: 1...10) else {
            throw ToolError.argument(name: "metrics", reason: "is required")
        }
        let start = try arguments.requiredDate("start")
        let end = try arguments.date("end") ?? start
        guard start <= end else { throw ToolError.argument(name: "end", reason: "\(end) is before start \(start)") }
        let statistic = try arguments.string("statistic")
        return try context.database.read { db in
            // Each metric gets its share of the budget, after what every answer holds.
            let share = max(0, context.limits.answerBudget - 600 - 400 * names.count) / names.count
            var nextStart: String?
            var results: [JSON] = []
            var lines: [String] = []
            let statement = try db.prepare(
                "SELECT date, " + (numbers + counts).joined(separator: ", ")
                    + " FROM baselines WHERE column_name = ?1 AND date >= ?2 AND date <= ?3 ORDER BY date")
            for name in names {
                let column = try DailyColumn.resolve(
                    name, statistic: statistic, argument: "metrics", context: context, db)
                var days: [JSON] = []
                var withData = 0
                var budget = AnswerBudget(rows: context.limits.maximumRows, bytes: share)
                lines.append(
                    "\(column.metric.displayName) (\(column.name)\(column.unit.map { ", " + $0 } ?? "")), "
                        + "per day against the 28 days before:")
                try statement.forEachRowBound([
                    .text(column.name), .text(start.description), .text(end.description),
                ]) { row in
                    withData += 1
                    var members: [(String, JSON)] = [("date", .string(row.text(0) ?? ""))]
                    for (offset, number) in numbers.enumerated() {
                        let index = Int32(offset + 1)
                        members.append(
                            (number, row.isNull(index) ? .null : .rounded(row.double(index), rounding(number, column))))
                    }
                    for (offset, count) in counts.enumerated() {
                        members.append((count, .integer(row.integer(Int32(numbers.count + offset + 1)))))
                    }
                    let day = JSON.array(members.map(\.1))
                    let text = line(column, .object(members))
                    if budget.admit(day, line: text) {
                        days.append(day)
                        lines.append(text)
                    } else if days.count + 1 == withData, let date = row.text(0) {
                        nextStart = min(nextStart ?? date, date)
                    }
                }
                results.append(
                    .object([
                        ("metric", column.json), ("days_with_data", .integer(Int64(withData))),
                        ("days", .array(days)), ("truncated", .bool(days.count < withData)),
                    ]))
                if withData == 0 { lines.append("\(column.metric.displayName): no value from \(start) to \(end).") }
            }
            let hint = nextStart.map {
                "The answer budget holds the days before \($0): call again with start \($0) for the rest, or ask for fewer "
                    + "metrics or a shorter range."
            }
            if let hint { lines.append(hint) }
            let structured: JSON = .object([
                ("start", .string(start.description)), ("end", .string(end.description)),
                ("columns", .array(columns.map(JSON.string))), ("metrics", .array(results)),
                ("next_start", .text(nextStart)), ("hint", .text(hint)),
            ])
            return ToolAnswer(structured: structured, text: lines.joined(separator: "\n"))
        }
    }

    /// `2024-03-31 61: normal 55.2 ± 2.1 (n 27), z +2.8, percentile 97, trend +0.4 per 30 days [−0.1, +0.9]`
    /// (the metric and its unit are said once, above its days).
    static func line(_ column: DailyColumn, _ day: JSON) -> String {
        func number(_ name: String) -> Double? {
            if case .number(let value)? = day[name] { return value }
            return nil
        }
        let values = Precision.rounding(unit: column.unit, statistic: column.statistic)
        func shown(_ name: String) -> String { TextRendering.value(number(name), values) }
        var text = "\(day["date"]?.stringValue ?? "") " + shown("value")
        if number("mean") != nil, number("sd") != nil {
            text += ": normal \(shown("mean")) ± \(shown("sd")) (n \(day["n"]?.integerValue ?? 0))"
            if let z = number("z") { text += ", z \(signed(z))" }
        } else {
            text += ": no normal yet (\(day["n"]?.integerValue ?? 0) of the 14 days needed)"
        }
        if let percentile = number("percentile_365") {
            text += ", percentile \(TextRendering.fixed(percentile, decimals: 0))"
        }
        if let slope = number("slope_30d"), let low = number("slope_low"), let high = number("slope_high") {
            text += ", trend \(signed(slope)) per 30 days [\(signed(low)), \(signed(high))]"
        }
        return text
    }

    static func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "−") + TextRendering.fixed(abs(value), decimals: abs(value) >= 10 ? 1 : 2)
    }
}
