import HealthJSON
import HealthSQLite
import HealthSchema

/// `unusual`: the days on which several of the signals a watch sees an illness in are far from the person's
/// normal together ("am I getting sick?"). The rule is in docs/baselines.md ("Unusual days") and below.
enum UnusualTool {
    static let rule = """
        A signal is far from normal on a day when its robust z-score, (value − median) / (MAD × 1.4826) of the \
        28 days before (at least 14 with a value), is at least 2.5 in the direction of illness: resting heart \
        rate up, heart rate variability (SDNN) down, respiratory rate up, sleeping wrist temperature up, time \
        asleep (all asleep stages together) up or down. A day is unusual when at least min_signals (default 3) \
        signals are far from normal on it.
        """

    static let definition = ToolDefinition(
        name: "unusual", title: "Unusual days",
        description: """
            Days on which several of resting heart rate, heart rate variability, respiratory rate, wrist \
            temperature and time asleep are far from the person's normal together, as before or during an \
            illness, newest first. \(rule) The median and MAD resist the few odd days a normal may hold. Not a \
            diagnosis: alcohol, travel, a hard training block or a new watch move the same signals.
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("start", SchemaBuilder.date("First day (YYYY-MM-DD); default: the first day with data.")),
                ("end", SchemaBuilder.date("Last day, inclusive; default: the last day with data.")),
                ("min_signals", SchemaBuilder.integer("Signals far from normal together, 2 … 5; default 3.")),
            ]),
        outputSchema: SchemaBuilder.object(
            [
                ("rule", SchemaBuilder.string()), ("min_signals", SchemaBuilder.integer()),
                (
                    "days",
                    SchemaBuilder.array(
                        SchemaBuilder.object([
                            ("date", SchemaBuilder.string()), ("signal_count", SchemaBuilder.integer()),
                            (
                                "signals",
                                SchemaBuilder.array(
                                    SchemaBuilder.object([
                                        ("signal", SchemaBuilder.string()), ("column", SchemaBuilder.string()),
                                        ("value", SchemaBuilder.number()), ("median", SchemaBuilder.number()),
                                        ("mad", SchemaBuilder.number()), ("robust_z", SchemaBuilder.number()),
                                    ]))
                            ),
                        ]), "Newest first.")
                ),
                ("truncated", SchemaBuilder.boolean()),
                ("next_end", SchemaBuilder.nullable("string", "The newest day left out by the answer budget.")),
                ("hint", SchemaBuilder.nullable("string")),
            ], required: ["rule", "min_signals", "days", "truncated"]),
        call: { context, arguments in try run(context, arguments) })

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let range =
            try arguments.range(required: false)
            ?? LocalDate(year: 1900, month: 1, day: 1)...LocalDate(year: 9999, month: 12, day: 31)
        let minimum = try arguments.integer("min_signals", range: 2...5) ?? 3
        return try context.database.read { db in
            let found = try UnusualDays.find(
                db, from: range.lowerBound.description, to: range.upperBound.description, minimumSignals: minimum)
            var budget = AnswerBudget(
                rows: context.limits.maximumRows, bytes: max(0, context.limits.answerBudget - 2 * rule.utf8.count - 600)
            )
            var nextEnd: String?
            var days: [JSON] = []
            var lines: [String] = []
            for day in found {
                let entry: JSON = .object([
                    ("date", .string(day.date)), ("signal_count", .integer(Int64(day.findings.count))),
                    (
                        "signals",
                        .array(
                            day.findings.map {
                                .object([
                                    ("signal", .string($0.signal.name)), ("column", .string($0.signal.column)),
                                    ("value", .number($0.value)), ("median", .number($0.median)),
                                    ("mad", .number($0.mad)), ("robust_z", .number($0.robustZ)),
                                ])
                            })
                    ),
                ])
                let line =
                    "\(day.date): "
                    + day.findings.map {
                        "\($0.signal.name) \(TextRendering.number($0.value)) (normal \(TextRendering.number($0.median)), "
                            + "robust z \(BaselineTool.signed($0.robustZ)))"
                    }.joined(separator: "; ")
                guard budget.admit(entry, line: line) else {
                    nextEnd = day.date
                    break
                }
                days.append(entry)
                lines.append(line)
            }
            let hint = nextEnd.map {
                "The answer budget holds the \(days.count) newest days: call again with end \($0) for older ones."
            }
            let structured: JSON = .object([
                ("rule", .string(rule)), ("min_signals", .integer(Int64(minimum))), ("days", .array(days)),
                ("truncated", .bool(budget.truncated)), ("next_end", .text(nextEnd)), ("hint", .text(hint)),
            ])
            let text =
                days.isEmpty
                ? "No day with \(minimum) or more signals far from normal."
                : "\(days.count) unusual day(s), newest first:\n" + lines.joined(separator: "\n")
                    + (hint.map { "\n" + $0 } ?? "")
            return ToolAnswer(structured: structured, text: text)
        }
    }
}
