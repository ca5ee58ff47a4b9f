import HealthSQLite

/// `unusual`: the days on which several of the signals a watch sees an illness in are far from the person's
/// normal together ("am I getting sick?"). The rule is in docs/baselines.md ("Unusual days") and below.
enum UnusualTool {
    /// How far from normal a signal must be: robust z, (value − median) / (MAD × 1.4826) of the 28 days before.
    static let threshold = 2.5

    struct Signal {
        var name: String
        /// The `daily_rollups` column; sleep is the sum of the `SleepAnalysis_Asleep…_hours` columns.
        var column: String
        /// +1: far above counts, −1: far below, 0: either.
        var direction: Int
    }

    static let signals = [
        Signal(name: "resting heart rate", column: "RestingHeartRate_avg", direction: 1),
        Signal(name: "heart rate variability", column: "HeartRateVariabilitySDNN_avg", direction: -1),
        Signal(name: "respiratory rate", column: "RespiratoryRate_avg", direction: 1),
        Signal(name: "wrist temperature", column: "AppleSleepingWristTemperature_avg", direction: 1),
        Signal(name: "time asleep", column: "SleepAnalysis_Asleep*_hours", direction: 0),
    ]

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
            ], required: ["rule", "min_signals", "days", "truncated"]),
        call: { context, arguments in try run(context, arguments) })

    struct Finding {
        var signal: Signal
        var value: Double
        var median: Double
        var mad: Double
        var robustZ: Double { (value - median) / mad }

        var isFar: Bool {
            switch signal.direction {
            case 1: robustZ >= threshold
            case -1: robustZ <= -threshold
            default: abs(robustZ) >= threshold
            }
        }
    }

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let range =
            try arguments.range(required: false)
            ?? LocalDate(year: 1900, month: 1, day: 1)...LocalDate(year: 9999, month: 12, day: 31)
        let minimum = try arguments.integer("min_signals", range: 2...5) ?? 3
        return try context.database.read { db in
            var findings: [LocalDate: [Finding]] = [:]
            let rows = try db.prepare(
                """
                SELECT date, value, median, mad FROM baselines
                WHERE column_name = ?1 AND date >= ?2 AND date <= ?3 AND mad > 0
                """)
            for signal in signals.dropLast() {
                try rows.forEachRowBound([
                    .text(signal.column), .text(range.lowerBound.description), .text(range.upperBound.description),
                ]) { row in
                    guard let day = row.text(0).flatMap({ LocalDate($0) }) else { return }
                    let finding = Finding(
                        signal: signal, value: row.double(1), median: row.double(2), mad: row.double(3))
                    if finding.isFar { findings[day, default: []].append(finding) }
                }
            }
            // swift-format-ignore: NeverForceUnwrap
            for (day, finding) in try sleepFindings(db, range, signal: signals.last!) where finding.isFar {
                findings[day, default: []].append(finding)
            }
            var budget = AnswerBudget(rows: context.limits.maximumRows, bytes: context.limits.maximumBytes)
            var days: [JSON] = []
            var lines: [String] = []
            for (day, found) in findings.sorted(by: { $0.key > $1.key }) where found.count >= minimum {
                let entry: JSON = .object([
                    ("date", .string(day.description)), ("signal_count", .integer(Int64(found.count))),
                    (
                        "signals",
                        .array(
                            found.map {
                                .object([
                                    ("signal", .string($0.signal.name)), ("column", .string($0.signal.column)),
                                    ("value", .number($0.value)), ("median", .number($0.median)),
                                    ("mad", .number($0.mad)), ("robust_z", .number($0.robustZ)),
                                ])
                            })
                    ),
                ])
                guard budget.admit(entry) else { break }
                days.append(entry)
                lines.append(
                    "\(day): "
                        + found.map {
                            "\($0.signal.name) \(TextRendering.number($0.value)) (normal \(TextRendering.number($0.median)), "
                                + "robust z \(BaselineTool.signed($0.robustZ)))"
                        }.joined(separator: "; "))
            }
            let structured: JSON = .object([
                ("rule", .string(rule)), ("min_signals", .integer(Int64(minimum))), ("days", .array(days)),
                ("truncated", .bool(budget.truncated)),
            ])
            let text =
                days.isEmpty
                ? "No day with \(minimum) or more signals far from normal."
                : "\(days.count) unusual day(s), newest first:\n" + lines.joined(separator: "\n")
            return ToolAnswer(structured: structured, text: text)
        }
    }

    /// Time asleep per day (every `Asleep…_hours` statistic of sleep together) against its own 28 days before,
    /// by the same rule as the stored baselines' median and MAD.
    static func sleepFindings(_ db: SQLiteConnection, _ range: ClosedRange<LocalDate>, signal: Signal) throws
        -> [(LocalDate, Finding)]
    {
        let first = range.lowerBound.adding(days: -28)
        let window = MetricSeriesTool.instantWindow(first...range.upperBound)
        let statement = try db.prepare(
            """
            SELECT label, sum(value) FROM rollups
            WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis' AND period_start >= ?1 AND period_start < ?2
            AND +period = 'day' AND statistic LIKE 'Asleep%' AND +label >= ?3 AND +label <= ?4 AND value IS NOT NULL
            GROUP BY label ORDER BY label
            """)
        var nights: [(day: Int, hours: Double)] = []
        try statement.forEachRowBound([
            .text(window.lower), .text(window.upper), .text(first.description), .text(range.upperBound.description),
        ]) { row in
            guard let day = row.text(0).flatMap({ LocalDate($0) }) else { return }
            nights.append((day.dayNumber, row.double(1)))
        }
        var findings: [(LocalDate, Finding)] = []
        var windowStart = 0
        for (index, night) in nights.enumerated() where night.day >= range.lowerBound.dayNumber {
            while nights[windowStart].day < night.day - 28 { windowStart += 1 }
            let before = nights[windowStart..<index].map(\.hours).sorted()
            guard before.count >= 14 else { continue }
            let median = middle(before)
            let mad = 1.4826 * middle(before.map { abs($0 - median) }.sorted())
            guard mad > 0 else { continue }
            findings.append(
                (LocalDate(dayNumber: night.day), Finding(signal: signal, value: night.hours, median: median, mad: mad))
            )
        }
        return findings
    }

    static func middle(_ sorted: [Double]) -> Double {
        let half = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
    }
}
