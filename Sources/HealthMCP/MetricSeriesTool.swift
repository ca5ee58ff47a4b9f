import HealthJSON
import HealthModel
import HealthSQLite

/// `metric_series`: the rollups' numbers for one metric per day, week, month or year — the numbers daily.csv,
/// the report and Datasette's queries show (one source per stretch of time for summed types, so an iPhone and
/// a Watch worn together count once). Every period in the range gets a point; one without data has a null value.
enum MetricSeriesTool {
    static let definition = ToolDefinition(
        name: "metric_series", title: "Metric over time",
        description: """
            One metric per day, week (ISO, Monday first), month or year between two local dates, from the \
            database's rollups: steps and other summed types count one source per stretch of time (iPhone and \
            Watch together are not added up, as in the Health app); heart rate and other discrete types are \
            averages (or min/max/count); sleep and other categories are hours per value. The answer opens with a \
            summary of the periods asked for (mean, median, min and max with their dates, trend per 30 days with \
            its 95 % interval, last value, the person's normal), then the periods with data as [label, value] \
            rows. A range too long for the answer budget is shown by a longer period (period_used says which, \
            hint says why); the summary stays per period asked. Years are combined from months.
            """,
        inputSchema: SchemaBuilder.object(
            [
                ("metric", SchemaBuilder.string("Identifier, short name (StepCount) or display name (Steps).")),
                ("start", SchemaBuilder.date("First local day (YYYY-MM-DD).")),
                ("end", SchemaBuilder.date("Last local day, inclusive.")),
                ("period", SchemaBuilder.choice(SeriesPeriod.allCases.map(\.rawValue), "The length of one point.")),
                (
                    "statistic",
                    SchemaBuilder.string(
                        "sum, avg, min, max, count, or <Value>_hours (AsleepCore_hours); default: sum, else avg, else hours."
                    )
                ),
            ], required: ["metric", "start", "end", "period"]),
        outputSchema: SchemaBuilder.object(
            [
                (
                    "metric",
                    SchemaBuilder.object([
                        ("identifier", SchemaBuilder.string()), ("display_name", SchemaBuilder.string()),
                        ("kind", SchemaBuilder.string()),
                    ])
                ),
                ("statistic", SchemaBuilder.string()), ("unit", SchemaBuilder.nullable("string")),
                ("start", SchemaBuilder.string()), ("end", SchemaBuilder.string()),
                ("period", SchemaBuilder.string("The period asked for: the summary's.")),
                ("period_used", SchemaBuilder.string("The period of the points (longer when the budget needs it).")),
                ("periods", SchemaBuilder.integer("Periods asked for that overlap the range.")),
                ("periods_with_data", SchemaBuilder.integer()), ("days_with_data", SchemaBuilder.integer()),
                ("summary", SeriesSummary.schema), ("sources", SourceIndex.schema),
                (
                    "usual_sources",
                    SchemaBuilder.array(SchemaBuilder.integer(), "The sources of a row without a third element.")
                ),
                ("columns", SchemaBuilder.array(SchemaBuilder.string())),
                (
                    "points",
                    SchemaBuilder.array(
                        SchemaBuilder.array(.object([("type", ["string", "number", "array"])])),
                        "Periods with data: [label, value] or [label, value, [source indexes]] when they differ from usual_sources. Labels as the rollups: 2024-03-24, a week's Monday, 2024-03, 2024."
                    )
                ),
                ("first_day", SchemaBuilder.nullable("string", "First day the points cover.")),
                ("last_day", SchemaBuilder.nullable("string", "Last day the points cover.")),
                ("truncated", SchemaBuilder.boolean()),
                ("next_start", SchemaBuilder.nullable("string", "Where to continue when truncated.")),
                (
                    "hint",
                    SchemaBuilder.nullable(
                        "string", "Why the answer is coarser or shorter than asked, and how to get more.")
                ),
                ("computed_from", SchemaBuilder.string("The rollup period the values come from.")),
            ],
            required: [
                "metric", "statistic", "period", "period_used", "summary", "points", "periods_with_data", "truncated",
            ]),
        call: { context, arguments in try run(context, arguments) })

    struct Point {
        var start: LocalDate
        var combination: RollupCombination
        /// The stored period the value comes from.
        var source: String
    }

    /// What every rendering of one answer shares.
    struct Header {
        var metric: Metric
        var statistic: String
        var unit: String?
        var rounding: Precision.Rounding
        var range: ClosedRange<LocalDate>
        var period: SeriesPeriod
        var periods: Int
        var days: Int
        var summary: SeriesSummary
    }

    static func run(_ context: ToolContext, _ arguments: ToolArguments) throws -> ToolAnswer {
        let name = try arguments.requiredString("metric")
        guard let range = try arguments.range(required: true) else {
            throw ToolError.argument(name: "start", reason: "is required")
        }
        guard let periodName = try arguments.choice("period", from: SeriesPeriod.allCases.map(\.rawValue)),
            let period = SeriesPeriod(rawValue: periodName)
        else { throw ToolError.argument(name: "period", reason: "is required (day, week, month or year)") }
        let requested = try arguments.string("statistic")
        return try context.database.read { db in
            let metric = try MetricResolver(metrics: context.catalog(db).metrics).resolve(name)
            let statistic = try chooseStatistic(requested, of: metric)
            let stored = try context.storedPeriods(db)
            let unit = metric.statistics.first { $0.name == statistic }?.unit
            let rounding = Precision.rounding(unit: unit, statistic: statistic)
            let asked = try points(
                db, metric: metric, statistic: statistic, period: period, range: range, stored: stored)
            var summary = SeriesSummary(
                asked.compactMap { point in
                    point.combination.value.map {
                        SeriesSummary.Point(
                            day: Double(point.start.dayNumber), label: period.label(point.start), value: $0)
                    }
                })
            summary.normal = try SeriesSummary.normal(
                db, column: RollupNaming.metricColumn(typeIdentifier: metric.identifier, statistic: statistic),
                range: range)
            let days =
                period == .day
                ? summary.count
                : try daysWithData(db, metric: metric.identifier, statistic: statistic, range: range, stored: stored)
            let header = Header(
                metric: metric, statistic: statistic, unit: unit, rounding: rounding, range: range, period: period,
                periods: period.count(overlapping: range), days: days, summary: summary)
            // The period asked for, else the next longer one whose rows fit the budget; years are paged.
            var used = period
            var shown = asked
            while true {
                let answer = render(header, used: used, points: shown, budget: context.limits, final: used == .year)
                if let answer { return answer }
                used = SeriesPeriod.allCases[SeriesPeriod.allCases.firstIndex(of: used)! + 1]
                shown = try points(db, metric: metric, statistic: statistic, period: used, range: range, stored: stored)
            }
        }
    }

    /// The periods with data of `range` at `period`, combined from the stored period that holds them.
    static func points(
        _ db: SQLiteConnection, metric: Metric, statistic: String, period: SeriesPeriod, range: ClosedRange<LocalDate>,
        stored: Set<String>
    ) throws -> [Point] {
        // The whole periods at the edges, within the dates the tables can hold.
        let end = period.next(after: period.start(of: range.upperBound)).adding(days: -1)
        let covered = period.start(of: range.lowerBound)...min(end, LocalDate(year: 9_999, month: 12, day: 31))
        // Stored periods are read as they are; a year (and a week or month the database does not keep) is
        // combined from months, else days.
        let source: String =
            stored.contains(period.rawValue) && period != .year
            ? period.rawValue : (period == .year && stored.contains("month") ? "month" : "day")
        var byStart: [LocalDate: RollupCombination] = [:]
        try readRows(db, metric: metric.identifier, statistic: statistic, source: source, covered: covered) {
            label, value, count, sources in
            guard let day = startDay(ofLabel: label, source: source) else { return }
            byStart[period.start(of: day), default: RollupCombination(statistic: statistic)].add(
                value, count: count, sources: sources)
        }
        return byStart.map { Point(start: $0.key, combination: $0.value, source: source) }.sorted {
            $0.start < $1.start
        }
    }

    /// Days of `range` with a value of the statistic (a summary of weeks still says how many days had data),
    /// counted by SQLite through the same index as the rows.
    static func daysWithData(
        _ db: SQLiteConnection, metric: String, statistic: String, range: ClosedRange<LocalDate>, stored: Set<String>
    ) throws -> Int {
        guard stored.contains("day") else { return 0 }
        let window = instantWindow(range)
        let upper = min(range.upperBound, LocalDate(year: 9_999, month: 12, day: 31))
        return Int(
            try db.scalar(
                """
                SELECT count(*) FROM rollups WHERE type = ?1 AND period_start >= ?2 AND period_start < ?3
                AND +period = 'day' AND statistic = ?4 AND +label >= ?5 AND +label <= ?6 AND value IS NOT NULL
                """,
                [
                    .text(metric), .text(window.lower), .text(window.upper), .text(statistic),
                    .text(range.lowerBound.description), .text(upper.description),
                ]
            ).integer ?? 0)
    }

    static func chooseStatistic(_ requested: String?, of metric: Metric) throws(ToolError) -> String {
        let names = metric.statistics.map(\.name)
        guard !names.isEmpty else {
            throw ToolError.notFound(
                "\(metric.displayName) has no rollups (a \(metric.kind) type); samples lists its rows"
                    + (metric.kind == "correlation"
                        ? ", and its parts (e.g. Systolic Blood Pressure) have series." : "."))
        }
        if let requested {
            guard names.contains(requested) else {
                throw ToolError.argument(
                    name: "statistic",
                    reason: "\(metric.displayName) has no '\(requested.prefix(40))'; it has: "
                        + names.joined(separator: ", "))
            }
            return requested
        }
        guard let chosen = metric.defaultStatistic else {
            throw ToolError.argument(
                name: "statistic",
                reason: "\(metric.displayName) needs one: " + names.joined(separator: ", ")
                    + (metric.shortName == "SleepAnalysis" ? " (or use sleep_nights)" : ""))
        }
        return chosen
    }

    /// The rows of `source` period whose label falls in `covered`; for averages with each period's count.
    static func readRows(
        _ db: SQLiteConnection, metric: String, statistic: String, source: String, covered: ClosedRange<LocalDate>,
        _ body: (String, Double, Double?, String?) -> Void
    ) throws {
        let month = SeriesPeriod.month
        let lower = source == "month" ? month.label(covered.lowerBound) : covered.lowerBound.description
        let upper = source == "month" ? month.label(covered.upperBound) : covered.upperBound.description
        // An average is combined weighted by its period's reading count, the `count` row beside it.
        let readings =
            statistic == RollupStatistic.average
            ? """
            (SELECT c.value FROM rollups c WHERE c.period = r.period AND c.label = r.label AND c.type = r.type
             AND c.statistic = 'count')
            """ : "NULL"
        // The unary `+` keeps period and label out of index choice, so SQLite reads this type's rows by
        // (type, period_start) instead of every type's rows of the range by (period, label): 20 times fewer rows
        // on ten years, and no index is named.
        let statement = try db.prepare(
            """
            SELECT r.label, r.value, r.sources, \(readings) AS readings FROM rollups r
            WHERE r.type = ?2 AND r.period_start >= ?6 AND r.period_start < ?7
            AND +r.period = ?1 AND r.statistic = ?3 AND +r.label >= ?4 AND +r.label <= ?5
            ORDER BY r.label
            """)
        let window = instantWindow(covered)
        try statement.forEachRowBound([
            .text(source), .text(metric), .text(statistic), .text(lower), .text(upper), .text(window.lower),
            .text(window.upper),
        ]) { row in
            guard let label = row.text(0), !row.isNull(1) else { return }
            body(label, row.double(1), row.isNull(3) ? nil : row.double(3), row.text(2))
        }
    }

    /// UTC instants that hold the start of every period of `covered` whatever the zone (offsets are within ±14
    /// hours): with the type, they let SQLite read only this type's rows of these days, not every type's.
    static func instantWindow(_ covered: ClosedRange<LocalDate>) -> (lower: String, upper: String) {
        (
            instant(covered.lowerBound.adding(days: -2)), instant(covered.upperBound.adding(days: 2))
        )
    }

    /// Midnight UTC of a day as the tables write instants; past year 9999 the last instant there is (text
    /// compares `10000-…` below `2024-…`, so a range to 9999-12-31 would otherwise find nothing).
    static func instant(_ day: LocalDate) -> String {
        day.year > 9_999 ? "9999-12-31T23:59:59Z" : day.description + "T00:00:00Z"
    }

    /// The first day of a stored period from its label (`2024-03-24`, a week's Monday, `2024-03`).
    static func startDay(ofLabel label: String, source: String) -> LocalDate? {
        source == "month" ? LocalDate(label + "-01") : LocalDate(label)
    }
}
