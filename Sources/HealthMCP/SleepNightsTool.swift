import HealthJSON
import HealthModel
import HealthSQLite

/// `sleep_nights`: hours per sleep stage per night, filed under the day the night ends (as the Health app and
/// the rollups file it), with one source per stretch of time. Every night of the range is listed.
enum SleepNightsTool {
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    /// The rollups' statistics → the answer's fields. Before iOS 16 (and from apps without stages) sleep is only
    /// "asleep", counted as unspecified.
    static let stages: [(field: String, label: String, statistics: [String], isSleep: Bool)] = [
        ("deep_hours", "deep", ["AsleepDeep_hours"], true), ("core_hours", "core", ["AsleepCore_hours"], true),
        ("rem_hours", "REM", ["AsleepREM_hours"], true),
        ("unspecified_hours", "unspecified", ["AsleepUnspecified_hours", "Asleep_hours"], true),
        ("awake_hours", "awake", ["Awake_hours"], false), ("in_bed_hours", "in bed", ["InBed_hours"], false),
    ]

    static let definition = ToolDefinition(
        name: "sleep_nights", title: "Sleep per night",
        description: """
            Hours of sleep per night between two local dates, each night filed under the day it ends: asleep \
            (deep + core + REM + unspecified), each stage, awake and in bed. One source per stretch of time (a \
            Watch and a sleep app are not added up). The answer opens with a summary of asleep hours per night \
            (mean, median, shortest and longest night, trend per 30 days, last night), then the nights with data \
            as rows under `columns`. A range too long for the answer budget is shown as averages per week, month \
            or year (period_used; hint says why).
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("start", SchemaBuilder.date("First night's end day (YYYY-MM-DD).")),
                ("end", SchemaBuilder.date("Last night's end day, inclusive.")),
            ], required: ["start", "end"]),
        outputSchema: SchemaBuilder.object(
            [
                ("start", SchemaBuilder.string()), ("end", SchemaBuilder.string()),
                ("unit", SchemaBuilder.string("Hours, two decimals.")),
                (
                    "period_used",
                    SchemaBuilder.string("night, or week, month, year: averages per night of the nights with data.")
                ),
                ("nights", SchemaBuilder.integer("Nights in the range.")),
                ("nights_with_data", SchemaBuilder.integer()),
                ("summary", SeriesSummary.schema), ("sources", SourceIndex.schema),
                ("usual_sources", SchemaBuilder.array(SchemaBuilder.integer())),
                ("columns", SchemaBuilder.array(SchemaBuilder.string())),
                (
                    "rows",
                    SchemaBuilder.array(
                        SchemaBuilder.array(.object([("type", ["string", "number", "integer", "null", "array"])])),
                        "As columns says; a last element [source indexes] when the sources differ from usual_sources.")
                ),
                ("truncated", SchemaBuilder.boolean()), ("next_start", SchemaBuilder.nullable("string")),
                ("hint", SchemaBuilder.nullable("string")),
            ],
            required: ["period_used", "nights_with_data", "summary", "columns", "rows", "truncated"]),
        call: { context, arguments in
            guard let range = try arguments.range(required: true) else {
                throw ToolError.argument(name: "start", reason: "is required")
            }
            return try context.database.read { try answer($0, range: range, limits: context.limits) }
        })

    struct Night {
        var hours: [String: Double] = [:]
        /// The rollups' `sources` texts, split once per night at the end.
        var sourceTexts: Set<String> = []
    }

    /// One row: a night, or the average night of a longer period.
    struct Row {
        var start: LocalDate
        var nights: Int
        /// asleep, then each stage's field, averaged over the nights that have it.
        var values: [Double?]
        var sources: [String]
    }

    static func answer(_ db: SQLiteConnection, range: ClosedRange<LocalDate>, limits: HealthDatabase.Limits) throws
        -> ToolAnswer
    {
        var nights: [String: Night] = [:]
        // By the type's start instants, as metric_series reads (the `+` keeps the label out of index choice).
        let window = MetricSeriesTool.instantWindow(range)
        try db.prepare(
            """
            SELECT label, statistic, value, sources FROM rollups
            WHERE type = ?1 AND period_start >= ?4 AND period_start < ?5 AND +period = 'day' AND +label >= ?2 AND +label <= ?3
            """
        ).forEachRowBound([
            .text(sleepType), .text(range.lowerBound.description), .text(range.upperBound.description),
            .text(window.lower), .text(window.upper),
        ]) { row in
            guard let date = row.text(0), let statistic = row.text(1), !row.isNull(2) else { return }
            guard let stage = stages.first(where: { $0.statistics.contains(statistic) }) else { return }
            nights[date, default: Night()].hours[stage.field, default: 0] += row.double(2)
            if let sources = row.text(3) { nights[date, default: Night()].sourceTexts.insert(sources) }
        }
        var perNight: [Row] = []
        for (date, night) in nights {
            guard let day = LocalDate(date) else { continue }
            let sleeping = stages.filter(\.isSleep).compactMap { night.hours[$0.field] }
            let asleep: Double? = sleeping.isEmpty ? nil : sleeping.reduce(0, +)
            perNight.append(
                Row(
                    start: day, nights: 1, values: [asleep] + stages.map { night.hours[$0.field] },
                    sources: Set(night.sourceTexts.flatMap(RollupCombination.split)).sorted()))
        }
        perNight.sort { $0.start < $1.start }
        let asleepNights = perNight.filter { $0.values[0] != nil }
        let summary = SeriesSummary(
            asleepNights.map {
                SeriesSummary.Point(day: Double($0.start.dayNumber), label: $0.start.description, value: $0.values[0]!)
            })
        let header = Header(
            range: range, nights: range.upperBound.dayNumber - range.lowerBound.dayNumber + 1, summary: summary)
        if let answer = render(header, rows: perNight, used: nil, limits: limits) { return answer }
        for period in [SeriesPeriod.week, .month, .year] {
            if let answer = render(header, rows: combine(perNight, by: period), used: period, limits: limits) {
                return answer
            }
        }
        preconditionFailure("a year rendering always answers")
    }

    struct Header {
        var range: ClosedRange<LocalDate>
        var nights: Int
        var summary: SeriesSummary
    }

    /// The average night of each period: each value over the nights that have it.
    static func combine(_ rows: [Row], by period: SeriesPeriod) -> [Row] {
        var combined: [Row] = []
        for row in rows {
            let start = period.start(of: row.start)
            if combined.last?.start != start {
                combined.append(
                    Row(start: start, nights: 0, values: Array(repeating: nil, count: row.values.count), sources: []))
            }
            combined[combined.count - 1].nights += 1
            combined[combined.count - 1].sources = Array(Set(combined[combined.count - 1].sources + row.sources))
                .sorted()
            for (index, value) in row.values.enumerated() {
                guard let value else { continue }
                // Sums for now, divided by the nights with that value below.
                combined[combined.count - 1].values[index] = (combined[combined.count - 1].values[index] ?? 0) + value
            }
        }
        // The divisor per field: how many nights of the period have it.
        var counts: [LocalDate: [Int]] = [:]
        for row in rows {
            let start = period.start(of: row.start)
            var tally = counts[start] ?? Array(repeating: 0, count: row.values.count)
            for (index, value) in row.values.enumerated() where value != nil { tally[index] += 1 }
            counts[start] = tally
        }
        return combined.map { row in
            var row = row
            let tally = counts[row.start] ?? []
            row.values = row.values.enumerated().map { index, value in value.map { $0 / Double(max(tally[index], 1)) } }
            return row
        }
    }

    static let fieldNames = ["asleep"] + stages.map { String($0.field.dropLast("_hours".count)) }

    /// The answer with `rows` (nights when `used` is nil), or nil when they do not fit and a longer period may.
    static func render(_ header: Header, rows: [Row], used: SeriesPeriod?, limits: HealthDatabase.Limits) -> ToolAnswer?
    {
        let final = used == .year
        guard final || rows.count <= limits.maximumRows else { return nil }
        var sources = SourceIndex()
        let sets = rows.map { sources.add($0.sources) }
        let usual = sources.usual
        var json: [JSON] = []
        var lines: [String] = []
        for (row, set) in zip(rows, sets) {
            let label = used?.label(row.start) ?? row.start.description
            var cells: [JSON] = [.string(label)]
            var line = label
            if used != nil {
                cells.append(.integer(Int64(row.nights)))
                line += " \(row.nights)"
            }
            for value in row.values {
                cells.append(.rounded(value, Precision.hours))
                line += " " + (value.map { TextRendering.value($0, Precision.hours) } ?? "-")
            }
            if set != usual {
                cells.append(.array(set.map { .integer(Int64($0)) }))
                line += " [" + set.map(String.init).joined(separator: ",") + "]"
            }
            json.append(.array(cells))
            lines.append(line)
        }
        let hint: String? =
            used.map {
                "\(DigitGrouping.grouped(header.summary.count)) nights are more than the answer budget of "
                    + "\(DigitGrouping.grouped(limits.answerBudget)) bytes holds, so the rows are the average night per \($0.rawValue) "
                    + "(each stage over the nights that have it); the summary is per night. For every night, ask for a "
                    + "shorter range, or start the server with a larger --answer-budget."
            }
        let answer = build(
            header, used: used, rows: json, lines: lines, sources: sources, usual: usual, next: nil, hint: hint)
        if AnswerBudget.size(answer) <= limits.answerBudget { return answer }
        guard final else { return nil }
        return AnswerBudget.fit(kept: json.count, budget: limits.answerBudget) { kept in
            let next = kept < rows.count ? rows[kept].start : nil
            return build(
                header, used: used, rows: Array(json.prefix(kept)), lines: Array(lines.prefix(kept)), sources: sources,
                usual: usual, next: next,
                hint: (hint ?? "")
                    + (next.map { " The budget holds \(kept) of \(rows.count) years: call again with start \($0)." }
                        ?? ""))
        }.answer
    }

    static func build(
        _ header: Header, used: SeriesPeriod?, rows: [JSON], lines: [String], sources: SourceIndex, usual: [Int],
        next: LocalDate?, hint: String?
    ) -> ToolAnswer {
        let columns = ["date"] + (used == nil ? [] : ["nights"]) + fieldNames.map { $0 + "_hours" }
        let structured: JSON = .object([
            ("start", .string(header.range.lowerBound.description)),
            ("end", .string(header.range.upperBound.description)),
            ("unit", "hr"), ("period_used", .string(used?.rawValue ?? "night")),
            ("nights", .integer(Int64(header.nights))),
            ("nights_with_data", .integer(Int64(header.summary.count))),
            ("summary", header.summary.json(Precision.hours)),
            ("sources", sources.json), ("usual_sources", .array(usual.map { .integer(Int64($0)) })),
            ("columns", .array(columns.map(JSON.string))), ("rows", .array(rows)), ("truncated", .bool(next != nil)),
            ("next_start", .text(next?.description)), ("hint", .text(hint)),
        ])
        var text = "Sleep per night (hours, filed under the day the night ends), \(header.range.lowerBound) to "
        text += "\(header.range.upperBound): \(header.summary.count) of \(header.nights) nights with data.\n"
        text += "Asleep per night: " + header.summary.text(Precision.hours) + ".\n"
        if let hint { text += hint + "\n" }
        if !rows.isEmpty {
            text +=
                "Sources: \(sources.text); rows without [..] have \(usual.map(String.init).joined(separator: ","))\n"
            text +=
                (used == nil ? "Per night" : "Average night per \(used!.rawValue)") + " ("
                + (used == nil ? "date " : "label nights ")
                + "asleep deep core REM unspecified awake in-bed; - none):\n"
            text += lines.joined(separator: "\n")
        }
        return ToolAnswer(structured: structured, text: text)
    }
}
