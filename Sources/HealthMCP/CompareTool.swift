import HealthJSON
import HealthSQLite

/// `compare`: one daily metric over two periods ("did my sleep change since I started running?"): the days with
/// data in each, their means and standard deviations, the difference, and its size in standard deviations.
/// The periods may be as long as the dates allow: the answer is a few numbers, and the rows read are the days with
/// data, which the database bounds, not the range.
enum CompareTool {
    static let definition = ToolDefinition(
        name: "compare", title: "Compare two periods",
        description: """
            One daily metric over two periods of any length: days with data, mean and standard \
            deviation of the daily values in each, the difference of means (second − first), and the effect size: \
            Cohen's d (the difference over the pooled standard deviation) and Hedges' g (d corrected for small \
            samples); about 0.2 is small, 0.5 medium, 0.8 large. Days without a value are not zeros: they are left \
            out. The periods may overlap or be far apart; a difference is not a cause.
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("metric", SchemaBuilder.string("Identifier, short name (StepCount) or display name (Steps).")),
                ("first_start", SchemaBuilder.date("First day of the first period.")),
                ("first_end", SchemaBuilder.date("Last day of the first period, inclusive.")),
                ("second_start", SchemaBuilder.date("First day of the second period.")),
                ("second_end", SchemaBuilder.date("Last day of the second period, inclusive.")),
                (
                    "statistic",
                    SchemaBuilder.string("sum, avg, min, max, count, <Value>_hours; default as metric_series.")
                ),
            ], required: ["metric", "first_start", "first_end", "second_start", "second_end"]),
        outputSchema: SchemaBuilder.object(
            [
                ("metric", DailyColumn.outputSchema), ("first", periodShape), ("second", periodShape),
                ("difference", SchemaBuilder.nullable("number", "Mean of the second minus mean of the first.")),
                ("cohens_d", SchemaBuilder.nullable("number")), ("hedges_g", SchemaBuilder.nullable("number")),
            ], required: ["metric", "first", "second", "difference", "cohens_d", "hedges_g"]),
        call: { context, arguments in try run(context, arguments) })

    static var periodShape: JSON {
        SchemaBuilder.object([
            ("start", SchemaBuilder.string()), ("end", SchemaBuilder.string()),
            ("days_with_data", SchemaBuilder.integer()), ("mean", SchemaBuilder.nullable("number")),
            ("sd", SchemaBuilder.nullable("number")),
        ])
    }

    struct Effect: Equatable {
        var difference: Double?
        var cohensD: Double?
        var hedgesG: Double?
    }

    /// The difference of means and its effect size; d needs two values in each period and some spread.
    static func effect(_ first: [Double], _ second: [Double]) -> Effect {
        let (a, b) = (DailyColumn.meanAndSD(first), DailyColumn.meanAndSD(second))
        guard let meanA = a.mean, let meanB = b.mean else { return Effect() }
        var effect = Effect(difference: meanB - meanA)
        guard let sdA = a.sd, let sdB = b.sd else { return effect }
        let (n1, n2) = (Double(first.count), Double(second.count))
        let pooled = (((n1 - 1) * sdA * sdA + (n2 - 1) * sdB * sdB) / (n1 + n2 - 2)).squareRoot()
        guard pooled > 0 else { return effect }
        let d = (meanB - meanA) / pooled
        effect.cohensD = d
        effect.hedgesG = d * (1 - 3 / (4 * (n1 + n2) - 9))
        return effect
    }

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let name = try arguments.requiredString("metric")
        guard
            let first = try arguments.range(start: "first_start", end: "first_end", required: true),
            let second = try arguments.range(start: "second_start", end: "second_end", required: true)
        else { throw ToolError.argument(name: "first_start", reason: "is required") }
        let statistic = try arguments.string("statistic")
        return try context.database.read { db in
            let column = try DailyColumn.resolve(name, statistic: statistic, argument: "metric", context: context, db)
            let a = try column.values(db, first).map(\.value)
            let b = try column.values(db, second).map(\.value)
            let effect = effect(a, b)
            func period(_ range: ClosedRange<LocalDate>, _ values: [Double]) -> JSON {
                let (mean, sd) = DailyColumn.meanAndSD(values)
                return .object([
                    ("start", .string(range.lowerBound.description)), ("end", .string(range.upperBound.description)),
                    ("days_with_data", .integer(Int64(values.count))), ("mean", .real(mean)), ("sd", .real(sd)),
                ])
            }
            let structured: JSON = .object([
                ("metric", column.json), ("first", period(first, a)), ("second", period(second, b)),
                ("difference", .real(effect.difference)), ("cohens_d", .real(effect.cohensD)),
                ("hedges_g", .real(effect.hedgesG)),
            ])
            let unit = column.unit
            let text = """
                \(column.metric.displayName) (\(column.statistic) per day):
                first \(first.lowerBound) to \(first.upperBound): \(TextRendering.number(DailyColumn.meanAndSD(a).mean, unit: unit)) \
                on average over \(a.count) days with data
                second \(second.lowerBound) to \(second.upperBound): \(TextRendering.number(DailyColumn.meanAndSD(b).mean, unit: unit)) \
                on average over \(b.count) days with data
                difference \(TextRendering.number(effect.difference, unit: unit)), Cohen's d \(TextRendering.number(effect.cohensD)), \
                Hedges' g \(TextRendering.number(effect.hedgesG))
                """
            return ToolAnswer(structured: structured, text: text)
        }
    }
}
