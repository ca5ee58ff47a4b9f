import HealthJSON
import HealthModel

/// `metric_series`'s answer: the summary, the sources once, the periods with data as rows, at the period asked
/// for or, past the answer budget, a longer one (docs/mcp.md, "Answer budget").
extension MetricSeriesTool {
    /// The answer with its points at `used`, or nil when they do not fit the budget and a longer period may;
    /// at the longest (`final`) the points stop at the budget with `next_start`.
    static func render(
        _ header: Header, used: SeriesPeriod, points: [Point], budget limits: HealthDatabase.Limits, final: Bool
    ) -> ToolAnswer? {
        let withData = points.filter { $0.combination.value != nil }
        guard final || withData.count <= limits.maximumRows else { return nil }
        // Each row costs at least its label twice and a digit: past the budget on that alone, do not build it.
        let leastPerRow = 2 * used.label(header.range.lowerBound).utf8.count + 9
        guard final || withData.count * leastPerRow <= limits.answerBudget else { return nil }
        var sources = SourceIndex()
        let sets = withData.map { sources.add($0.combination.sources.sorted()) }
        let usual = sources.usual
        var rows: [JSON] = []
        var lines: [String] = []
        for (point, set) in zip(withData, sets) {
            let label = used.label(point.start)
            let value = point.combination.value
            var row: [JSON] = [.string(label), .rounded(value, header.rounding)]
            var line = label + " " + TextRendering.value(value, header.rounding)
            if set != usual {
                row.append(.array(set.map { .integer(Int64($0)) }))
                line += " [" + set.map(String.init).joined(separator: ",") + "]"
            }
            rows.append(.array(row))
            lines.append(line)
        }
        let coarser = used != header.period
        let hint: String? =
            coarser
            ? "\(DigitGrouping.grouped(header.periods)) \(header.period.rawValue)s are more than the answer budget of "
                + "\(DigitGrouping.grouped(limits.answerBudget)) bytes holds, so the points are per \(used.rawValue); the summary is "
                + "per \(header.period.rawValue). For every \(header.period.rawValue), ask for a shorter range, or start the server "
                + "with a larger --answer-budget." : nil
        let answer = build(
            header, used: used, rows: rows, lines: lines, sources: sources, usual: usual, points: withData, next: nil,
            hint: hint)
        if AnswerBudget.size(answer) <= limits.answerBudget { return answer }
        guard final else { return nil }
        // Even years do not fit (a budget set very small): the years stop at the budget with next_start.
        return AnswerBudget.fit(kept: rows.count, budget: limits.answerBudget) { kept in
            let next = kept < withData.count ? withData[kept].start : nil
            return build(
                header, used: used, rows: Array(rows.prefix(kept)), lines: Array(lines.prefix(kept)), sources: sources,
                usual: usual, points: Array(withData.prefix(kept)), next: next,
                hint: next.map {
                    "The answer budget holds \(kept) of \(withData.count) \(used.rawValue)s: call again with start \($0) for the rest."
                })
        }.answer
    }

    static func build(
        _ header: Header, used: SeriesPeriod, rows: [JSON], lines: [String], sources: SourceIndex, usual: [Int],
        points: [Point], next: LocalDate?, hint: String?
    ) -> ToolAnswer {
        let metric = header.metric
        let firstDay = points.first?.start
        let lastDay = points.last.map { used.next(after: $0.start).adding(days: -1) }
        let source = points.first?.source ?? used.rawValue
        let structured: JSON = .object([
            (
                "metric",
                .object([
                    ("identifier", .string(metric.identifier)), ("display_name", .string(metric.displayName)),
                    ("kind", .string(metric.kind)),
                ])
            ),
            ("statistic", .string(header.statistic)), ("unit", .text(header.unit)),
            ("start", .string(header.range.lowerBound.description)),
            ("end", .string(header.range.upperBound.description)),
            ("period", .string(header.period.rawValue)), ("period_used", .string(used.rawValue)),
            ("periods", .integer(Int64(header.periods))), ("periods_with_data", .integer(Int64(header.summary.count))),
            ("days_with_data", .integer(Int64(header.days))), ("summary", header.summary.json(header.rounding)),
            ("sources", sources.json), ("usual_sources", .array(usual.map { .integer(Int64($0)) })),
            ("columns", ["label", "value", "sources"]), ("points", .array(rows)),
            ("first_day", .text(firstDay?.description)), ("last_day", .text(lastDay?.description)),
            ("truncated", .bool(next != nil)), ("next_start", .text(next?.description)), ("hint", .text(hint)),
            ("computed_from", .string(source == used.rawValue ? "\(source) rollups" : "\(source) rollups, combined")),
        ])
        let unit = header.unit.map { " in \($0)" } ?? ""
        var text =
            "\(metric.displayName) (\(metric.shortName)), \(header.statistic) per \(header.period.rawValue)\(unit), "
        text +=
            "\(header.range.lowerBound) to \(header.range.upperBound): \(header.summary.count) of \(header.periods) "
        text += "\(header.period.rawValue)s with data (\(header.days) days).\n"
        text += "Summary per \(header.period.rawValue): " + header.summary.text(header.rounding) + ".\n"
        if let hint { text += hint + "\n" }
        if !rows.isEmpty {
            text +=
                "Sources: \(sources.text); rows without [..] have \(usual.map(String.init).joined(separator: ","))\n"
            text += "Per \(used.rawValue) (label value):\n" + lines.joined(separator: "\n")
        }
        return ToolAnswer(structured: structured, text: text)
    }
}
