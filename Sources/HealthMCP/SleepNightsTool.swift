import HealthJSON
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
            (deep + core + REM + unspecified), each stage, awake and in bed, and the sources that counted. One \
            source per stretch of time (a Watch and a sleep app are not added up). Nights without data have nulls.
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("start", SchemaBuilder.date("First night's end day (YYYY-MM-DD).")),
                ("end", SchemaBuilder.date("Last night's end day, inclusive.")),
            ], required: ["start", "end"]),
        outputSchema: SchemaBuilder.object(
            [
                (
                    "nights",
                    SchemaBuilder.array(
                        SchemaBuilder.object(
                            [
                                ("date", SchemaBuilder.string("The day the night ends.")),
                                ("asleep_hours", SchemaBuilder.nullable("number")),
                            ]
                                + stages.map { ($0.field, SchemaBuilder.nullable("number")) }
                                + [("sources", SchemaBuilder.array(SchemaBuilder.string()))],
                            required: ["date", "asleep_hours", "sources"]))
                ),
                ("nights_with_data", SchemaBuilder.integer()),
                ("average_asleep_hours", SchemaBuilder.nullable("number")),
                ("truncated", SchemaBuilder.boolean()), ("next_start", SchemaBuilder.nullable("string")),
            ],
            required: ["nights", "nights_with_data", "truncated"]),
        call: { context, arguments in
            guard let range = try arguments.range(required: true) else {
                throw ToolError.argument(name: "start", reason: "is required")
            }
            return try context.database.read { try answer($0, range: range, maximumNights: context.limits.maximumRows) }
        })

    struct Night {
        var hours: [String: Double] = [:]
        /// The rollups' `sources` texts, split once per night at the end.
        var sourceTexts: Set<String> = []
    }

    static func answer(_ db: SQLiteConnection, range: ClosedRange<LocalDate>, maximumNights: Int) throws -> ToolAnswer {
        var last = range.upperBound
        var nextStart: LocalDate?
        if last.dayNumber - range.lowerBound.dayNumber + 1 > maximumNights {
            last = range.lowerBound.adding(days: maximumNights - 1)
            nextStart = last.adding(days: 1)
        }
        var nights: [String: Night] = [:]
        // By the type's start instants, as metric_series reads (the `+` keeps the label out of index choice).
        try db.prepare(
            """
            SELECT label, statistic, value, sources FROM rollups
            WHERE type = ?1 AND period_start >= ?4 AND period_start < ?5 AND +period = 'day' AND +label >= ?2 AND +label <= ?3
            """
        ).forEachRowBound([
            .text(sleepType), .text(range.lowerBound.description), .text(last.description),
            .text(MetricSeriesTool.instantWindow(range.lowerBound...last).lower),
            .text(MetricSeriesTool.instantWindow(range.lowerBound...last).upper),
        ]) { row in
            guard let date = row.text(0), let statistic = row.text(1), !row.isNull(2) else { return }
            guard let stage = stages.first(where: { $0.statistics.contains(statistic) }) else { return }
            nights[date, default: Night()].hours[stage.field, default: 0] += row.double(2)
            if let sources = row.text(3) { nights[date, default: Night()].sourceTexts.insert(sources) }
        }
        var list: [JSON] = []
        var lines: [String] = []
        var asleepTotal = 0.0
        var withData = 0
        for dayNumber in range.lowerBound.dayNumber...last.dayNumber {
            let date = LocalDate(dayNumber: dayNumber).description
            let night = nights[date]
            let asleep = night.map { night in stages.filter(\.isSleep).compactMap { night.hours[$0.field] }.reduce(0, +)
            }
            let hasSleep =
                night.map { night in stages.filter(\.isSleep).contains { night.hours[$0.field] != nil } } ?? false
            let asleepValue = hasSleep ? asleep : nil
            if let asleepValue {
                withData += 1
                asleepTotal += asleepValue
            }
            let sources = Set(night?.sourceTexts.flatMap(RollupCombination.split) ?? []).sorted()
            list.append(
                .object(
                    [("date", .string(date)), ("asleep_hours", .real(asleepValue))]
                        + stages.map { ($0.field, JSON.real(night?.hours[$0.field])) }
                        + [("sources", .array(sources.map(JSON.string)))]))
            guard let night else {
                lines.append("\(date): no data")
                continue
            }
            let parts = stages.compactMap { stage in
                night.hours[stage.field].map { "\(stage.label) \(TextRendering.number($0))" }
            }
            lines.append(
                "\(date): asleep \(TextRendering.number(asleepValue)) h (\(parts.joined(separator: ", "))) — sources: "
                    + TextRendering.quotedList(sources))
        }
        let average = withData > 0 ? asleepTotal / Double(withData) : nil
        let structured: JSON = .object([
            ("nights", .array(list)), ("nights_with_data", .integer(Int64(withData))),
            ("average_asleep_hours", .real(average)), ("truncated", .bool(nextStart != nil)),
            ("next_start", .text(nextStart?.description)),
        ])
        var text = "Sleep per night (hours, filed under the day the night ends), \(range.lowerBound) to \(last): "
        text += "\(withData) nights with data, average asleep \(TextRendering.number(average)) h\n"
        text += lines.joined(separator: "\n")
        if let nextStart { text += "\nTruncated: continue with start \(nextStart)." }
        return ToolAnswer(structured: structured, text: text)
    }
}
