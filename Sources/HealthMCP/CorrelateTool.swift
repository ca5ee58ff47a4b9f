import Foundation
import HealthJSON
import HealthSQLite

/// `correlate`: two daily metrics over a range, the second shifted by a lag ("what goes with my bad nights?"):
/// Spearman's rank correlation, robust to outliers and to any monotonic relation, with its 95 % interval.
/// The range may be as long as the dates allow, as `compare`'s (its answer is a few numbers).
enum CorrelateTool {
    static let definition = ToolDefinition(
        name: "correlate", title: "Correlate two metrics",
        description: """
            How two daily metrics move together over a range of any length: Spearman's rank correlation \
            rho (−1 … 1) between x on day d and y on day d + lag_days, over the days where both have a value, with \
            its 95 % confidence interval (Fisher z, needs n ≥ 4) and n. lag_days 1 pairs each day's x with the next \
            day's y ("does exercise go with the next night's sleep?"). A correlation is not causation: both may \
            follow a third thing (season, illness, a new watch), and with many pairs tried some are high by chance.
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("x", SchemaBuilder.string("The first metric (any name metric_series takes).")),
                ("y", SchemaBuilder.string("The second metric.")),
                ("start", SchemaBuilder.date("First day of x (YYYY-MM-DD).")),
                ("end", SchemaBuilder.date("Last day of x, inclusive.")),
                ("lag_days", SchemaBuilder.integer("y's day minus x's day, −60 … 60; default 0.")),
                ("x_statistic", SchemaBuilder.string("Statistic of x; default as metric_series.")),
                ("y_statistic", SchemaBuilder.string("Statistic of y; default as metric_series.")),
            ], required: ["x", "y", "start", "end"]),
        outputSchema: SchemaBuilder.object(
            [
                ("x", DailyColumn.outputSchema), ("y", DailyColumn.outputSchema), ("start", SchemaBuilder.string()),
                ("end", SchemaBuilder.string()), ("lag_days", SchemaBuilder.integer()),
                ("n", SchemaBuilder.integer("Days with both values.")),
                ("rho", SchemaBuilder.nullable("number", "Spearman's rank correlation; null below 3 pairs.")),
                ("ci_low", SchemaBuilder.nullable("number")), ("ci_high", SchemaBuilder.nullable("number")),
                ("note", SchemaBuilder.string()),
            ], required: ["x", "y", "n", "rho", "ci_low", "ci_high", "lag_days"]),
        call: { context, arguments in try run(context, arguments) })

    static let note = "A correlation, not a cause: both may follow something else."

    /// Ranks from 1, tied values sharing the mean of their ranks.
    static func ranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let shared = Double(start + end) / 2 + 1
            for position in start...end { ranks[order[position]] = shared }
            start = end + 1
        }
        return ranks
    }

    /// Spearman's rho (Pearson's correlation of the ranks) and its Fisher-z 95 % interval.
    static func spearman(_ x: [Double], _ y: [Double]) -> (rho: Double?, low: Double?, high: Double?) {
        guard x.count >= 3 else { return (nil, nil, nil) }
        let (rx, ry) = (ranks(x), ranks(y))
        let mean = Double(x.count + 1) / 2
        var (sxy, sxx, syy) = (0.0, 0.0, 0.0)
        for (a, b) in zip(rx, ry) {
            sxy += (a - mean) * (b - mean)
            sxx += (a - mean) * (a - mean)
            syy += (b - mean) * (b - mean)
        }
        guard sxx > 0, syy > 0 else { return (nil, nil, nil) }
        let rho = max(-1, min(1, sxy / (sxx * syy).squareRoot()))
        guard x.count >= 4, abs(rho) < 1 else { return (rho, nil, nil) }
        let half = 1.959_963_985 / Double(x.count - 3).squareRoot()
        let z = atanh(rho)
        return (rho, tanh(z - half), tanh(z + half))
    }

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let (xName, yName) = (try arguments.requiredString("x"), try arguments.requiredString("y"))
        guard let range = try arguments.range(required: true) else {
            throw ToolError.argument(name: "start", reason: "is required")
        }
        let lag = try arguments.integer("lag_days", range: -60...60) ?? 0
        let (xStatistic, yStatistic) = (try arguments.string("x_statistic"), try arguments.string("y_statistic"))
        return try context.database.read { db in
            let x = try DailyColumn.resolve(xName, statistic: xStatistic, argument: "x", context: context, db)
            let y = try DailyColumn.resolve(yName, statistic: yStatistic, argument: "y", context: context, db)
            let shifted = range.lowerBound.adding(days: lag)...range.upperBound.adding(days: lag)
            var yByDay: [Int: Double] = [:]
            for (day, value) in try y.values(db, shifted) { yByDay[day.dayNumber - lag] = value }
            var pairs: ([Double], [Double]) = ([], [])
            for (day, value) in try x.values(db, range) {
                guard let other = yByDay[day.dayNumber] else { continue }
                pairs.0.append(value)
                pairs.1.append(other)
            }
            let result = spearman(pairs.0, pairs.1)
            let structured: JSON = .object([
                ("x", x.json), ("y", y.json), ("start", .string(range.lowerBound.description)),
                ("end", .string(range.upperBound.description)), ("lag_days", .integer(Int64(lag))),
                ("n", .integer(Int64(pairs.0.count))), ("rho", .real(result.rho)), ("ci_low", .real(result.low)),
                ("ci_high", .real(result.high)), ("note", .string(note)),
            ])
            var text =
                "\(x.metric.displayName) (\(x.statistic)) and \(y.metric.displayName) (\(y.statistic))"
                + (lag == 0 ? " on the same day" : ", y \(lag) day(s) later")
                + ", \(range.lowerBound) to \(range.upperBound): "
            if let rho = result.rho {
                text += "Spearman rho \(TextRendering.fixed(rho, decimals: 2)) over \(pairs.0.count) days"
                if let low = result.low, let high = result.high {
                    text +=
                        " (95 % CI \(TextRendering.fixed(low, decimals: 2)) to \(TextRendering.fixed(high, decimals: 2)))"
                }
            } else {
                text += "no correlation to give (\(pairs.0.count) days with both values, or no variation)"
            }
            return ToolAnswer(structured: structured, text: text + ". " + note)
        }
    }
}
